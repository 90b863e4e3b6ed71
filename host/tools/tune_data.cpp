#include "tune_data.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "chess/epd.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "match/engine_process.h"

namespace db::tune {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Seeded random numbers, the same on every platform (std::uniform_*_distribution are not).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  std::size_t below(std::size_t n) { return std::size_t(next() % n); }

 private:
  std::uint64_t state_;
};

// Game i's random numbers depend on the seed and i only: any job may play it, with the same moves.
std::uint64_t game_seed(std::uint64_t seed, std::int64_t game) {
  Rng r(seed ^ (0xD1B54A32D192ED03ULL * std::uint64_t(game + 1)));
  r.next();
  return r.next();
}

bool executable_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The engine's path: as given if it has a '/', else looked up on PATH. Throws naming it if absent.
std::string find_engine(const std::string& engine) {
  if (engine.empty()) throw std::invalid_argument("--engine: empty path");
  if (engine.find('/') != std::string::npos) {
    if (!executable_file(engine))
      throw std::invalid_argument("engine '" + engine +
                                  "' not found or not executable (Stockfish 15.1 is Debian's stockfish "
                                  "package, installed by scripts/deps)");
    return engine;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + engine;
    if (executable_file(candidate)) return candidate;
  }
  throw std::invalid_argument("engine '" + engine + "' not found on PATH");
}

struct SearchResult {
  std::string bestmove;
  std::vector<InfoScore> lines;  // index k: MultiPV line k+1 (the last info line reported for it)
};

// A UCI engine at fixed nodes a move; errors name the engine.
class Engine {
 public:
  Engine(const std::string& path, int threads, int hash_mib) : path_(path), process_({path}) {
    process_.send("uci");
    for (;;) {
      auto line = process_.read_line(milliseconds(10000));
      if (!line) throw std::runtime_error("engine '" + path_ + "': no 'uciok' (not a UCI engine, or it died)");
      if (line->rfind("id name ", 0) == 0) name_ = line->substr(8);
      if (*line == "uciok") break;
    }
    process_.send("setoption name Threads value " + std::to_string(threads));
    process_.send("setoption name Hash value " + std::to_string(hash_mib));
    process_.send("setoption name MultiPV value 1");
    sync();
  }
  const std::string& name() const { return name_; }

  // Clears the engine's hash and history, so that a game's searches do not depend on earlier games.
  void new_game() {
    process_.send("ucinewgame");
    sync();
  }

  SearchResult search(const std::string& start_fen, const std::string& moves, std::uint64_t nodes, int multipv) {
    if (multipv != multipv_) {
      process_.send("setoption name MultiPV value " + std::to_string(multipv));
      multipv_ = multipv;
    }
    process_.send("position fen " + start_fen + (moves.empty() ? "" : " moves" + moves));
    process_.send("go nodes " + std::to_string(nodes));
    // A fixed-node search has no clock: a generous bound, only to turn a hung engine into an error.
    const auto timeout = milliseconds(30000 + nodes / 100);
    const auto deadline = Clock::now() + timeout;
    SearchResult r;
    for (;;) {
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
      auto line = left.count() > 0 ? process_.read_line(left) : std::nullopt;
      if (!line) {
        if (Clock::now() < deadline)
          throw std::runtime_error("engine '" + path_ + "' died (its output closed during a search)");
        throw std::runtime_error(fmt::format("engine '{}' stopped answering (no bestmove after {} s of 'go nodes {}')",
                                             path_, timeout.count() / 1000, nodes));
      }
      if (line->rfind("bestmove", 0) == 0) {
        std::istringstream in(*line);
        std::string word;
        in >> word >> r.bestmove;
        if (r.bestmove.empty() || r.bestmove == "(none)")
          throw std::runtime_error("engine '" + path_ + "' found no move in a position with legal moves");
        return r;
      }
      if (auto s = parse_info(*line)) {
        if (s->multipv < 1 || s->multipv > 256) continue;
        if (r.lines.size() < std::size_t(s->multipv)) r.lines.resize(std::size_t(s->multipv));
        // The last exact score of each line; a bound (a failed aspiration window, or a line cut by
        // the node limit) only while no exact score came.
        InfoScore& kept = r.lines[std::size_t(s->multipv - 1)];
        if (!s->bound || kept.move.empty() || kept.bound) kept = *s;
      }
    }
  }

 private:
  void sync() {
    process_.send("isready");
    if (!process_.wait_for("readyok", milliseconds(30000)))
      throw std::runtime_error("engine '" + path_ + "': no 'readyok' (it died or hangs)");
  }
  std::string path_;
  match::EngineProcess process_;
  std::string name_ = "unknown engine";
  int multipv_ = 1;
};

struct Record {
  std::string fen;
  int score;
};

struct Game {
  std::int64_t id = 0;
  std::vector<Record> records;
  double result_white = 0.5;
  std::string reason;
  std::int64_t searches = 0;
};

std::string result_text(double r) { return r == 1.0 ? "1" : r == 0.0 ? "0" : "0.5"; }

// One game from the opening; nothing if stop was set before it ended.
std::optional<Game> play_game(Engine& engine, const Position& opening, std::int64_t id, const DataOptions& opt,
                              const std::atomic<bool>& stop) {
  Game g;
  g.id = id;
  Rng rng(game_seed(opt.seed, id));
  engine.new_game();
  const std::string start_fen = opening.fen();
  Position pos = opening;
  std::string moves;
  int streak = 0, streak_sign = 0;  // consecutive plies with |score| >= adjudicate_cp for one side (white's view)
  for (int ply = 0;; ++ply) {
    if (stop.load()) return std::nullopt;
    auto end = [&](double result_white, const char* reason) {
      g.result_white = result_white;
      g.reason = reason;
      return std::optional<Game>(std::move(g));
    };
    if (pos.is_checkmate()) return end(pos.side_to_move() == WHITE ? 0.0 : 1.0, "checkmate");
    if (pos.is_stalemate()) return end(0.5, "stalemate");
    if (pos.repetition_count() >= 2) return end(0.5, "threefold repetition");
    if (pos.halfmove_clock() >= 100) return end(0.5, "fifty-move rule");
    if (pos.has_insufficient_material()) return end(0.5, "insufficient material");
    if (ply >= opt.max_plies) return end(0.5, "move limit");

    // Always draw the number, so that a game's random sequence does not depend on random_plies.
    const bool random_ply = rng.uniform() < opt.random || ply < opt.random_plies;
    const SearchResult r = engine.search(start_fen, moves, opt.nodes, random_ply ? opt.multipv : 1);
    ++g.searches;
    if (r.lines.empty() || r.lines[0].move.empty())
      throw std::runtime_error("engine '" + opt.engine + "' reported no score with a PV for " + pos.fen());
    const InfoScore& best = r.lines[0];
    Move bestmove;
    try {
      bestmove = parse_uci(pos, r.bestmove);
    } catch (const NotationError& e) {
      throw std::runtime_error("engine '" + opt.engine + "' played an illegal move in " + pos.fen() + ": " + e.what());
    }

    // The record: a quiet position (not in check, the engine's best move neither a capture nor a
    // promotion) after the first skip_plies, with a cp score (mate scores are not recorded).
    if (ply >= opt.skip_plies && !pos.in_check() && !bestmove.is_capture() && !bestmove.is_promotion() && !best.mate)
      g.records.push_back({pos.fen(), best.value});

    // Adjudication: the same side ahead by adjudicate_cp (a mate score counts) on consecutive plies.
    const int stm_score = comparable(best);
    const int white_score = pos.side_to_move() == WHITE ? stm_score : -stm_score;
    const int sign = white_score >= opt.adjudicate_cp ? 1 : white_score <= -opt.adjudicate_cp ? -1 : 0;
    streak = sign != 0 && sign == streak_sign ? streak + 1 : sign != 0 ? 1 : 0;
    streak_sign = sign;
    if (streak >= opt.adjudicate_plies) return end(sign > 0 ? 1.0 : 0.0, "adjudicated: score");

    Move played = bestmove;
    if (random_ply) {
      // Uniformly among the MultiPV lines within the margin of the best (the best among them).
      std::vector<const InfoScore*> near;
      for (const InfoScore& line : r.lines)
        if (!line.move.empty() && comparable(line) >= comparable(best) - opt.random_margin) near.push_back(&line);
      const std::string text = near.empty() ? r.bestmove : near[rng.below(near.size())]->move;
      try {
        played = parse_uci(pos, text);
      } catch (const NotationError& e) {
        throw std::runtime_error("engine '" + opt.engine + "' reported an illegal PV move in " + pos.fen() + ": " +
                                 e.what());
      }
    }
    pos.make_move(played);
    moves += " " + move_to_uci(played);
  }
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void check_options(const DataOptions& opt) {
  if (opt.nodes == 0) throw std::invalid_argument("--nodes must be at least 1");
  if (opt.jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
  if (opt.positions < 0 || opt.games < 0) throw std::invalid_argument("--positions and --games must not be negative");
  if (opt.positions == 0 && opt.games == 0) throw std::invalid_argument("give a limit: --positions or --games");
  if (!(opt.random >= 0 && opt.random <= 1)) throw std::invalid_argument("--random must be within 0 and 1");
  if (opt.multipv < 1) throw std::invalid_argument("--multipv must be at least 1");
  if (opt.skip_plies >= opt.max_plies)
    throw std::invalid_argument(fmt::format("--skip-plies {} leaves nothing to record in games of at most {} plies",
                                            opt.skip_plies, opt.max_plies));
  if (opt.out.empty()) throw std::invalid_argument("--out: empty path");
}

}  // namespace

std::optional<InfoScore> parse_info(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  if (!(in >> word) || word != "info") return std::nullopt;
  InfoScore s;
  bool scored = false;
  while (in >> word) {
    if (word == "string") break;  // free text to the end of the line
    if (word == "multipv") {
      if (!(in >> s.multipv)) return std::nullopt;
    } else if (word == "score") {
      std::string kind;
      if (!(in >> kind >> s.value) || (kind != "cp" && kind != "mate")) return std::nullopt;
      s.mate = kind == "mate";
      scored = true;
    } else if (word == "lowerbound" || word == "upperbound") {
      s.bound = true;
    } else if (word == "pv") {
      in >> s.move;
      break;  // the rest is the variation
    }
  }
  if (!scored) return std::nullopt;
  return s;
}

int comparable(const InfoScore& s) {
  if (!s.mate) return s.value;
  return s.value > 0 ? 100000 - s.value : -100000 - s.value;  // "mate -3" is -99997; "mate 0" (mated) -100000
}

DataSummary generate_data(const DataOptions& opt) {
  check_options(opt);
  const std::string engine_path = find_engine(opt.engine);
  {
    std::ifstream probe(opt.openings);
    if (!probe) throw std::invalid_argument("cannot read openings file '" + opt.openings + "'");
  }
  const auto openings = read_epd_file(opt.openings, FenMode::Lenient);
  if (openings.empty()) throw std::invalid_argument("no openings in '" + opt.openings + "'");

  // The engines first: a bad engine is an error before the output file is touched.
  std::vector<std::unique_ptr<Engine>> engines;
  for (int j = 0; j < opt.jobs; ++j)
    engines.push_back(std::make_unique<Engine>(engine_path, opt.threads, opt.hash_mib));

  const std::filesystem::path out_path(opt.out);
  if (out_path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(out_path.parent_path(), ec);
    if (ec)
      throw std::runtime_error("cannot create directory '" + out_path.parent_path().string() + "': " + ec.message());
  }
  std::ofstream out(opt.out);
  if (!out) throw std::runtime_error("cannot write '" + opt.out + "'");

  DataSummary sum;
  sum.engine_name = engines[0]->name();
  out << fmt::format("# deepblue tune data: engine {} ({}), nodes {}, seed {}, date {}, command line: {}\n",
                     sum.engine_name, engine_path, opt.nodes, opt.seed, utc_now(), opt.command_line);
  out << fmt::format(
      "# random: the first {} plies and each later ply with probability {}, among MultiPV {} lines within {} cp; "
      "recorded: quiet positions after ply {}, cp scores only; adjudication: {} cp on {} plies, draw at {} plies\n",
      opt.random_plies, opt.random, opt.multipv, opt.random_margin, opt.skip_plies, opt.adjudicate_cp,
      opt.adjudicate_plies, opt.max_plies);
  out << "# fen;score_cp_stm;result_white;game_id\n";

  std::mutex mu;
  std::condition_variable cv;
  std::map<std::int64_t, Game> finished;  // games done, waiting for the ones before them
  std::string error;                      // the first worker's error
  std::atomic<bool> stop{false};
  std::atomic<std::int64_t> next_game{0};
  int running = opt.jobs;

  auto worker = [&](Engine& engine) {
    try {
      for (;;) {
        const std::int64_t id = next_game.fetch_add(1);
        if (stop.load() || (opt.games > 0 && id >= opt.games)) break;
        auto g = play_game(engine, openings[std::size_t(id) % openings.size()].position, id, opt, stop);
        if (!g) break;
        std::lock_guard<std::mutex> lock(mu);
        finished.emplace(id, std::move(*g));
        cv.notify_all();
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mu);
      if (error.empty()) error = e.what();
      stop = true;
    }
    std::lock_guard<std::mutex> lock(mu);
    --running;
    cv.notify_all();
  };

  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (auto& e : engines) threads.emplace_back(worker, std::ref(*e));

  // Games are written in id order (the file is the same for any --jobs); the last one is cut so that
  // exactly --positions lines are written.
  std::int64_t next_to_write = 0;
  auto last_progress = Clock::now() - std::chrono::seconds(1);
  auto show_progress = [&](bool final_line) {
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    const double rate = secs > 0 ? double(sum.positions) / secs : 0;
    std::string done;
    double fraction;
    if (opt.positions > 0) {
      done = fmt::format("positions {}/{}  games {}", sum.positions, opt.positions, sum.games);
      fraction = double(sum.positions) / double(opt.positions);
    } else {
      done = fmt::format("games {}/{}  positions {}", sum.games, opt.games, sum.positions);
      fraction = double(sum.games) / double(opt.games);
    }
    const double eta = fraction > 0 ? secs / fraction - secs : 0;
    std::cerr << fmt::format("\r{}  {:.1f} positions/s  {:.0f}s elapsed, ETA {:.0f}s   ", done, rate, secs, eta);
    if (final_line) std::cerr << "\n";
    std::cerr << std::flush;
  };
  {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      bool wrote = false;
      while (!stop.load() && !finished.empty() && finished.begin()->first == next_to_write) {
        Game g = std::move(finished.begin()->second);
        finished.erase(finished.begin());
        ++next_to_write;
        ++sum.games;
        sum.searches += g.searches;
        (g.result_white == 1.0 ? sum.white_wins : g.result_white == 0.0 ? sum.black_wins : sum.draws) += 1;
        for (const Record& r : g.records) {
          if (opt.positions > 0 && sum.positions >= opt.positions) break;
          out << r.fen << ';' << r.score << ';' << result_text(g.result_white) << ';' << g.id << '\n';
          ++sum.positions;
        }
        wrote = true;
        if ((opt.positions > 0 && sum.positions >= opt.positions) || (opt.games > 0 && sum.games >= opt.games))
          stop = true;
      }
      if (wrote) out.flush();
      if (opt.progress && Clock::now() - last_progress >= milliseconds(500)) {
        show_progress(false);
        last_progress = Clock::now();
      }
      if (running == 0) break;
      cv.wait_for(lock, milliseconds(500));
    }
  }
  for (auto& t : threads) t.join();
  sum.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (opt.progress) show_progress(true);
  if (!error.empty()) {
    out << fmt::format("# stopped by an error after {} positions: {}\n", sum.positions, error);
    throw std::runtime_error(fmt::format("{} ({} positions of {} games written to '{}' before it)", error,
                                         sum.positions, sum.games, opt.out));
  }
  out << fmt::format("# complete: {} positions, {} games (+{} ={} -{} for white), {} searches, {:.0f} s\n",
                     sum.positions, sum.games, sum.white_wins, sum.draws, sum.black_wins, sum.searches, sum.seconds);
  out.flush();
  if (!out) throw std::runtime_error("error writing '" + opt.out + "'");
  return sum;
}

}  // namespace db::tune
