#include "chess/position.h"

#include <algorithm>

#include "chess/movegen.h"

namespace db {

const char* const kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

namespace zobrist {
Key psq[PIECE_NB][64];
Key castling[16];
Key ep_file[8];
Key side;

namespace {
struct Init {
  Init() {
    std::uint64_t s = 0x1234567890ABCDEFULL;  // fixed: keys are reproducible across runs
    auto next = [&s] {
      s ^= s >> 12;
      s ^= s << 25;
      s ^= s >> 27;
      return s * 2685821657736338717ULL;
    };
    for (auto& p : psq)
      for (Key& k : p) k = next();
    for (Key& k : castling) k = next();
    for (Key& k : ep_file) k = next();
    side = next();
  }
};
const Init init_keys;
}  // namespace
}  // namespace zobrist

namespace {

// Castling rights lost when a piece moves from or to a square.
constexpr std::uint8_t castling_lost(Square s) {
  switch (s) {
    case SQ_A1:
      return WHITE_OOO;
    case SQ_E1:
      return WHITE_OO | WHITE_OOO;
    case SQ_H1:
      return WHITE_OO;
    case SQ_A8:
      return BLACK_OOO;
    case SQ_E8:
      return BLACK_OO | BLACK_OOO;
    case SQ_H8:
      return BLACK_OO;
    default:
      return 0;
  }
}

}  // namespace

Position::Position() { *this = from_fen(kStartFen); }

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= square_bb(s);
  by_color_[color_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  by_type_[type_of(p)] ^= square_bb(s);
  by_color_[color_of(p)] ^= square_bb(s);
  board_[s] = NO_PIECE;
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard both = square_bb(from) | square_bb(to);
  by_type_[type_of(p)] ^= both;
  by_color_[color_of(p)] ^= both;
  board_[from] = NO_PIECE;
  board_[to] = p;
}

bool Position::gives_check(Move m) const {
  // Our men and the occupancy as they will be after the move, then the checkers of the
  // opponent's king among them (our king never gives check).
  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to(), ksq = king_square(them);
  const PieceType moved = type_of(board_[from]);
  Bitboard mine[PIECE_TYPE_NB];
  for (int t = PAWN; t < PIECE_TYPE_NB; ++t) mine[t] = pieces(us, PieceType(t));
  mine[moved] ^= square_bb(from);
  mine[m.is_promotion() ? m.promotion() : moved] |= square_bb(to);
  Bitboard occupied = (pieces() ^ square_bb(from)) | square_bb(to);
  if (m.is_en_passant()) occupied ^= square_bb(to ^ 8);  // the captured pawn, behind the target square
  if (m.is_castle()) {
    const bool king_side = m.kind() == CASTLE_KING;
    const Bitboard rook_move = square_bb(relative_square(us, king_side ? SQ_H1 : SQ_A1)) |
                               square_bb(relative_square(us, king_side ? SQ_F1 : SQ_D1));
    mine[ROOK] ^= rook_move;
    occupied ^= rook_move;
  }
  return (attacks::pawn[them][ksq] & mine[PAWN]) || (attacks::knight[ksq] & mine[KNIGHT]) ||
         (attacks::bishop(ksq, occupied) & (mine[BISHOP] | mine[QUEEN])) ||
         (attacks::rook(ksq, occupied) & (mine[ROOK] | mine[QUEEN]));
}

Bitboard Position::pinned(Color c) const {
  Square ksq = king_square(c);
  Bitboard snipers = ((attacks::rook(ksq, 0) & (pieces(ROOK) | pieces(QUEEN))) |
                      (attacks::bishop(ksq, 0) & (pieces(BISHOP) | pieces(QUEEN)))) &
                     pieces(~c);
  Bitboard result = 0;
  while (snipers) {
    Square s = pop_lsb(snipers);
    Bitboard blockers = attacks::between[ksq][s] & ~square_bb(s) & pieces();
    if (blockers && !more_than_one(blockers)) result |= blockers & pieces(c);
  }
  return result;
}

bool Position::ep_capturable(Square ep) const {
  return ep != SQ_NONE && (attacks::pawn[~side_][ep] & pieces(side_, PAWN)) != 0;
}

void Position::make_move(Move m) {
  const Square from = m.from(), to = m.to();
  const Color us = side_, them = ~us;
  const Piece moving = board_[from];

  State next = st();
  Key key = next.key ^ zobrist::side;
  if (ep_capturable(next.ep)) key ^= zobrist::ep_file[file_of(next.ep)];
  next.ep = SQ_NONE;
  next.captured = NO_PIECE;
  next.move = m;
  ++next.rule50;
  ++next.plies_from_null;

  if (m.is_castle()) {
    const bool king_side = m.kind() == CASTLE_KING;
    const Square rook_from = relative_square(us, king_side ? SQ_H1 : SQ_A1);
    const Square rook_to = relative_square(us, king_side ? SQ_F1 : SQ_D1);
    const Piece rook = board_[rook_from];
    move_piece(from, to);
    move_piece(rook_from, rook_to);
    key ^= zobrist::psq[moving][from] ^ zobrist::psq[moving][to] ^ zobrist::psq[rook][rook_from] ^
           zobrist::psq[rook][rook_to];
  } else {
    if (m.is_capture()) {
      const Square cap_sq = m.is_en_passant() ? to + (us == WHITE ? -8 : 8) : to;
      next.captured = board_[cap_sq];
      key ^= zobrist::psq[next.captured][cap_sq];
      remove_piece(cap_sq);
      next.rule50 = 0;
    }
    move_piece(from, to);
    key ^= zobrist::psq[moving][from] ^ zobrist::psq[moving][to];
    if (type_of(moving) == PAWN) {
      next.rule50 = 0;
      if (m.kind() == DOUBLE_PUSH) {
        next.ep = to + (us == WHITE ? -8 : 8);
      } else if (m.is_promotion()) {
        const Piece promoted = make_piece(us, m.promotion());
        remove_piece(to);
        put_piece(promoted, to);
        key ^= zobrist::psq[moving][to] ^ zobrist::psq[promoted][to];
      }
    }
  }

  const std::uint8_t castling = next.castling & ~(castling_lost(from) | castling_lost(to));
  key ^= zobrist::castling[next.castling] ^ zobrist::castling[castling];
  next.castling = castling;

  side_ = them;
  ++game_ply_;
  if (ep_capturable(next.ep)) key ^= zobrist::ep_file[file_of(next.ep)];
  next.key = key;
  next.checkers = attackers_to(king_square(them), pieces()) & pieces(us);
  history_.push_back(next);
}

void Position::unmake_move(Move m) {
  const Square from = m.from(), to = m.to();
  const Piece captured = st().captured;
  side_ = ~side_;
  --game_ply_;
  const Color us = side_;

  if (m.is_castle()) {
    const bool king_side = m.kind() == CASTLE_KING;
    move_piece(to, from);
    move_piece(relative_square(us, king_side ? SQ_F1 : SQ_D1), relative_square(us, king_side ? SQ_H1 : SQ_A1));
  } else {
    if (m.is_promotion()) {
      remove_piece(to);
      put_piece(make_piece(us, PAWN), to);
    }
    move_piece(to, from);
    if (captured != NO_PIECE) put_piece(captured, m.is_en_passant() ? to + (us == WHITE ? -8 : 8) : to);
  }
  history_.pop_back();
}

void Position::make_null() {
  State next = st();
  Key key = next.key ^ zobrist::side;
  if (ep_capturable(next.ep)) key ^= zobrist::ep_file[file_of(next.ep)];
  next.ep = SQ_NONE;
  next.captured = NO_PIECE;
  next.move = Move::none();
  ++next.rule50;
  next.plies_from_null = 0;
  next.key = key;
  side_ = ~side_;
  ++game_ply_;
  next.checkers = 0;  // a null move is only made when not in check
  history_.push_back(next);
}

void Position::unmake_null() {
  side_ = ~side_;
  --game_ply_;
  history_.pop_back();
}

bool Position::is_legal(Move m) const {
  MoveList moves;
  generate_legal(*this, moves);
  for (Move x : moves)
    if (x == m) return true;
  return false;
}

bool Position::is_fifty_move_draw() const { return st().rule50 >= 100 && !is_checkmate(); }

int Position::repetition_count() const {
  const int n = int(history_.size()) - 1;
  const int limit = std::min(st().rule50, st().plies_from_null);
  int count = 0;
  for (int back = 4; back <= limit && n - back >= 0; back += 2)
    if (history_[n - back].key == st().key) ++count;
  return count;
}

std::vector<Move> Position::reversible_moves() const {
  // plies_from_null counts from the FEN too, so the window never reaches before history_'s start.
  const int n = std::min(st().rule50, st().plies_from_null);
  std::vector<Move> out;
  for (int i = int(history_.size()) - n; i < int(history_.size()); ++i) out.push_back(history_[std::size_t(i)].move);
  return out;
}

bool Position::has_insufficient_material() const {
  if (pieces(PAWN) | pieces(ROOK) | pieces(QUEEN)) return false;
  const Bitboard minors = pieces(KNIGHT) | pieces(BISHOP);
  if (popcount(minors) <= 1) return true;  // K v K, K+minor v K
  // Only bishops, all on squares of one colour: no mate is possible.
  constexpr Bitboard dark = 0xAA55AA55AA55AA55ULL;
  if (!pieces(KNIGHT)) {
    const Bitboard b = pieces(BISHOP);
    return (b & dark) == 0 || (b & ~dark) == 0;
  }
  return false;
}

bool Position::is_checkmate() const {
  if (!in_check()) return false;
  MoveList moves;
  generate_legal(*this, moves);
  return moves.size() == 0;
}

bool Position::is_stalemate() const {
  if (in_check()) return false;
  MoveList moves;
  generate_legal(*this, moves);
  return moves.size() == 0;
}

Key Position::compute_key() const {
  Key k = 0;
  for (Square s = 0; s < 64; ++s)
    if (!empty(s)) k ^= zobrist::psq[board_[s]][s];
  if (side_ == BLACK) k ^= zobrist::side;
  k ^= zobrist::castling[st().castling];
  if (ep_capturable(st().ep)) k ^= zobrist::ep_file[file_of(st().ep)];
  return k;
}

}  // namespace db
