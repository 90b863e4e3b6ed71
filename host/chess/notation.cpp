#include "chess/notation.h"

#include "chess/movegen.h"
#include "chess/position.h"

namespace db {

namespace {

constexpr const char* kPieceLetters = "PNBRQK";

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 32)) out += (c >= 32 && c < 127) ? c : '?';
  if (s.size() > 32) out += "...";
  return out;
}

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'N':
      return KNIGHT;
    case 'B':
      return BISHOP;
    case 'R':
      return ROOK;
    case 'Q':
      return QUEEN;
    case 'K':
      return KING;
    default:
      return NO_PIECE_TYPE;
  }
}

}  // namespace

std::string square_name(Square s) {
  if (s < 0 || s >= 64) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

std::string move_to_uci(Move m) {
  if (m.is_none()) return "0000";
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.is_promotion()) s += "nbrq"[m.promotion() - KNIGHT];
  return s;
}

Move parse_uci(const Position& pos, std::string_view text) {
  if (text.size() < 4 || text.size() > 5 || !is_file(text[0]) || !is_rank(text[1]) || !is_file(text[2]) ||
      !is_rank(text[3]) || (text.size() == 5 && std::string_view("nbrq").find(text[4]) == std::string_view::npos))
    throw NotationError("bad UCI move '" + printable(text) + "': expected from-square, to-square and optional n/b/r/q");
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves)
    if (move_to_uci(m) == text) return m;
  throw NotationError("illegal move '" + printable(text) + "' in position " + pos.fen());
}

std::string move_to_san(const Position& pos, Move m) {
  std::string san;
  const Piece moving = pos.piece_on(m.from());
  const PieceType pt = type_of(moving);
  if (m.is_castle()) {
    san = m.kind() == CASTLE_KING ? "O-O" : "O-O-O";
  } else if (pt == PAWN) {
    if (m.is_capture()) san += char('a' + file_of(m.from())), san += 'x';
    san += square_name(m.to());
    if (m.is_promotion()) san += '=', san += kPieceLetters[m.promotion()];
  } else {
    san += kPieceLetters[pt];
    // Disambiguate among other pieces of the same type that can reach the same square.
    MoveList moves;
    generate_legal(pos, moves);
    bool clash = false, same_file = false, same_rank = false;
    for (Move o : moves) {
      if (o == m || o.to() != m.to() || o.from() == m.from() || pos.piece_on(o.from()) != moving) continue;
      clash = true;
      same_file |= file_of(o.from()) == file_of(m.from());
      same_rank |= rank_of(o.from()) == rank_of(m.from());
    }
    if (clash) {
      if (!same_file)
        san += char('a' + file_of(m.from()));
      else if (!same_rank)
        san += char('1' + rank_of(m.from()));
      else
        san += square_name(m.from());
    }
    if (m.is_capture()) san += 'x';
    san += square_name(m.to());
  }
  Position after = pos;
  after.make_move(m);
  if (after.in_check()) san += after.is_checkmate() ? '#' : '+';
  return san;
}

Move parse_san(const Position& pos, std::string_view text) {
  std::string s(text);
  const std::string shown = printable(text);
  // Strip trailing annotations and check marks, and an "e.p." suffix.
  while (!s.empty() && std::string_view("+#!?").find(s.back()) != std::string_view::npos) s.pop_back();
  if (s.size() > 4 && s.compare(s.size() - 4, 4, "e.p.") == 0) s.resize(s.size() - 4);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.empty()) throw NotationError("empty SAN move '" + shown + "'");

  MoveList moves;
  generate_legal(pos, moves);

  if (s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0") {
    const MoveKind kind = s.size() == 3 ? CASTLE_KING : CASTLE_QUEEN;
    for (Move m : moves)
      if (m.kind() == kind) return m;
    throw NotationError("illegal castling '" + shown + "' in position " + pos.fen());
  }

  // Pattern: [Piece][from-file][from-rank][x|:][to-square][=][Promotion]
  size_t i = 0;
  PieceType piece = PAWN;
  if (piece_from_letter(s[0]) != NO_PIECE_TYPE) piece = piece_from_letter(s[i++]);
  PieceType promotion = NO_PIECE_TYPE;
  // Promotion suffix: "=Q", "Q", "(Q)", "/Q".
  if (piece == PAWN && s.size() >= 3) {
    if (s.back() == ')') s.pop_back();
    const char last = s.back() >= 'a' && s.back() <= 'z' ? char(s.back() - 32) : s.back();
    const PieceType p = piece_from_letter(last);
    if (p != NO_PIECE_TYPE && p != KING) {
      promotion = p;
      s.pop_back();
      while (!s.empty() && (s.back() == '=' || s.back() == '(' || s.back() == '/')) s.pop_back();
    }
  }
  if (s.size() < i + 2) throw NotationError("bad SAN move '" + shown + "': no destination square");
  const char tf = s[s.size() - 2], tr = s[s.size() - 1];
  if (!is_file(tf) || !is_rank(tr))
    throw NotationError("bad SAN move '" + shown + "': no destination square at the end");
  const Square to = make_square(tf - 'a', tr - '1');
  std::string_view middle(s.data() + i, s.size() - 2 - i);
  const bool claims_capture = !middle.empty() && (middle.back() == 'x' || middle.back() == ':');
  if (claims_capture) middle.remove_suffix(1);
  if (!middle.empty() && middle.back() == '-') middle.remove_suffix(1);  // long algebraic "Ng1-f3"
  int from_file = -1, from_rank = -1;
  for (char c : middle) {
    if (is_file(c) && from_file < 0)
      from_file = c - 'a';
    else if (is_rank(c) && from_rank < 0)
      from_rank = c - '1';
    else
      throw NotationError("bad SAN move '" + shown + "': unexpected '" + std::string(1, c) + "'");
  }

  Move found = Move::none();
  int matches = 0;
  for (Move m : moves) {
    if (m.to() != to || type_of(pos.piece_on(m.from())) != piece || m.is_castle()) continue;
    if (from_file >= 0 && file_of(m.from()) != from_file) continue;
    if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
    if (m.promotion() != promotion) continue;
    if (claims_capture && !m.is_capture()) continue;  // "Nxf3" where nothing stands on f3
    found = m;
    ++matches;
  }
  if (matches == 0) throw NotationError("illegal move '" + shown + "' in position " + pos.fen());
  if (matches > 1) throw NotationError("ambiguous move '" + shown + "' in position " + pos.fen());
  return found;
}

}  // namespace db
