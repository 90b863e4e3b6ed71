// Basic chess types: squares, colours, pieces, moves.
// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file).
#pragma once

#include <cstdint>

namespace db {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { WHITE = 0, BLACK = 1, COLOR_NB = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t {
  PAWN = 0,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
  PIECE_TYPE_NB,
  NO_PIECE_TYPE = PIECE_TYPE_NB
};

// Piece = colour * 8 + type; NO_PIECE marks an empty square.
enum Piece : std::uint8_t {
  W_PAWN = 0,
  W_KNIGHT,
  W_BISHOP,
  W_ROOK,
  W_QUEEN,
  W_KING,
  B_PAWN = 8,
  B_KNIGHT,
  B_BISHOP,
  B_ROOK,
  B_QUEEN,
  B_KING,
  NO_PIECE = 15,
  PIECE_NB = 16
};
constexpr Piece make_piece(Color c, PieceType t) { return Piece(c * 8 + t); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

using Square = int;
constexpr Square SQ_NONE = 64;
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return rank * 8 + file; }
constexpr Square relative_square(Color c, Square s) { return c == WHITE ? s : s ^ 56; }
constexpr int relative_rank(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

enum : Square {
  SQ_A1 = 0,
  SQ_B1,
  SQ_C1,
  SQ_D1,
  SQ_E1,
  SQ_F1,
  SQ_G1,
  SQ_H1,
  SQ_A8 = 56,
  SQ_B8,
  SQ_C8,
  SQ_D8,
  SQ_E8,
  SQ_F8,
  SQ_G8,
  SQ_H8
};

// Castling rights as four bits.
enum CastlingRight : std::uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1,
  WHITE_OOO = 2,
  BLACK_OO = 4,
  BLACK_OOO = 8,
  ANY_CASTLING = 15
};

// A move in 16 bits: from (6) | to (6) << 6 | kind (4) << 12.
// Castling is encoded king-from to king-to (e1g1), as UCI writes it.
enum MoveKind : std::uint8_t {
  QUIET = 0,
  DOUBLE_PUSH = 1,
  CASTLE_KING = 2,
  CASTLE_QUEEN = 3,
  CAPTURE = 4,
  EN_PASSANT = 5,
  PROMO_N = 8,
  PROMO_B = 9,
  PROMO_R = 10,
  PROMO_Q = 11,
  PROMO_CAPTURE_N = 12,
  PROMO_CAPTURE_B = 13,
  PROMO_CAPTURE_R = 14,
  PROMO_CAPTURE_Q = 15
};

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = QUIET)
      : data_(std::uint16_t(from | (to << 6) | (kind << 12))) {}
  static constexpr Move none() { return Move(); }

  constexpr Square from() const { return data_ & 63; }
  constexpr Square to() const { return (data_ >> 6) & 63; }
  constexpr MoveKind kind() const { return MoveKind(data_ >> 12); }
  constexpr bool is_capture() const { return (kind() & 4) != 0; }
  constexpr bool is_promotion() const { return (kind() & 8) != 0; }
  constexpr bool is_castle() const { return kind() == CASTLE_KING || kind() == CASTLE_QUEEN; }
  constexpr bool is_en_passant() const { return kind() == EN_PASSANT; }
  // Promotion piece type, or NO_PIECE_TYPE.
  constexpr PieceType promotion() const { return is_promotion() ? PieceType(KNIGHT + (kind() & 3)) : NO_PIECE_TYPE; }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr bool operator==(Move o) const { return data_ == o.data_; }
  constexpr bool operator!=(Move o) const { return data_ != o.data_; }

 private:
  std::uint16_t data_ = 0;
};

}  // namespace db
