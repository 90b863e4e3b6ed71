#include "egtb/verify.h"

#include "chess/movegen.h"

namespace db::egtb {

std::string board_fen(const Board& b) {
  char grid[64];
  for (char& c : grid) c = 0;
  static constexpr char kLetters[] = "PNBRQK";
  for (int i = 0; i < b.n; ++i) {
    const char letter = kLetters[type_of(b.pc[i])];
    grid[b.sq[i]] = color_of(b.pc[i]) == WHITE ? letter : char(letter + ('a' - 'A'));
  }
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = grid[make_square(file, rank)];
      if (!c) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += b.stm == WHITE ? " w - - 0 1" : " b - - 0 1";
  return fen;
}

namespace {

std::string describe(const Value& v) {
  return v.wdl == Wdl::Draw ? "draw" : std::string(wdl_name(v.wdl)) + " in " + std::to_string(v.plies) + " plies";
}

}  // namespace

VerifyStats verify_table(const Tablebases& tbs, const Material& m, std::uint64_t stride) {
  VerifyStats st;
  const Table* t = tbs.find(m);
  if (!t) throw EgtbError("verify: no database " + m.name());
  Board b;
  for (std::uint64_t i = 0; i < t->layout.size(); i += stride) {
    if (!t->layout.decode(i, b)) {
      if (t->entries[i] != kInvalid) {
        ++st.mismatches;
        if (st.first_mismatch.empty())
          st.first_mismatch = m.name() + " index " + std::to_string(i) + ": not a position";
      }
      continue;
    }
    ++st.positions;
    Position pos = Position::from_fen(board_fen(b));
    const Value stored = Value::from_code(t->entries[i]);
    Value expected;
    MoveList moves;
    generate_legal(pos, moves);
    bool complete = true;
    if (moves.empty()) {
      expected = pos.in_check() ? Value{Wdl::Loss, 0} : Value{};
    } else {
      int best = -1000000;
      for (Move mv : moves) {
        pos.make_move(mv);
        const std::optional<Value> v = tbs.probe(pos);
        pos.unmake_move(mv);
        if (!v) {
          complete = false;
          break;
        }
        const Value mine = v->parent();
        if (mine.rank() > best) {
          best = mine.rank();
          expected = mine;
        }
      }
    }
    if (complete && t->entries[i] != kInvalid && stored == expected) continue;
    ++st.mismatches;
    if (st.first_mismatch.empty())
      st.first_mismatch = board_fen(b) + ": stored " + (t->entries[i] == kInvalid ? "nothing" : describe(stored)) +
                          ", moves give " + (complete ? describe(expected) : "a position without a database");
  }
  return st;
}

}  // namespace db::egtb
