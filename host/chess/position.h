// A chess position: board, side to move, castling rights, en passant square, counters,
// Zobrist key and the history needed to unmake moves and to detect repetitions.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "chess/bitboard.h"
#include "chess/types.h"

namespace db {

// A FEN that cannot be a chess position. The message names the field and the reason.
class FenError : public std::runtime_error {
 public:
  FenError(std::string field, const std::string& reason)
      : std::runtime_error("FEN " + field + ": " + reason), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

extern const char* const kStartFen;

// Strict rejects castling rights that do not fit the pieces and impossible en passant squares.
// Lenient drops them instead, as Stockfish does (real EPD files contain stale castling rights);
// every other check applies in both modes.
enum class FenMode { Strict, Lenient };

class Position {
 public:
  Position();  // the start position

  // Parses a FEN (6 fields, or 4 with the counters defaulting to "0 1"). Throws FenError.
  static Position from_fen(std::string_view fen, FenMode mode = FenMode::Strict);
  std::string fen() const;

  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == NO_PIECE; }
  Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }

  Color side_to_move() const { return side_; }
  std::uint8_t castling_rights() const { return st().castling; }
  // The en passant target square as in the FEN (after any double push), or SQ_NONE.
  Square ep_square() const { return st().ep; }
  int halfmove_clock() const { return st().rule50; }
  int fullmove_number() const { return 1 + game_ply_ / 2; }
  int game_ply() const { return game_ply_; }
  Key key() const { return st().key; }
  Bitboard checkers() const { return st().checkers; }
  bool in_check() const { return st().checkers != 0; }

  Bitboard attackers_to(Square s, Bitboard occupied) const;
  bool attacked_by(Color c, Square s) const { return attackers_to(s, pieces()) & pieces(c); }
  // Pieces of colour c that are pinned to their own king.
  Bitboard pinned(Color c) const;
  // Whether the legal move m checks the opponent's king (directly, by discovery, by castling, by
  // promotion or by en passant): in_check() after make_move(m), without making it.
  bool gives_check(Move m) const;

  // Plays a legal move (for a pseudo-legal one, check legality first).
  void make_move(Move m);
  void unmake_move(Move m);
  void make_null();
  void unmake_null();

  bool is_legal(Move m) const;  // m is one of the legal moves here

  // Draw rules.
  bool is_fifty_move_draw() const;  // 50 moves without capture or pawn move (and not mate)
  int repetition_count() const;     // how often this position occurred before (0 = first time)
  bool is_repetition() const { return repetition_count() > 0; }
  // The moves since the last irreversible one (a capture, a pawn move, a null move, or the FEN this
  // position was set up from), oldest first: the ones repetition_count() looks back over. Played
  // from the position before them, they rebuild this position with every earlier position a
  // repetition can reach (the cluster sends them to its workers).
  std::vector<Move> reversible_moves() const;
  bool has_insufficient_material() const;
  bool is_checkmate() const;
  bool is_stalemate() const;

  // Key recomputed from scratch (for tests of the incremental key).
  Key compute_key() const;

 private:
  struct State {
    Key key;
    Bitboard checkers;
    Piece captured;
    std::uint8_t castling;
    Move move;  // the move that led here (none for a null move and the FEN's state)
    Square ep;
    int rule50;
    int plies_from_null;
  };

  struct Blank {};
  explicit Position(Blank) {}

  const State& st() const { return history_.back(); }
  State& st() { return history_.back(); }
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  bool ep_capturable(Square ep) const;      // an enemy pawn could capture onto ep
  void validate_after_parse(FenMode mode);  // the checks of from_fen that need the whole position

  Piece board_[64];
  Bitboard by_type_[PIECE_TYPE_NB] = {};
  Bitboard by_color_[COLOR_NB] = {};
  Color side_ = WHITE;
  int game_ply_ = 0;
  std::vector<State> history_;
};

namespace zobrist {
extern Key psq[PIECE_NB][64];
extern Key castling[16];
extern Key ep_file[8];
extern Key side;
}  // namespace zobrist

inline Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (attacks::pawn[BLACK][s] & pieces(WHITE, PAWN)) | (attacks::pawn[WHITE][s] & pieces(BLACK, PAWN)) |
         (attacks::knight[s] & pieces(KNIGHT)) | (attacks::king[s] & pieces(KING)) |
         (attacks::bishop(s, occupied) & (pieces(BISHOP) | pieces(QUEEN))) |
         (attacks::rook(s, occupied) & (pieces(ROOK) | pieces(QUEEN)));
}

}  // namespace db
