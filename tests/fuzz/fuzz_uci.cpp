// libFuzzer target for the UCI engine (host/uci), with Deep Blue's chip evaluation for the software's
// leaves as `deepblue uci` has it. Two kinds of input:
//   - text: a session, one command line per line, handed to UciEngine::handle as a GUI would send
//     it;
//   - first byte 0x01: a game from the start position, as a match plays it, long enough to reach
//     endgames: each byte below 0x80 plays legal move (byte mod count), each byte from 0x80 sends
//     "position startpos moves ..." and a "go" (depth 1 or 2, 300 nodes, a 1 ms move time or a
//     short clock, by its low bits) and plays the engine's answer (the first 24 such bytes of a
//     game; later ones play a move like the others, so that a run stays short).
// Besides "no crash, no hang, no undefined behaviour":
//   - every finite "go" ends with exactly one "bestmove", or with an error line and none;
//   - that move is legal in the engine's position (read back with "d"), or "0000" where the
//     position has no legal move;
//   - the engine still answers "isready" at the end.
// Kept out of the session, because they do what they are asked by design: the options that read
// the user's files or take the user's memory (Hash, BookFile, OwnBook, EgtbPath, EvalParams,
// ExtendedBook) and the ones that build chips (Chips, ChipDepth, Backend, RemoteChips, Threads).
// Every "go" gets " depth 2" appended (the last depth given wins), so that a search ends quickly.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "chip/generator_params.h"
#include "search/chip_evaluation.h"
#include "uci/uci.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();  // libFuzzer reports the session that broke a property
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

bool kept_out(const std::string& line) {
  const std::string l = lower(line);
  for (const char* name : {"hash", "book", "egtb", "evalparams", "chip", "backend", "remote", "threads"}) {
    if (l.find(name) != std::string::npos) return true;
  }
  return false;
}

// The command word, as the engine reads it (the first whitespace-separated token).
std::string command(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  in >> word;
  return word;
}

// The lines of out from offset on that start with prefix.
std::vector<std::string> lines_from(const std::string& out, std::size_t offset, const char* prefix) {
  std::vector<std::string> found;
  std::istringstream in(out.substr(offset));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

// The bestmove of the search that just ended must be legal in the position the engine searched.
// Returns its move ("" for a refused go).
std::string check_bestmove(db::uci::UciEngine& engine, const std::ostringstream& out, std::size_t before) {
  const std::string text = out.str();
  const std::vector<std::string> best = lines_from(text, before, "bestmove");
  check(best.size() <= 1);
  if (best.empty()) {
    check(!lines_from(text, before, "info string error").empty());  // a refused go says why
    return "";
  }
  std::istringstream words(best[0]);
  std::string word, move;
  words >> word >> move;
  const std::size_t at = out.str().size();
  engine.handle("d");
  const std::vector<std::string> fen = lines_from(out.str(), at, "");
  check(fen.size() == 1);
  const db::Position pos = db::Position::from_fen(fen[0]);
  db::MoveList legal;
  db::generate_legal(pos, legal);
  if (legal.size() == 0) {
    check(move == "0000");
    return move;
  }
  bool found = false;
  for (db::Move m : legal) found = found || db::move_to_uci(m) == move;
  check(found);
  return move;
}

// The game input: the engine's answers are played, so the game goes where the engine takes it.
void play_game(db::uci::UciEngine& engine, const std::ostringstream& out, const std::uint8_t* data, std::size_t size) {
  static const char* const kGo[] = {"go depth 1", "go depth 2", "go nodes 300 depth 2", "go movetime 1 depth 2",
                                    "go wtime 50 btime 50 winc 0 binc 0 depth 2"};
  db::Position pos;  // the start position
  std::string moves;
  int questions = 0;
  for (std::size_t i = 0; i < size && i < 400; ++i) {
    db::MoveList legal;
    db::generate_legal(pos, legal);
    if (legal.size() == 0 || pos.halfmove_clock() >= 100) return;
    db::Move m = legal[data[i] % legal.size()];
    if (data[i] >= 0x80 && questions++ < 24) {
      engine.handle("position startpos" + (moves.empty() ? std::string() : " moves" + moves));
      const std::size_t before = out.str().size();
      engine.handle(kGo[data[i] % std::size(kGo)]);
      engine.wait_for_search();
      const std::string answer = check_bestmove(engine, out, before);
      check(!answer.empty());          // these go commands are all valid
      m = db::parse_uci(pos, answer);  // legal: check_bestmove found it among the legal moves
    }
    pos.make_move(m);
    moves += " " + db::move_to_uci(m);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto params = std::make_shared<const db::chip::GeneratorParams>(db::chip::GeneratorParams::defaults());
  std::istringstream in;
  std::ostringstream out;
  db::uci::UciEngine engine(in, out, {}, db::search::evaluator_factory(db::search::EvaluationKind::Chip, params));
  engine.handle("setoption name OwnBook value false");
  if (size > 0 && data[0] == 0x01) {
    play_game(engine, out, data + 1, size - 1);
    return 0;
  }
  std::istringstream session(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  for (int n = 0; n < 64 && std::getline(session, line); ++n) {
    if (kept_out(line)) continue;
    const bool go = command(line) == "go";
    if (go) line += " depth 2";
    const std::size_t before = out.str().size();
    if (!engine.handle(line)) break;  // quit
    if (!go) continue;
    // Analysis and pondering answer after stop; a refused go started nothing to stop.
    if (line.find("infinite") != std::string::npos || line.find("ponder") != std::string::npos) engine.handle("stop");
    engine.wait_for_search();
    check_bestmove(engine, out, before);
  }
  engine.handle("stop");
  const std::size_t before = out.str().size();
  engine.handle("isready");
  check(!lines_from(out.str(), before, "readyok").empty());
  return 0;
}
