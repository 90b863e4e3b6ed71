// deepblue book: Polyglot opening books. `probe` lists a position's book moves with their weights;
// `build` makes a book from the games of a PGN file.
#include <iostream>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "book/book_builder.h"
#include "book/choice.h"
#include "book/polyglot_book.h"
#include "book/polyglot_key.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "cli_common.h"
#include "commands.h"

namespace db::cli {

namespace {

struct BookProbeOptions {
  std::string fen = "startpos";
  std::string book = book::kDefaultBookPath;
  std::string choose;  // empty: list only
  std::uint64_t seed = 1;
  bool json = false;
};

struct BookBuildOptions {
  std::string pgn;
  std::string out;
  book::BuildOptions build;
  bool json = false;
};

void run_probe(const BookProbeOptions& opt) {
  const Position pos = parse_position_arg(opt.fen);
  const book::PolyglotBook book = book::PolyglotBook::open(opt.book);
  const std::vector<book::BookMove> moves = book.probe(pos);
  std::uint64_t total = 0;
  for (const book::BookMove& m : moves) total += m.weight;
  const std::string key = fmt::format("{:016x}", book::polyglot_key(pos));
  std::string chosen;
  if (!opt.choose.empty()) {
    std::mt19937_64 rng(opt.seed);
    const Move m = book::choose(moves, book::parse_choice(opt.choose), rng);
    chosen = m.is_none() ? "" : move_to_uci(m);
  }
  if (opt.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const book::BookMove& m : moves)
      list.push_back({{"move", move_to_uci(m.move)},
                      {"san", move_to_san(pos, m.move)},
                      {"weight", m.weight},
                      {"learn", m.learn},
                      {"share", total ? double(m.weight) / double(total) : 0.0}});
    nlohmann::json j = {{"book", opt.book}, {"book_entries", book.size()}, {"fen", pos.fen()}, {"key", key},
                        {"moves", list},    {"total_weight", total}};
    if (!opt.choose.empty()) j["chosen"] = chosen.empty() ? nlohmann::json() : nlohmann::json(chosen);
    print_json(j);
    return;
  }
  std::cout << fmt::format("{}: {} entries; key {} ({})\n", opt.book, book.size(), key, pos.fen());
  if (moves.empty()) {
    std::cout << "not in the book\n";
  } else {
    std::cout << fmt::format("{:6} {:7} {:>6} {:>10} {:>7}\n", "move", "san", "weight", "learn", "share");
    for (const book::BookMove& m : moves)
      std::cout << fmt::format("{:6} {:7} {:>6} {:>10} {:>6.1f}%\n", move_to_uci(m.move), move_to_san(pos, m.move),
                               m.weight, m.learn, total ? 100.0 * m.weight / double(total) : 0.0);
  }
  if (!opt.choose.empty()) std::cout << "chosen (" << opt.choose << "): " << (chosen.empty() ? "none" : chosen) << "\n";
}

void run_build(const BookBuildOptions& opt) {
  const std::vector<PgnGame> games = read_pgn_file(opt.pgn);
  book::BuildStats stats;
  const std::vector<book::Entry> entries = book::build_entries(games, opt.build, &stats);
  book::write_book(opt.out, entries);
  if (opt.json) {
    print_json({{"pgn", opt.pgn},
                {"book", opt.out},
                {"games", stats.games},
                {"bad_games", stats.bad_games},
                {"positions", stats.positions},
                {"entries", stats.entries},
                {"max_ply", opt.build.max_ply},
                {"min_games", opt.build.min_games},
                {"weight_results", opt.build.weight_results}});
    return;
  }
  std::cout << fmt::format("{}: {} games ({} with a bad move or FEN, used up to it) -> {}: {} positions, {} entries\n",
                           opt.pgn, stats.games, stats.bad_games, opt.out, stats.positions, stats.entries);
}

}  // namespace

void add_book_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "book", "Opening books: Polyglot (probe a position, build from PGN) and the extended book (extend, bonus)");
  cmd->require_subcommand(1);
  add_extended_book_commands(cmd);

  auto probe = std::make_shared<BookProbeOptions>();
  CLI::App* p = cmd->add_subcommand("probe", "List the book moves of a position with their weights");
  p->add_option("--fen", probe->fen, "Position as FEN, or 'startpos'")->capture_default_str();
  p->add_option("--book", probe->book, "Polyglot book file")->capture_default_str();
  p->add_option("--choose", probe->choose, "Also pick a move as the engine would: weighted or best")
      ->check(CLI::IsMember({"weighted", "best"}));
  p->add_option("--seed", probe->seed, "Random seed of --choose weighted")->capture_default_str();
  p->add_flag("--json", probe->json, "Print one JSON object");
  p->callback([probe] { run_probe(*probe); });

  auto build = std::make_shared<BookBuildOptions>();
  CLI::App* b = cmd->add_subcommand("build", "Make a Polyglot book from the games of a PGN file");
  b->add_option("--pgn", build->pgn, "PGN file of games")->required()->check(CLI::ExistingFile);
  b->add_option("--out", build->out, "Book file to write")->required();
  b->add_option("--max-ply", build->build.max_ply, "Positions up to this many plies into each game")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  b->add_option("--min-games", build->build.min_games, "Keep a move played in at least this many games")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  b->add_flag("--weight-results", build->build.weight_results,
              "Weight 2 per win and 1 per draw of the side that moved (Polyglot's rule) instead of games");
  b->add_flag("--json", build->json, "Print one JSON object");
  b->callback([build] { run_build(*build); });
}

}  // namespace db::cli
