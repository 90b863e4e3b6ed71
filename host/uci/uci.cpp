#include "uci/uci.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "chess/notation.h"
#include "search/score.h"

namespace db::uci {

namespace {

std::vector<std::string> split(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

std::string printable(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, 60)) out += (c >= 32 && c < 127) ? c : '?';
  return out;
}

// Parses a non-negative integer option value; throws std::invalid_argument naming the token.
std::int64_t parse_count(const std::string& name, const std::string& value) {
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || used == 0)
    throw std::invalid_argument("'" + name + "' needs a number, got '" + printable(value) + "'");
  return v;
}

std::string score_text(int score) {
  if (search::is_mate_score(score)) return "mate " + std::to_string(search::mate_in_moves(score));
  return "cp " + std::to_string(score);
}

}  // namespace

UciEngine::UciEngine(std::istream& in, std::ostream& out, LeafFactory make_leaf_search,
                     search::EvaluatorFactory chip_evaluation)
    : in_(in),
      out_(out),
      tt_(16),
      searcher_(tt_),
      make_leaf_search_(std::move(make_leaf_search)),
      chip_evaluation_(std::move(chip_evaluation)) {
  // Deep Blue's evaluation scores the software's leaves wherever the engine has it (issue 23: at
  // equal time it is as strong as the interim evaluation, at equal nodes stronger).
  if (!chip_evaluation_) {
    options_.evaluation = "interim";
    return;
  }
  search::SearchOptions so = searcher_.options();
  so.evaluator = options_.evaluation == "chip" ? chip_evaluation_ : search::EvaluatorFactory{};
  searcher_.set_options(so);
}

namespace {

// A board behind a serial port (or `deepblue boardsim`'s pseudo-terminal) instead of chip servers.
bool is_serial(const std::string& list) { return list.rfind("serial:", 0) == 0; }

// HOST:PORT[,HOST:PORT...], serial:PATH[@BAUD] (or empty): the form only (the serial form is checked
// when the chips are claimed); whether a server answers shows at the search.
void check_server_list(const std::string& list) {
  if (list.empty()) return;
  if (is_serial(list)) {
    if (list.size() == 7) throw std::invalid_argument("RemoteChips: serial: needs a device path (serial:PATH[@BAUD])");
    return;
  }
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    const std::size_t colon = item.rfind(':');
    const std::string port = colon == std::string::npos ? "" : item.substr(colon + 1);
    const bool port_ok = !port.empty() && port.size() <= 5 &&
                         port.find_first_not_of("0123456789") == std::string::npos && std::stoul(port) >= 1 &&
                         std::stoul(port) <= 65535;
    if (colon == 0 || !port_ok || item.find(' ') != std::string::npos) {
      throw std::invalid_argument("RemoteChips must be HOST:PORT[,HOST:PORT...], got '" + printable(item) + "' in '" +
                                  printable(list) + "'");
    }
    at = comma + 1;
  }
}

}  // namespace

int UciEngine::threads() const {
  return options_.threads > 0 ? options_.threads : std::max(1, int(std::thread::hardware_concurrency()));
}

void UciEngine::prepare_leaf_search() {
  if (options_.chip_depth == 0) {
    searcher_.set_leaf_search(nullptr);
    return;
  }
  if (leaf_stale_ || !leaf_) {
    searcher_.set_leaf_search(nullptr);
    leaf_.reset();
    const std::string backend = options_.remote_chips.empty()      ? options_.backend
                                : is_serial(options_.remote_chips) ? options_.remote_chips
                                                                   : "remote:" + options_.remote_chips;
    try {
      leaf_ = make_leaf_search_(backend, options_.chips, options_.chip_depth);
    } catch (const std::exception& e) {
      // A GUI waits for bestmove after go: say why there are no chips, and search without them.
      error(std::string(e.what()) + " (searching with software leaves)");
      searcher_.set_leaf_search(nullptr);
      return;
    }
    leaf_stale_ = false;
  }
  if (leaf_->threads() != threads()) leaf_->set_threads(threads());
  searcher_.set_leaf_search(leaf_.get());
}

UciEngine::~UciEngine() { stop_search(); }

void UciEngine::set_egtb_path(const std::string& dir) {
  stop_search();
  if (!dir.empty() && !std::filesystem::is_directory(dir))
    throw std::invalid_argument("EgtbPath: '" + printable(dir) + "' is not a directory (deepblue egtb build makes it)");
  options_.egtb_path = dir;
  tablebases_ = dir.empty() ? nullptr : std::make_unique<egtb::Tablebases>(dir);
  search::SearchOptions so = searcher_.options();
  so.tablebases = tablebases_.get();
  searcher_.set_options(so);
}

void UciEngine::send(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << std::endl;
}

void UciEngine::error(const std::string& what) { send("info string error " + what); }

void UciEngine::loop() {
  std::string line;
  while (std::getline(in_, line))
    if (!handle(line)) return;
  stop_search();
}

void UciEngine::stop_search() {
  searcher_.stop();
  if (search_thread_.joinable()) search_thread_.join();
}

void UciEngine::wait_for_search() {
  if (search_thread_.joinable()) search_thread_.join();
}

bool UciEngine::handle(const std::string& line) {
  const std::vector<std::string> tokens = split(line);
  if (tokens.empty()) return true;
  const std::string& cmd = tokens[0];
  try {
    if (cmd == "uci")
      cmd_uci();
    else if (cmd == "isready")
      send("readyok");
    else if (cmd == "ucinewgame") {
      stop_search();
      tt_.clear();
      searcher_.clear_history();
      position_ = Position();
    } else if (cmd == "setoption")
      cmd_setoption(tokens);
    else if (cmd == "position")
      cmd_position(tokens);
    else if (cmd == "go")
      cmd_go(tokens);
    else if (cmd == "stop")
      stop_search();
    else if (cmd == "ponderhit")
      searcher_.ponderhit();
    else if (cmd == "quit") {
      stop_search();
      return false;
    } else if (cmd == "d")
      send(position_.fen());
    else
      error("unknown command '" + printable(cmd) + "'");
  } catch (const std::exception& e) {
    error(e.what());
  }
  return true;
}

void UciEngine::cmd_uci() {
  send("id name DeepBlue-rebuild 0.1");
  send("id author the Deep Blue rebuild team");
  send("option name Hash type spin default 16 min 1 max 65536");
  send("option name Clear Hash type button");
  send("option name Chips type spin default 1 min 1 max 480");
  send("option name Backend type combo default model var model var rtl var cosim var mca");
  send("option name RemoteChips type string default <empty>");
  send("option name ChipDepth type spin default 0 min 0 max 8");
  send("option name Workers type spin default 1 min 1 max 480");
  send("option name Threads type spin default " + std::to_string(threads()) + " min 1 max 512");
  send("option name Move Overhead type spin default 30 min 0 max 5000");
  send("option name MultiPV type spin default 1 min 1 max " + std::to_string(search::kMaxMultiPv));
  send("option name Ponder type check default false");
  send("option name Contempt type spin default 0 min -200 max 200");
  send("option name DualCredit type check default true");
  send(chip_evaluation_ ? "option name Evaluation type combo default chip var chip var interim"
                        : "option name Evaluation type combo default interim var interim");
  if (chip_evaluation_)
    send("option name LazyMargin type spin default " + std::to_string(search::kDefaultLazyMargin) + " min 0 max 2000");
  if (eval_params_handler_) send("option name EvalParams type string default <empty>");
  send("option name OwnBook type check default true");
  send(std::string("option name BookFile type string default ") + book::kDefaultBookPath);
  send("option name ExtendedBook type string default <empty>");
  send("option name EgtbPath type string default " +
       (options_.egtb_path.empty() ? std::string("<empty>") : options_.egtb_path));
  send("uciok");
}

void UciEngine::cmd_setoption(const std::vector<std::string>& tokens) {
  // setoption name <words...> [value <words...>]
  std::string name, value;
  std::string* target = nullptr;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (tokens[i] == "name")
      target = &name;
    else if (tokens[i] == "value")
      target = &value;
    else if (target)
      *target += (target->empty() ? "" : " ") + tokens[i];
    else
      throw std::invalid_argument("setoption: expected 'name', got '" + printable(tokens[i]) + "'");
  }
  stop_search();
  if (name == "Hash") {
    const auto mib = parse_count(name, value);
    if (mib < 1 || mib > 65536) throw std::invalid_argument("Hash must be 1..65536 MiB");
    options_.hash_mib = std::size_t(mib);
    tt_.resize(options_.hash_mib);
  } else if (name == "Clear Hash") {
    tt_.clear();
  } else if (name == "Chips") {
    const auto n = parse_count(name, value);
    if (n < 1 || n > 480) throw std::invalid_argument("Chips must be 1..480");
    options_.chips = int(n);
    leaf_stale_ = true;
  } else if (name == "ChipDepth") {
    const auto n = parse_count(name, value);
    if (n < 0 || n > 8) throw std::invalid_argument("ChipDepth must be 0..8");
    if (n > 0 && !make_leaf_search_) throw std::invalid_argument("ChipDepth: this engine was built without chips");
    options_.chip_depth = int(n);
    leaf_stale_ = true;
  } else if (name == "Backend") {
    if (value != "model" && value != "rtl" && value != "cosim" && value != "mca")
      throw std::invalid_argument("Backend must be model, rtl, cosim or mca, got '" + printable(value) + "'");
    options_.backend = value;
    leaf_stale_ = true;
  } else if (name == "RemoteChips") {
    // Chips behind `deepblue chipd` or a board's serial port (docs/link.md), used instead of Backend
    // while set; the servers are reached when the next search starts.
    const std::string v = value == "<empty>" ? "" : value;
    check_server_list(v);
    options_.remote_chips = v;
    leaf_stale_ = true;
  } else if (name == "Move Overhead") {
    options_.move_overhead_ms = parse_count(name, value);
  } else if (name == "MultiPV") {
    const auto n = parse_count(name, value);
    if (n < 1 || n > search::kMaxMultiPv)
      throw std::invalid_argument("MultiPV must be 1.." + std::to_string(search::kMaxMultiPv) + ", got '" +
                                  printable(value) + "'");
    options_.multipv = int(n);
    search::SearchOptions so = searcher_.options();
    so.multipv = options_.multipv;
    searcher_.set_options(so);
  } else if (name == "Threads") {
    // OS threads clocking the chips while the search waits; Workers are software searchers.
    const auto n = parse_count(name, value);
    if (n < 1 || n > 512) throw std::invalid_argument("Threads must be 1..512");
    options_.threads = int(n);
  } else if (name == "Workers") {
    // Software workers sharing the chips (AIJ 6; used with ChipDepth > 0 and Chips > 1).
    const auto n = parse_count(name, value);
    if (n < 1 || n > 480) throw std::invalid_argument("Workers must be 1..480");
    search::SearchOptions so = searcher_.options();
    so.workers = int(n);
    searcher_.set_options(so);
  } else if (name == "Contempt") {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != value.size() || v < -200 || v > 200)
      throw std::invalid_argument("Contempt must be a number from -200 to 200, got '" + printable(value) + "'");
    search::SearchOptions so = searcher_.options();
    so.contempt = v;
    searcher_.set_options(so);
  } else if (name == "ExtendedBook") {
    // AIJ 8.2: bonuses for the root moves strong players chose; a dominating one is played at once.
    options_.extended_book = value == "<empty>" ? "" : value;
    extended_book_.reset();
    if (!options_.extended_book.empty()) {
      try {
        extended_book_ = book::ExtendedBook::read(options_.extended_book);
      } catch (const book::BookError& e) {
        error(std::string(e.what()) + " (playing without an extended book)");
      }
    }
  } else if (name == "Evaluation") {
    // What scores the software's own leaves: its interim evaluation or Deep Blue's (the chip's).
    if (value != "interim" && value != "chip")
      throw std::invalid_argument("Evaluation must be interim or chip, got '" + printable(value) + "'");
    if (value == "chip" && !chip_evaluation_)
      throw std::invalid_argument("Evaluation chip is not available in this engine (no chip library)");
    options_.evaluation = value;
    search::SearchOptions so = searcher_.options();
    so.evaluator = value == "chip" ? chip_evaluation_ : search::EvaluatorFactory{};
    searcher_.set_options(so);
  } else if (name == "LazyMargin") {
    // The chip evaluation's lazy stand pat in the quiescence search (docs/evaluation.md); 0: off.
    const auto n = parse_count(name, value);
    if (n > 2000) throw std::invalid_argument("LazyMargin must be 0..2000, got '" + printable(value) + "'");
    options_.lazy_margin = int(n);
    search::SearchOptions so = searcher_.options();
    so.lazy_margin = options_.lazy_margin;
    searcher_.set_options(so);
  } else if (name == "EvalParams") {
    // The chip evaluation generator's parameters (docs/evaluation.md): empty or default, hand, or a
    // JSON file. The chips get them at the next search (rebuilt), the chip evaluation at once.
    if (!eval_params_handler_) throw std::invalid_argument("EvalParams is not available in this engine (no chips)");
    const std::string v = value == "<empty>" ? "" : value;
    chip_evaluation_ = eval_params_handler_(v);  // throws for a bad value: the old parameters stay
    options_.eval_params = v;
    leaf_stale_ = true;
    if (options_.evaluation == "chip") {
      search::SearchOptions so = searcher_.options();
      so.evaluator = chip_evaluation_;
      searcher_.set_options(so);
    }
  } else if (name == "DualCredit") {
    if (value != "true" && value != "false") throw std::invalid_argument("DualCredit must be true or false");
    search::SearchOptions so = searcher_.options();
    so.dual_credit = value == "true";
    searcher_.set_options(so);
  } else if (name == "OwnBook") {
    if (value != "true" && value != "false") throw std::invalid_argument("OwnBook must be true or false");
    options_.own_book = value == "true";
    book_state_ = BookState::Unloaded;
    if (options_.own_book) load_book();  // a bad book is reported now, not at the first go
  } else if (name == "BookFile") {
    options_.book_file = value == "<empty>" ? "" : value;
    book_state_ = BookState::Unloaded;
    if (options_.own_book) load_book();
  } else if (name == "EgtbPath") {
    set_egtb_path(value == "<empty>" ? "" : value);
  } else if (name == "Ponder") {
    // Accepted: pondering is driven by "go ponder" / "ponderhit".
  } else {
    throw std::invalid_argument("unknown option '" + printable(name) + "'");
  }
}

void UciEngine::cmd_position(const std::vector<std::string>& tokens) {
  std::size_t i = 1;
  Position pos;
  if (i < tokens.size() && tokens[i] == "startpos") {
    ++i;
  } else if (i < tokens.size() && tokens[i] == "fen") {
    std::string fen;
    for (++i; i < tokens.size() && tokens[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + tokens[i];
    pos = Position::from_fen(fen);
  } else {
    throw std::invalid_argument("position: expected 'startpos' or 'fen'");
  }
  if (i < tokens.size()) {
    if (tokens[i] != "moves")
      throw std::invalid_argument("position: expected 'moves', got '" + printable(tokens[i]) + "'");
    for (++i; i < tokens.size(); ++i) pos.make_move(parse_uci(pos, tokens[i]));
  }
  stop_search();
  position_ = pos;  // only a fully valid command replaces the position
}

void UciEngine::cmd_go(const std::vector<std::string>& tokens) {
  stop_search();
  search::Limits limits;
  limits.clock.move_overhead_ms = options_.move_overhead_ms;
  const bool white = position_.side_to_move() == WHITE;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    auto value = [&]() -> std::int64_t {
      if (i + 1 >= tokens.size()) throw std::invalid_argument("go: '" + t + "' needs a value");
      return parse_count(t, tokens[++i]);
    };
    if (t == "infinite")
      limits.infinite = true;
    else if (t == "ponder")
      limits.ponder = true;
    else if (t == "depth")
      limits.depth = int(value());
    else if (t == "nodes")
      limits.nodes = std::uint64_t(value());
    else if (t == "movetime")
      limits.movetime_ms = value();
    else if (t == "wtime") {
      auto v = value();
      if (white) limits.clock.time_left_ms = v;
    } else if (t == "btime") {
      auto v = value();
      if (!white) limits.clock.time_left_ms = v;
    } else if (t == "winc") {
      auto v = value();
      if (white) limits.clock.increment_ms = v;
    } else if (t == "binc") {
      auto v = value();
      if (!white) limits.clock.increment_ms = v;
    } else if (t == "movestogo")
      limits.clock.moves_to_go = int(value());
    else if (t == "mate")
      limits.depth = int(2 * value() + 1);
    else
      throw std::invalid_argument("go: unknown token '" + printable(t) + "'");
  }
  // Analysis (infinite) and pondering want a search and a bestmove only after stop or ponderhit.
  if (options_.own_book && !limits.infinite && !limits.ponder && play_book_move()) return;
  if (!limits.infinite && !limits.ponder && use_extended_book(limits)) return;
  if (!runner_) prepare_leaf_search();
  searcher_.clear_stop();
  const Position root = position_;
  search_thread_ = std::thread([this, root, limits] {
    const search::Searcher::IterationCallback on_iteration = [this](const search::IterationInfo& info) {
      // One info line per MultiPV line, best first ("multipv 1" is the move the engine would play).
      const double secs = std::max(info.seconds, 1e-6);
      std::vector<search::PvLine> lines = info.lines;
      if (lines.empty()) lines.push_back({info.pv.empty() ? Move::none() : info.pv[0], info.score, info.pv});
      for (std::size_t i = 0; i < lines.size(); ++i) {
        std::ostringstream line;
        line << "info depth " << info.depth << " seldepth " << info.seldepth << " multipv " << i + 1 << " score "
             << score_text(lines[i].score) << " nodes " << info.nodes << " nps "
             << std::uint64_t(double(info.nodes) / secs) << " time " << std::int64_t(info.seconds * 1000)
             << " hashfull " << info.hashfull << " pv";
        for (Move m : lines[i].pv) line << ' ' << move_to_uci(m);
        send(line.str());
      }
    };
    const auto result =
        runner_ ? runner_(searcher_, root, limits, on_iteration) : searcher_.run(root, limits, on_iteration);
    std::string best = "bestmove " + move_to_uci(result.best);
    if (!result.ponder.is_none()) best += " ponder " + move_to_uci(result.ponder);
    send(best);
  });
}

}  // namespace db::uci
