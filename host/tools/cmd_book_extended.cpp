// deepblue book extend / book bonus: Deep Blue's extended book (AIJ 8.2, book/extended_book.h).
// `extend` summarises the games of a PGN file per position and move; `bonus` shows a position's
// summaries, the root bonus each move gets and whether one would be played at once.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "book/extended_book.h"
#include "book/polyglot_book.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct ExtendOptions {
  std::string pgn;
  std::string out;
  book::ExtendedBuildOptions build;
  bool json = false;
};

struct BonusOptions {
  std::string fen = "startpos";
  std::string book;
  int year = 0;
  bool json = false;
};

void run_extend(const ExtendOptions& opt) {
  const std::vector<PgnGame> games = read_pgn_file(opt.pgn);
  book::ExtendedBuildStats stats;
  const book::ExtendedBook book = book::ExtendedBook::build(games, opt.build, &stats);
  book.write(opt.out);
  if (opt.json) {
    print_json({{"pgn", opt.pgn},
                {"extended_book", opt.out},
                {"games", stats.games},
                {"bad_games", stats.bad_games},
                {"positions", stats.positions},
                {"moves", stats.moves},
                {"latest_year", book.latest_year()},
                {"max_ply", opt.build.max_ply},
                {"min_games", opt.build.min_games}});
    return;
  }
  std::cout << fmt::format("{}: {} games ({} with a bad move or FEN, used up to it) -> {}: {} positions, {} moves\n",
                           opt.pgn, stats.games, stats.bad_games, opt.out, stats.positions, stats.moves);
}

void run_bonus(const BonusOptions& opt) {
  const Position pos = parse_position_arg(opt.fen);
  const book::ExtendedBook book = book::ExtendedBook::read(opt.book);
  const std::vector<book::RootBonus> bonuses = book.bonuses(pos, opt.year);
  const std::optional<Move> now = book.immediate(pos, opt.year);
  if (opt.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const book::RootBonus& b : bonuses) {
      const book::MoveSummary& s = b.summary;
      list.push_back({{"move", move_to_uci(b.move)},
                      {"san", move_to_san(pos, b.move)},
                      {"bonus", b.bonus},
                      {"games", s.games},
                      {"wins", s.wins},
                      {"draws", s.draws},
                      {"losses", s.losses},
                      {"score", s.score()},
                      {"average_elo", s.average_elo()},
                      {"last_year", s.last_year},
                      {"good", s.good},
                      {"bad", s.bad}});
    }
    print_json({{"extended_book", opt.book},
                {"fen", pos.fen()},
                {"moves", list},
                {"immediate", now ? nlohmann::json(move_to_uci(*now)) : nlohmann::json()}});
    return;
  }
  if (bonuses.empty()) {
    std::cout << "not in the extended book\n";
    return;
  }
  std::cout << fmt::format("{:6} {:7} {:>5} {:>6} {:>6} {:>5} {:>5} {:>5}\n", "move", "san", "bonus", "games", "score",
                           "elo", "year", "!/?");
  for (const book::RootBonus& b : bonuses)
    std::cout << fmt::format("{:6} {:7} {:>+5} {:>6} {:>5.1f}% {:>5} {:>5} {:>2}/{}\n", move_to_uci(b.move),
                             move_to_san(pos, b.move), b.bonus, b.summary.games, 100 * b.summary.score(),
                             b.summary.average_elo(), b.summary.last_year, b.summary.good, b.summary.bad);
  std::cout << "played at once: " << (now ? move_to_uci(*now) : std::string("none (the search decides)")) << "\n";
}

}  // namespace

void add_extended_book_commands(CLI::App* book_cmd) {
  auto extend = std::make_shared<ExtendOptions>();
  CLI::App* e = book_cmd->add_subcommand("extend", "Make an extended book (AIJ 8.2) from the games of a PGN file");
  e->add_option("--pgn", extend->pgn, "PGN file of games")->required()->check(CLI::ExistingFile);
  e->add_option("--out", extend->out, "Extended book file to write")->required();
  e->add_option("--max-ply", extend->build.max_ply, "Positions up to this many plies into each game")
      ->check(CLI::Range(1, 400))
      ->capture_default_str();
  e->add_option("--min-games", extend->build.min_games, "Keep a move played in at least this many games")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  e->add_flag("--json", extend->json, "Print one JSON object");
  e->callback([extend] { run_extend(*extend); });

  auto bonus = std::make_shared<BonusOptions>();
  CLI::App* b = book_cmd->add_subcommand("bonus", "A position's extended-book moves and the root bonus of each");
  b->add_option("--fen", bonus->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  b->add_option("--extended-book", bonus->book, "Extended book file")->required();
  b->add_option("--year", bonus->year, "The current year, for recency (default: the book's latest)")
      ->check(CLI::Range(0, 9999));
  b->add_flag("--json", bonus->json, "Print one JSON object");
  b->callback([bonus] { run_bonus(*bonus); });
}

}  // namespace db::cli
