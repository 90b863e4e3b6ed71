// Reference model of rtl/mg_array.sv and rtl/mg_cell.sv. See array_model.h.
#include "chip/array_model.h"

#include "chess/bitboard.h"

namespace db::chip {

namespace {

int ring_of(int sq) {
  const int f = sq & 7, r = sq >> 3;
  const int fr = f < 7 - f ? f : 7 - f;
  const int rr = r < 7 - r ? r : 7 - r;
  return fr < rr ? fr : rr;
}

// The squares of each ring (0 the edge .. 3 the centre); the same seen from either side.
struct RingMasks {
  Bitboard ring[4] = {0, 0, 0, 0};
  RingMasks() {
    for (int sq = 0; sq < 64; ++sq) ring[ring_of(sq)] |= Bitboard(1) << sq;
  }
};
const RingMasks RINGS;

// Attacker order: least valuable first (pawn 5 .. king 0).
constexpr int ATTACKER_ORDER[7] = {0, 5, 4, 3, 2, 1, 0};

}  // namespace

void BoardSets::update(const std::array<std::uint8_t, 64>& b) {
  if (valid && b == board) return;
  valid = true;
  board = b;
  occupied = 0;
  color[0] = color[1] = 0;
  for (Bitboard& t : type) t = 0;
  hash = 0;
  for (int s = 0; s < 64; ++s) {
    const std::uint8_t p = board[s];
    hash ^= SQUARE_KEYS.key[s][p & 15];
    const int t = p & 7;
    if (t == CHIP_EMPTY) continue;
    occupied |= square_bb(s);
    color[p >> 3] |= square_bb(s);
    type[t] |= square_bb(s);
  }
  attacks_ready = false;
}

void BoardSets::compute_attacks() const {
  // Piece type by piece type, not square by square with a switch on the piece: the switch's
  // branch was mispredicted about once a man.
  for (int c = 0; c < 2; ++c) {
    Bitboard np = 0;
    const Bitboard men = color[c];
    for (Bitboard b = type[CHIP_KNIGHT] & men; b;) np |= attacks::knight[pop_lsb(b)];
    for (Bitboard b = (type[CHIP_BISHOP] | type[CHIP_QUEEN]) & men; b;) np |= attacks::bishop(pop_lsb(b), occupied);
    for (Bitboard b = (type[CHIP_ROOK] | type[CHIP_QUEEN]) & men; b;) np |= attacks::rook(pop_lsb(b), occupied);
    for (Bitboard b = type[CHIP_KING] & men; b;) np |= attacks::king[pop_lsb(b)];
    const Bitboard pawns = type[CHIP_PAWN] & color[c];
    attacked_np[c] = np;
    attacked[c] = np | (c == 0 ? shift<7>(pawns) | shift<9>(pawns) : shift<-7>(pawns) | shift<-9>(pawns));
  }
  attacks_ready = true;
}

bool BoardSets::square_attacked(int sq, int c) const {
  if (attacks_ready) return attacked[c] >> sq & 1;
  const Bitboard men = color[c];
  const Bitboard diag = (type[CHIP_BISHOP] | type[CHIP_QUEEN]) & men;
  const Bitboard orth = (type[CHIP_ROOK] | type[CHIP_QUEEN]) & men;
  return (attacks::knight[sq] & type[CHIP_KNIGHT] & men) || (attacks::king[sq] & type[CHIP_KING] & men) ||
         (attacks::pawn[!c][sq] & type[CHIP_PAWN] & men) || (diag && (attacks::bishop(sq, occupied) & diag)) ||
         (orth && (attacks::rook(sq, occupied) & orth));
}

Bitboard ArrayModel::pawn_hits(int c) const {
  const Bitboard pawns = types()[CHIP_PAWN] & colors()[c];
  return c == 0 ? shift<7>(pawns) | shift<9>(pawns) : shift<-7>(pawns) | shift<-9>(pawns);
}

bool ArrayModel::castle_ok(bool king_side) const {
  const int base = stm_ ? 56 : 0;
  const int right = stm_ ? (king_side ? 4 : 8) : (king_side ? 1 : 2);
  const std::uint8_t king = std::uint8_t((stm_ ? CHIP_BLACK : 0) | CHIP_KING);
  const std::uint8_t rook = std::uint8_t((stm_ ? CHIP_BLACK : 0) | CHIP_ROOK);
  const Bitboard opp = attacked(!stm_);
  if (!(castling_ & right) || board()[base + 4] != king) return false;
  if (king_side) {
    return board()[base + 7] == rook && !(occupied() & (square_bb(base + 5) | square_bb(base + 6))) &&
           !(opp & (square_bb(base + 4) | square_bb(base + 5)));
  }
  return board()[base] == rook && !(occupied() & (square_bb(base + 1) | square_bb(base + 2) | square_bb(base + 3))) &&
         !(opp & (square_bb(base + 4) | square_bb(base + 3)));
}

int ArrayModel::target_class(int t) const {
  const std::uint8_t p = board()[t];
  const int type = p & 7;
  if (type != CHIP_EMPTY) return ((p >> 3) != int(stm_) && type != CHIP_KING) ? type + 1 : 0;
  const bool ep_here = ep_valid_ && ep_sq_ == t;
  if (ep_here && (pawn_hits(stm_) & square_bb(t))) return 2;
  const Bitboard own_pawns = types()[CHIP_PAWN] & colors()[stm_];
  const int behind = stm_ ? t + 8 : t - 8;
  const bool push = behind >= 0 && behind < 64 && (own_pawns & square_bb(behind));
  if ((relative(t) >> 3) == 7 && push) return 1;
  return 0;
}

bool ArrayModel::target_candidate(int t, bool captures_only) const {
  const std::uint8_t p = board()[t];
  const int type = p & 7;
  bool cand = false;
  if (type != CHIP_EMPTY) {
    if ((p >> 3) != int(stm_) && type != CHIP_KING) cand = (attacked(stm_) & square_bb(t)) != 0;
  } else {
    const Bitboard own_pawns = types()[CHIP_PAWN] & colors()[stm_];
    const int dir = stm_ ? -8 : 8;
    const int behind = t - dir;
    const bool push = behind >= 0 && behind < 64 && (own_pawns & square_bb(behind));
    const int rank = t >> 3;
    const bool dpush =
        (stm_ ? rank == 4 : rank == 3) && (own_pawns & square_bb(t - 2 * dir)) && !(occupied() & square_bb(t - dir));
    const int base = stm_ ? 56 : 0;
    const bool castle = (t == base + 6 && castle_ok(true)) || (t == base + 2 && castle_ok(false));
    const bool ep = ep_valid_ && ep_sq_ == t && (pawn_hits(stm_) & square_bb(t));
    cand = (attacked_np(stm_) & square_bb(t)) || push || dpush || castle || ep;
  }
  if (captures_only && target_class(t) < 2) cand = false;
  return cand;
}

// target_candidate() for every square at once, in bitboards (the model's hot spot: the arbiter
// runs on every GEN clock), under GEN's filter.
Bitboard ArrayModel::target_candidates(GenFilter filter) const {
  const Bitboard own_pawns = types()[CHIP_PAWN] & colors()[stm_];
  const Bitboard empty = ~occupied();
  const Bitboard captures = colors()[!stm_] & ~types()[CHIP_KING] & attacked(stm_);
  const Bitboard ep = ep_valid_ && (pawn_hits(stm_) & square_bb(ep_sq_)) ? square_bb(ep_sq_) & empty : 0;
  if (filter == GenFilter::kCaptures) return captures | ep;
  const Bitboard push = stm_ ? own_pawns >> 8 : own_pawns << 8;
  const Bitboard double_push =
      stm_ ? (own_pawns >> 16) & rank_bb(4) & ~(occupied() >> 8) : (own_pawns << 16) & rank_bb(3) & ~(occupied() << 8);
  const int base = stm_ ? 56 : 0;
  const Bitboard castle = (castle_ok(true) ? square_bb(base + 6) : 0) | (castle_ok(false) ? square_bb(base + 2) : 0);
  const Bitboard all = captures | ep | (empty & (attacked_np(stm_) | push | double_push | castle));
  if (filter == GenFilter::kAll) return all;
  // The checks filter passes the captures and the en-passant square as they are.
  const Bitboard ep_square = ep_valid_ ? square_bb(ep_sq_) : 0;
  return all & (occupied() | ep_square | check_targets());
}

void ArrayModel::check_lines(Bitboard (&lines)[2]) const {
  lines[0] = lines[1] = 0;
  Bitboard kings = types()[CHIP_KING] & colors()[!stm_];
  while (kings) {
    const Square k = pop_lsb(kings);
    lines[0] |= attacks::bishop(k, occupied());
    lines[1] |= attacks::rook(k, occupied());
  }
}

Bitboard ArrayModel::discoverers() const {
  // pinned() with the colours swapped: the side to move's men (its king too) alone between the
  // other king and one of the side to move's own sliders.
  return alone_on_lines(types()[CHIP_KING] & colors()[!stm_], colors()[stm_], colors()[stm_]);
}

Bitboard ArrayModel::check_targets() const {
  // A man in front of a friendly slider may discover check from any square it moves to.
  if (discoverers()) return ~occupied();
  Bitboard lines[2];
  check_lines(lines);
  Bitboard knight = 0, pawn = 0;
  for (Bitboard kings = types()[CHIP_KING] & colors()[!stm_]; kings;) {
    const Square k = pop_lsb(kings);
    knight |= attacks::knight[k];
    pawn |= attacks::pawn[!stm_][k];
  }
  // Every promotion (the new piece may check through the square the pawn left) and castling (the
  // rook may check through the square the king left).
  const Bitboard own_pawns = types()[CHIP_PAWN] & colors()[stm_];
  const Bitboard promo = stm_ ? rank_bb(0) & (own_pawns >> 8) : rank_bb(7) & (own_pawns << 8);
  const int base = stm_ ? 56 : 0;
  const Bitboard castle = (castle_ok(true) ? square_bb(base + 6) : 0) | (castle_ok(false) ? square_bb(base + 2) : 0);
  return ~occupied() & (lines[0] | lines[1] | knight | pawn | promo | castle);
}

Bitboard ArrayModel::check_attackers(int tsel) const {
  Bitboard lines[2];
  check_lines(lines);
  const Bitboard t = square_bb(tsel);
  bool knight = false, pawn = (relative(tsel) >> 3) == 7;  // promotions all pass
  for (Bitboard kings = types()[CHIP_KING] & colors()[!stm_]; kings;) {
    const Square k = pop_lsb(kings);
    knight |= (attacks::knight[k] & t) != 0;
    pawn |= (attacks::pawn[!stm_][k] & t) != 0;
  }
  Bitboard a = discoverers();
  if (knight) a |= types()[CHIP_KNIGHT];
  if (lines[0] & t) a |= types()[CHIP_BISHOP] | types()[CHIP_QUEEN];
  if (lines[1] & t) a |= types()[CHIP_ROOK] | types()[CHIP_QUEEN];
  if (pawn) a |= types()[CHIP_PAWN];
  const int base = stm_ ? 56 : 0;
  if ((tsel == base + 6 && castle_ok(true)) || (tsel == base + 2 && castle_ok(false))) {
    a |= square_bb(base + 4) & types()[CHIP_KING];
  }
  return a & colors()[stm_];
}

std::uint32_t ArrayModel::target_key(int t) const {
  return std::uint32_t(target_class(t) << 8 | ring_of(t) << 6 | relative(t));
}

std::uint32_t ArrayModel::attacker_key(int s) const {
  const std::uint8_t p = board()[s];
  const bool own = (p & 7) != CHIP_EMPTY && (p >> 3) == int(stm_);
  return std::uint32_t((own ? ATTACKER_ORDER[p & 7] : 0) << 6 | relative(s));
}

Bitboard ArrayModel::attackers_of(int tsel) const {
  const Bitboard own = colors()[stm_];
  const std::uint8_t tp = board()[tsel];
  const bool t_enemy = (tp & 7) != CHIP_EMPTY && (tp >> 3) != int(stm_);
  const bool t_ep = ep_valid_ && ep_sq_ == tsel;
  Bitboard a = 0;
  a |= attacks::knight[tsel] & types()[CHIP_KNIGHT];
  const Bitboard diag = attacks::bishop(tsel, occupied());
  const Bitboard orth = attacks::rook(tsel, occupied());
  a |= diag & (types()[CHIP_BISHOP] | types()[CHIP_QUEEN]);
  a |= orth & (types()[CHIP_ROOK] | types()[CHIP_QUEEN]);
  a |= attacks::king[tsel] & types()[CHIP_KING];
  const int base = stm_ ? 56 : 0;
  if ((tsel == base + 6 && castle_ok(true)) || (tsel == base + 2 && castle_ok(false))) {
    a |= square_bb(base + 4) & types()[CHIP_KING];
  }
  const Bitboard pawns = types()[CHIP_PAWN] & own;
  if (t_enemy || t_ep) {
    a |= attacks::pawn[!stm_][tsel] & pawns;
  } else {
    const int dir = stm_ ? -8 : 8;
    const int from1 = tsel - dir, from2 = tsel - 2 * dir;
    if (from1 >= 0 && from1 < 64) a |= square_bb(from1) & pawns;
    const int rank2 = stm_ ? 6 : 1;
    if (from2 >= 0 && from2 < 64 && (from2 >> 3) == rank2 && !(occupied() & square_bb(from1))) {
      a |= square_bb(from2) & pawns;
    }
  }
  return a & own;
}

int ArrayModel::arbitrate_target(GenFilter filter, bool masked, int last_sq) const {
  // The key is {class, ring, relative square}: the best candidate is in the highest class that has
  // one below the limit, then the highest ring, then the highest relative square. The candidates
  // by class (target_class(): enemy men by type; empty squares: en passant 2, promotion push 1).
  const Bitboard cand = target_candidates(filter);
  if (!cand) return -1;
  const Bitboard enemy = colors()[!stm_];
  const Bitboard empty = cand & ~occupied();
  const Bitboard own_pawns = types()[CHIP_PAWN] & colors()[stm_];
  const Bitboard ep = ep_valid_ && (pawn_hits(stm_) & square_bb(ep_sq_)) ? empty & square_bb(ep_sq_) : 0;
  const Bitboard promo = empty & ~ep & (stm_ ? rank_bb(0) & (own_pawns >> 8) : rank_bb(7) & (own_pawns << 8));
  const Bitboard by_class[7] = {empty & ~ep & ~promo,
                                promo,
                                (cand & enemy & types()[CHIP_PAWN]) | ep,
                                cand & enemy & types()[CHIP_KNIGHT],
                                cand & enemy & types()[CHIP_BISHOP],
                                cand & enemy & types()[CHIP_ROOK],
                                cand & enemy & types()[CHIP_QUEEN]};
  const std::uint32_t limit = masked ? target_key(last_sq) : 0x7FFu;  // 0x7FF: above every key
  const int limit_class = int(limit >> 8), limit_ring = int(limit >> 6 & 3), limit_rel = int(limit & 63);
  for (int cls = limit_class < 6 ? limit_class : 6; cls >= 0; --cls) {
    if (!by_class[cls]) continue;
    // In the side's own view (ranks flipped for black): the relative square is the square.
    const Bitboard rel = stm_ ? __builtin_bswap64(by_class[cls]) : by_class[cls];
    for (int ring = 3; ring >= 0; --ring) {
      Bitboard x = rel & RINGS.ring[ring];
      if (cls == limit_class && masked) {
        if (ring > limit_ring) continue;
        if (ring == limit_ring) x &= (Bitboard(1) << limit_rel) - 1;
      }
      if (x) {
        const int r = 63 - __builtin_clzll(x);
        return stm_ ? r ^ 56 : r;
      }
    }
  }
  return -1;
}

int ArrayModel::arbitrate_target_reference(GenFilter filter, bool masked, int last_sq) const {
  const std::uint32_t limit = masked ? target_key(last_sq) : 0xFFFFFFFFu;
  int best = -1;
  std::uint32_t best_key = 0;
  Bitboard squares = target_candidates(filter);
  while (squares) {
    const int t = pop_lsb(squares);
    const std::uint32_t k = target_key(t);
    if (k >= limit) continue;
    if (best < 0 || k > best_key) best = t, best_key = k;
  }
  return best;
}

// Both find-attackers' arbitration.
int ArrayModel::best_attacker(Bitboard a, bool masked, int last_sq) const {
  const std::uint32_t limit = masked ? attacker_key(last_sq) : 0xFFFFFFFFu;
  int best = -1;
  std::uint32_t best_key = 0;
  while (a) {
    const int s = pop_lsb(a);
    const std::uint32_t k = attacker_key(s);
    if (k >= limit) continue;
    if (best < 0 || k > best_key) best = s, best_key = k;
  }
  return best;
}

int ArrayModel::arbitrate_attacker(int tsel, bool masked, int last_sq) const {
  return best_attacker(attackers_of(tsel), masked, last_sq);
}

int ArrayModel::arbitrate_checking_attacker(int tsel, bool masked, int last_sq) const {
  // A capture (en passant included) passes; a non-capture only by a man that may give check.
  Bitboard a = attackers_of(tsel);
  const std::uint8_t tp = board()[tsel];
  const bool t_enemy = (tp & 7) != CHIP_EMPTY && (tp >> 3) != int(stm_);
  if (!t_enemy && !(ep_valid_ && ep_sq_ == tsel)) a &= check_attackers(tsel);
  return best_attacker(a, masked, last_sq);
}

bool ArrayModel::in_check() const { return (types()[CHIP_KING] & colors()[stm_] & attacked(!stm_)) != 0; }

bool ArrayModel::king_capture() const {
  // Before the maps are needed (a move just made, often illegal), look from the king's square.
  Bitboard kings = types()[CHIP_KING] & colors()[!stm_];
  while (kings) {
    if (sets_.square_attacked(pop_lsb(kings), stm_)) return true;
  }
  return false;
}

Bitboard ArrayModel::hung() const { return colors()[stm_] & ~types()[CHIP_KING] & attacked(!stm_) & ~attacked(stm_); }

Bitboard ArrayModel::opp_hung() const {
  return colors()[!stm_] & ~types()[CHIP_KING] & attacked(stm_) & ~attacked(!stm_);
}

Bitboard ArrayModel::pinned() const {
  // From each own king (the array has no one-king rule): the own men first on its lines, then the
  // enemy sliders seen through them; a pinner's line to the king holds exactly that man.
  return alone_on_lines(types()[CHIP_KING] & colors()[stm_], colors()[stm_] & ~types()[CHIP_KING], colors()[!stm_]);
}

Bitboard ArrayModel::alone_on_lines(Bitboard kings, Bitboard men, Bitboard slider_side) const {
  // From each king: the men first on its lines, then the sliders of slider_side seen through them.
  const Bitboard diag = (types()[CHIP_BISHOP] | types()[CHIP_QUEEN]) & slider_side;
  const Bitboard orth = (types()[CHIP_ROOK] | types()[CHIP_QUEEN]) & slider_side;
  Bitboard result = 0;
  while (kings) {
    const Square k = pop_lsb(kings);
    const Bitboard front = attacks::queen(k, occupied()) & men;
    Bitboard sliders =
        (attacks::bishop(k, occupied() & ~front) & diag) | (attacks::rook(k, occupied() & ~front) & orth);
    while (sliders) result |= attacks::between[k][pop_lsb(sliders)] & front;
  }
  return result;
}

Bitboard ArrayModel::king_ring() const {
  Bitboard kings = types()[CHIP_KING] & colors()[stm_], ring = 0;
  while (kings) ring |= attacks::king[pop_lsb(kings)];
  return ring;
}

Bitboard ArrayModel::king_escapes() const { return king_ring() & ~colors()[stm_] & ~attacked(!stm_); }

ArrayModel::CheckClass ArrayModel::check_class(int to) const {
  const Bitboard escapes = king_escapes();
  const int type = board()[to] & 7;
  const bool contact = king_ring() >> to & 1;
  if (escapes == 0 || (contact && type == CHIP_QUEEN)) return CheckClass::kMating;
  const bool one_escape = (escapes & (escapes - 1)) == 0;
  if (one_escape || (contact && type == CHIP_ROOK) || hung() != 0) return CheckClass::kSingular;
  return CheckClass::kPlain;
}

bool ArrayModel::tsel_attacks(int tsel) const {
  Bitboard reach = 0;
  switch (board()[tsel] & 7) {
    case CHIP_PAWN:
      reach = attacks::pawn[!stm_][tsel];
      break;
    case CHIP_KNIGHT:
      reach = attacks::knight[tsel];
      break;
    case CHIP_BISHOP:
      reach = attacks::bishop(tsel, occupied());
      break;
    case CHIP_ROOK:
      reach = attacks::rook(tsel, occupied());
      break;
    case CHIP_QUEEN:
      reach = attacks::queen(tsel, occupied());
      break;
    case CHIP_KING:
      reach = attacks::king[tsel];
      break;
    default:
      break;
  }
  return (reach & colors()[stm_] & ~types()[CHIP_KING]) != 0;
}

}  // namespace db::chip
