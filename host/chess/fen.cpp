// FEN parsing with validation, and FEN printing.
#include <charconv>
#include <sstream>
#include <vector>

#include "chess/position.h"

namespace db {

namespace {

constexpr const char* kPieceChars = "PNBRQK  pnbrqk";

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) fields.push_back(s.substr(i, j - i));
    i = j;
  }
  return fields;
}

std::string quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s.substr(0, 40)) out += (c >= 32 && c < 127) ? c : '?';
  if (s.size() > 40) out += "...";
  return out + "'";
}

int parse_counter(std::string_view text, const char* field, int min_value) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw FenError(field, "expected a number, got " + quoted(text));
  if (value < min_value)
    throw FenError(field, "must be at least " + std::to_string(min_value) + ", got " + quoted(text));
  return value;
}

}  // namespace

Position Position::from_fen(std::string_view fen, FenMode mode) {
  const auto fields = split_fields(fen);
  if (fields.size() != 4 && fields.size() != 6)
    throw FenError("", "expected 6 fields (or 4 without the counters), got " + std::to_string(fields.size()));

  Position pos{Blank{}};
  pos.history_.clear();
  pos.history_.reserve(256);
  for (Piece& p : pos.board_) p = NO_PIECE;
  for (Bitboard& b : pos.by_type_) b = 0;
  for (Bitboard& b : pos.by_color_) b = 0;

  // Field 1: placement, rank 8 first.
  const std::string_view placement = fields[0];
  int rank = 7, file = 0;
  for (size_t i = 0; i < placement.size(); ++i) {
    const char c = placement[i];
    const std::string rank_name = "rank " + std::to_string(rank + 1);
    if (c == '/') {
      if (file != 8)
        throw FenError("field 1 (placement)", rank_name + " has " + std::to_string(file) + " squares, expected 8");
      if (rank == 0) throw FenError("field 1 (placement)", "more than 8 ranks");
      --rank;
      file = 0;
    } else if (c == '0' || c == '9') {
      throw FenError("field 1 (placement)",
                     "bad empty-square count '" + std::string(1, c) + "' on " + rank_name + " (expected 1-8)");
    } else if (c >= '1' && c <= '8') {
      if (i > 0 && placement[i - 1] >= '1' && placement[i - 1] <= '8')
        throw FenError("field 1 (placement)",
                       "two digits in a row on " + rank_name + " (write one count of empty squares)");
      file += c - '0';
      if (file > 8) throw FenError("field 1 (placement)", rank_name + " is longer than 8 squares");
    } else {
      const char* found = (c == ' ') ? nullptr : std::char_traits<char>::find(kPieceChars, 14, c);
      if (!found)
        throw FenError("field 1 (placement)",
                       "bad piece letter " + quoted(std::string_view(&c, 1)) + " on " + rank_name);
      if (file >= 8) throw FenError("field 1 (placement)", rank_name + " is longer than 8 squares");
      pos.put_piece(Piece(found - kPieceChars), make_square(file, rank));
      ++file;
    }
  }
  if (rank != 0) throw FenError("field 1 (placement)", "has " + std::to_string(8 - rank) + " ranks, expected 8");
  if (file != 8) throw FenError("field 1 (placement)", "rank 1 has " + std::to_string(file) + " squares, expected 8");

  // Field 2: side to move.
  if (fields[1] == "w")
    pos.side_ = WHITE;
  else if (fields[1] == "b")
    pos.side_ = BLACK;
  else
    throw FenError("field 2 (side to move)", "expected 'w' or 'b', got " + quoted(fields[1]));

  // Field 3: castling rights.
  State s{};
  s.ep = SQ_NONE;
  s.captured = NO_PIECE;
  if (fields[2] != "-") {
    for (char c : fields[2]) {
      std::uint8_t right = c == 'K' ? WHITE_OO : c == 'Q' ? WHITE_OOO : c == 'k' ? BLACK_OO : c == 'q' ? BLACK_OOO : 0;
      if (!right)
        throw FenError("field 3 (castling)", "bad letter " + quoted(std::string_view(&c, 1)) + " (expected KQkq or -)");
      if (s.castling & right)
        throw FenError("field 3 (castling)", "letter " + quoted(std::string_view(&c, 1)) + " repeated");
      s.castling |= right;
    }
  }

  // Field 4: en passant square.
  if (fields[3] != "-") {
    const std::string_view ep = fields[3];
    if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || ep[1] < '1' || ep[1] > '8')
      throw FenError("field 4 (en passant)", "expected a square like e3 or '-', got " + quoted(ep));
    s.ep = make_square(ep[0] - 'a', ep[1] - '1');
  }

  // Fields 5 and 6: counters.
  int fullmove = 1;
  if (fields.size() == 6) {
    s.rule50 = parse_counter(fields[4], "field 5 (half-move clock)", 0);
    fullmove = parse_counter(fields[5], "field 6 (full-move number)", 1);
    if (s.rule50 > 1000) throw FenError("field 5 (half-move clock)", "implausibly large: " + quoted(fields[4]));
    if (fullmove > 100000) throw FenError("field 6 (full-move number)", "implausibly large: " + quoted(fields[5]));
  }
  pos.game_ply_ = 2 * (fullmove - 1) + (pos.side_ == BLACK ? 1 : 0);
  pos.history_.push_back(s);

  pos.validate_after_parse(mode);
  pos.st().checkers = pos.attackers_to(pos.king_square(pos.side_), pos.pieces()) & pos.pieces(~pos.side_);
  pos.st().key = pos.compute_key();
  return pos;
}

void Position::validate_after_parse(FenMode mode) {
  for (Color c : {WHITE, BLACK}) {
    const char* name = c == WHITE ? "white" : "black";
    const int kings = popcount(pieces(c, KING));
    if (kings != 1)
      throw FenError("field 1 (placement)", std::string(kings == 0 ? "missing " : "more than one ") + name + " king");
    if (popcount(pieces(c, PAWN)) > 8)
      throw FenError("field 1 (placement)", std::string("more than 8 ") + name + " pawns");
    if (popcount(pieces(c)) > 16)
      throw FenError("field 1 (placement)", std::string("more than 16 ") + name + " pieces");
  }
  if (pieces(PAWN) & (RANK_1_BB | RANK_8_BB))
    throw FenError("field 1 (placement)", "a pawn stands on the first or eighth rank");

  // The side not to move must not be in check: its king could be captured.
  if (attackers_to(king_square(~side_), pieces()) & pieces(side_))
    throw FenError("field 2 (side to move)",
                   std::string(side_ == WHITE ? "white" : "black") + " to move could capture the opponent's king");

  // Castling rights need the king and the rook on their original squares.
  struct Right {
    std::uint8_t bit;
    Square king, rook;
    Piece k, r;
    const char* letter;
  };
  const Right rights[] = {{WHITE_OO, SQ_E1, SQ_H1, W_KING, W_ROOK, "K"},
                          {WHITE_OOO, SQ_E1, SQ_A1, W_KING, W_ROOK, "Q"},
                          {BLACK_OO, SQ_E8, SQ_H8, B_KING, B_ROOK, "k"},
                          {BLACK_OOO, SQ_E8, SQ_A8, B_KING, B_ROOK, "q"}};
  for (const Right& r : rights) {
    if (!(st().castling & r.bit)) continue;
    if (mode == FenMode::Lenient && (board_[r.king] != r.k || board_[r.rook] != r.r)) {
      st().castling &= ~r.bit;
      continue;
    }
    if (board_[r.king] != r.k)
      throw FenError("field 3 (castling)",
                     std::string("right '") + r.letter + "' but the king is not on its original square");
    if (board_[r.rook] != r.r)
      throw FenError("field 3 (castling)", std::string("right '") + r.letter + "' but no rook on its original square");
  }

  // En passant: the square behind a pawn of the side not to move that has just made a double push.
  const Square ep = st().ep;
  if (ep != SQ_NONE && mode == FenMode::Lenient) {
    const Square pawn_sq = ep + (side_ == WHITE ? -8 : 8);
    const Square origin = ep + (side_ == WHITE ? 8 : -8);
    if (rank_of(ep) != (side_ == WHITE ? 5 : 2) || board_[pawn_sq] != make_piece(~side_, PAWN) || !empty(ep) ||
        !empty(origin))
      st().ep = SQ_NONE;
  } else if (ep != SQ_NONE) {
    const int expected_rank = side_ == WHITE ? 5 : 2;
    const Square pawn_sq = ep + (side_ == WHITE ? -8 : 8);
    const Square origin = ep + (side_ == WHITE ? 8 : -8);
    const std::string where = std::string(1, char('a' + file_of(ep))) + char('1' + rank_of(ep));
    if (rank_of(ep) != expected_rank)
      throw FenError("field 4 (en passant)", where + " is not on the " + (side_ == WHITE ? "sixth" : "third") +
                                                 " rank, as it must be with " + (side_ == WHITE ? "white" : "black") +
                                                 " to move");
    if (board_[pawn_sq] != make_piece(~side_, PAWN))
      throw FenError("field 4 (en passant)",
                     where + " has no enemy pawn in front of it that could have just moved two squares");
    if (!empty(ep) || !empty(origin))
      throw FenError("field 4 (en passant)", where + ": the square or the pawn's starting square is occupied");
  }
}

std::string Position::fen() const {
  std::ostringstream out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = board_[make_square(file, rank)];
      if (p == NO_PIECE) {
        ++empty_run;
        continue;
      }
      if (empty_run) out << empty_run;
      empty_run = 0;
      out << kPieceChars[p];
    }
    if (empty_run) out << empty_run;
    if (rank) out << '/';
  }
  out << (side_ == WHITE ? " w " : " b ");
  const std::uint8_t c = st().castling;
  if (!c) out << '-';
  if (c & WHITE_OO) out << 'K';
  if (c & WHITE_OOO) out << 'Q';
  if (c & BLACK_OO) out << 'k';
  if (c & BLACK_OOO) out << 'q';
  out << ' ';
  if (st().ep == SQ_NONE)
    out << '-';
  else
    out << char('a' + file_of(st().ep)) << char('1' + rank_of(st().ep));
  out << ' ' << st().rule50 << ' ' << fullmove_number();
  return out.str();
}

}  // namespace db
