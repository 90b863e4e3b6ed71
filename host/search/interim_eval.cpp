#include "search/interim_eval.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "eval/king_pawn.h"
#include "eval/kpk.h"

namespace db::search {

namespace {

// Values for move ordering and the interfaces that want one number per piece (MVV/LVA, SEE-like
// tests): the evaluation itself uses the middlegame/endgame pairs below.
constexpr int kValue[PIECE_TYPE_NB] = {100, 320, 330, 500, 900, 0};

// A middlegame and an endgame value, blended by the game phase (tapered evaluation: the material
// left decides how much each half counts, so no term jumps when a piece comes off).
struct Term {
  int mg = 0, eg = 0;
  constexpr Term operator+(Term o) const { return {mg + o.mg, eg + o.eg}; }
  constexpr Term operator-(Term o) const { return {mg - o.mg, eg - o.eg}; }
  constexpr Term operator*(int k) const { return {mg * k, eg * k}; }
  Term& operator+=(Term o) { return *this = *this + o; }
  Term& operator-=(Term o) { return *this = *this - o; }
};

constexpr Term kMaterial[PIECE_TYPE_NB] = {{90, 115}, {320, 300}, {330, 315}, {480, 530}, {960, 990}, {0, 0}};
constexpr int kPhaseWeight[PIECE_TYPE_NB] = {0, 1, 1, 2, 4, 0};
constexpr int kFullPhase = 24;  // 4 minors, 4 rooks and 2 queens

constexpr Term kBishopPair{30, 50};
constexpr Term kTempo{10, 0};
// Per square of mobility above a typical count (squares not held by own men nor attacked by
// enemy pawns).
constexpr Term kMobility[PIECE_TYPE_NB] = {{0, 0}, {4, 4}, {5, 5}, {2, 4}, {1, 2}, {0, 0}};
constexpr int kMobilityBase[PIECE_TYPE_NB] = {0, 4, 6, 7, 13, 0};
constexpr Term kRookOpenFile{25, 10};
constexpr Term kRookHalfOpenFile{12, 6};
constexpr Term kRookSeventh{20, 30};
constexpr Term kDoubledPawn{-10, -20};
constexpr Term kIsolatedPawn{-12, -15};
constexpr Term kBackwardPawn{-8, -8};
// Passed pawns by relative rank (index 1-6 = ranks 2-7).
constexpr Term kPassed[8] = {{0, 0}, {5, 10}, {8, 15}, {15, 30}, {30, 55}, {55, 95}, {85, 150}, {0, 0}};
constexpr Term kConnectedPawn{6, 4};
// King shelter, per file next to the king: the own pawn's distance from the king's rank.
constexpr int kShelterMissing = 22, kShelterAdvanced = 10;
constexpr int kKingOpenFile = 18;
// King attack: a weight per attacker class hitting the squares around the king, then a table.
constexpr int kAttackWeight[PIECE_TYPE_NB] = {0, 2, 2, 3, 5, 0};
constexpr int kSafetyTable[16] = {0, 0, 2, 6, 12, 20, 30, 42, 56, 72, 90, 110, 130, 150, 170, 190};

// Distance from the centre, 0 (d4, e4, d5, e5) to 3 (corners by file or rank).
int centre_distance(Square s) {
  const int f = file_of(s), r = rank_of(s);
  return std::max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
}

int distance(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

// Masks by colour and square, built once: the file ahead of a pawn, the squares an enemy pawn
// must not hold for it to be passed, and its supporters' squares (beside or behind on the
// adjacent files).
struct PawnMasks {
  Bitboard adjacent_files[8] = {};
  Bitboard ahead[COLOR_NB][64] = {};
  Bitboard passed[COLOR_NB][64] = {};
  Bitboard support[COLOR_NB][64] = {};
  PawnMasks() {
    for (int f = 0; f < 8; ++f) adjacent_files[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    for (Color c : {WHITE, BLACK}) {
      const int step = c == WHITE ? 1 : -1;
      for (int sq = 0; sq < 64; ++sq) {
        const int f = sq % 8, r = sq / 8;
        Bitboard ahead_ranks = 0, own_and_behind = 0;
        for (int x = r + step; x >= 0 && x < 8; x += step) ahead_ranks |= rank_bb(x);
        for (int x = r; x >= 0 && x < 8; x -= step) own_and_behind |= rank_bb(x);
        ahead[c][sq] = ahead_ranks & file_bb(f);
        passed[c][sq] = ahead_ranks & (file_bb(f) | adjacent_files[f]);
        support[c][sq] = own_and_behind & adjacent_files[f];
      }
    }
  }
};
const PawnMasks kMasks;

Bitboard adjacent_files(int f) { return kMasks.adjacent_files[f]; }

Bitboard pawn_attacks(Color c, Bitboard pawns) {
  return c == WHITE ? shift<9>(pawns) | shift<7>(pawns) : shift<-7>(pawns) | shift<-9>(pawns);
}

Term placement(PieceType t, Color c, Square s) {
  const int rel_rank = relative_rank(c, rank_of(s));
  const int cd = centre_distance(s);
  switch (t) {
    case PAWN: {
      const bool centre_file = file_of(s) == 3 || file_of(s) == 4;
      return {(centre_file ? 6 : 2) * (rel_rank - 1) - (rel_rank == 1 && centre_file ? 10 : 0), 0};
    }
    case KNIGHT:
      return {12 - 8 * cd, 8 - 5 * cd};
    case BISHOP:
      return {6 - 4 * cd, 4 - 3 * cd};
    case ROOK:
      return {0, 0};
    case QUEEN:
      return {3 - 2 * cd, 6 - 4 * cd};
    case KING:
      return {rel_rank == 0 ? 10 : -15 * rel_rank, 20 - 10 * cd};
    default:
      return {};
  }
}

// The pawn structure of one side from the pawns alone (doubled, isolated, connected, backward,
// passed by rank) and its passed pawns; what depends on other men (blockade, kings) is added by
// pawn_structure().
struct PawnTerms {
  Term term;
  Bitboard passed = 0;
};

PawnTerms pawns_only(Bitboard ours, Bitboard theirs, Color us) {
  const Bitboard our_attacks = pawn_attacks(us, ours), their_attacks = pawn_attacks(~us, theirs);
  PawnTerms out;
  Term& t = out.term;
  Bitboard b = ours;
  while (b) {
    const Square s = pop_lsb(b);
    const int f = file_of(s);
    const Bitboard ahead = kMasks.ahead[us][s];
    if (ahead & ours) t += kDoubledPawn;
    const bool isolated = (adjacent_files(f) & ours) == 0;
    if (isolated) t += kIsolatedPawn;
    // Connected: side by side with an own pawn, or defended by one.
    if ((adjacent_files(f) & ours & rank_bb(rank_of(s))) || (our_attacks & square_bb(s))) t += kConnectedPawn;
    // Backward: no own pawn beside or behind on the adjacent files, and the stop square is
    // controlled by an enemy pawn.
    const Square stop = Square(int(s) + (us == WHITE ? 8 : -8));
    if (!isolated && !(ours & kMasks.support[us][s]) && (their_attacks & square_bb(stop))) t += kBackwardPawn;
    // Passed: no enemy pawn ahead on this or the adjacent files (the rearmost of doubled pawns
    // is not: the front one is).
    if ((kMasks.passed[us][s] & theirs) == 0 && !(ahead & ours)) out.passed |= square_bb(s);
  }
  return out;
}

// The pawn-only terms of both sides, cached by the two pawn sets: pawns move rarely in a search.
struct PawnEntry {
  Bitboard white = ~Bitboard(0), black = ~Bitboard(0);  // no position has every square a pawn
  PawnTerms side[COLOR_NB];
};
const PawnEntry& pawn_entry(const Position& pos) {
  constexpr std::size_t kEntries = 1 << 14;
  thread_local std::vector<PawnEntry> table(kEntries);
  const Bitboard w = pos.pieces(WHITE, PAWN), b = pos.pieces(BLACK, PAWN);
  const std::uint64_t h = (w * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL);
  PawnEntry& e = table[(h >> 40) & (kEntries - 1)];
  if (e.white != w || e.black != b) {
    e.white = w;
    e.black = b;
    e.side[WHITE] = pawns_only(w, b, WHITE);
    e.side[BLACK] = pawns_only(b, w, BLACK);
  }
  return e;
}

Term pawn_structure(const Position& pos, Color us, const PawnTerms& terms) {
  const Square our_king = pos.king_square(us), their_king = pos.king_square(~us);
  Term t = terms.term;
  for (Bitboard b = terms.passed; b;) {
    const Square s = pop_lsb(b);
    const int rel_rank = relative_rank(us, rank_of(s));
    const Square stop = Square(int(s) + (us == WHITE ? 8 : -8));
    Term bonus = kPassed[rel_rank];
    if (pos.piece_on(stop) != NO_PIECE) bonus = {bonus.mg / 2, bonus.eg / 2};  // blockaded
    // In the ending the kings' distances to the promotion square count.
    const Square queening = make_square(file_of(s), us == WHITE ? 7 : 0);
    bonus.eg += 4 * (rel_rank - 1) * (distance(their_king, queening) - distance(our_king, queening)) / 2;
    t += bonus;
  }
  return t;
}

// Mobility, rook files, and the attack on the enemy king's surroundings.
Term pieces(const Position& pos, Color us, int& king_attack) {
  const Bitboard occupied = pos.pieces();
  const Bitboard mobility_area = ~pos.pieces(us) & ~pawn_attacks(~us, pos.pieces(~us, PAWN));
  const Bitboard king_zone = attacks::king[pos.king_square(~us)] | square_bb(pos.king_square(~us));
  Term t;
  int attackers = 0, weight = 0;
  for (int pt = KNIGHT; pt <= QUEEN; ++pt) {
    Bitboard b = pos.pieces(us, PieceType(pt));
    while (b) {
      const Square s = pop_lsb(b);
      Bitboard att = pt == KNIGHT   ? attacks::knight[s]
                     : pt == BISHOP ? attacks::bishop(s, occupied)
                     : pt == ROOK   ? attacks::rook(s, occupied)
                                    : attacks::queen(s, occupied);
      t += kMobility[pt] * (popcount(att & mobility_area) - kMobilityBase[pt]);
      if (att & king_zone) {
        ++attackers;
        weight += kAttackWeight[pt] * popcount(att & king_zone);
      }
      if (pt == ROOK) {
        const Bitboard file = file_bb(file_of(s));
        if (!(file & pos.pieces(us, PAWN))) t += (file & pos.pieces(~us, PAWN)) ? kRookHalfOpenFile : kRookOpenFile;
        if (relative_rank(us, rank_of(s)) == 6 && relative_rank(us, rank_of(pos.king_square(~us))) == 7)
          t += kRookSeventh;
      }
    }
  }
  // One attacker is no attack; the queen's presence makes it count.
  king_attack = attackers >= 2 && pos.pieces(us, QUEEN) ? kSafetyTable[std::min(weight, 15)] : 0;
  return t;
}

// The king's pawn shelter (middlegame only): the three files around the king.
int shelter(const Position& pos, Color us) {
  const Square k = pos.king_square(us);
  const Bitboard ours = pos.pieces(us, PAWN);
  int penalty = 0;
  const int kf = std::clamp(file_of(k), 1, 6);
  for (int f = kf - 1; f <= kf + 1; ++f) {
    Bitboard in_front = 0;
    for (Bitboard x = ours & file_bb(f); x;) {
      const Square s = pop_lsb(x);
      if (relative_rank(us, rank_of(s)) > relative_rank(us, rank_of(k))) in_front |= square_bb(s);
    }
    if (!in_front) {
      penalty += kShelterMissing;
      if (!(pos.pieces(~us, PAWN) & file_bb(f))) penalty += kKingOpenFile / 2;
    } else {
      const Square nearest = us == WHITE ? lsb(in_front) : Square(63 - __builtin_clzll(in_front));
      if (std::abs(rank_of(nearest) - rank_of(k)) > 1) penalty += kShelterAdvanced;
    }
  }
  return penalty;
}

int phase_of(const Position& pos) {
  int phase = 0;
  for (int pt = KNIGHT; pt <= QUEEN; ++pt) phase += kPhaseWeight[pt] * popcount(pos.pieces(PieceType(pt)));
  return std::min(phase, kFullPhase);
}

bool is_kpk(const Position& pos) { return popcount(pos.pieces()) == 3 && popcount(pos.pieces(PAWN)) == 1; }

bool kpk_wins(const Position& pos) {
  const Square pawn = lsb(pos.pieces(PAWN));
  const Color strong = color_of(pos.piece_on(pawn));
  return eval::kpk_rom().pawn_side_wins(strong, pos.side_to_move(), pos.king_square(strong), pawn,
                                        pos.king_square(~strong));
}

// Everything but the KPK ROM.
int general_evaluate(const Position& pos) {
  const int phase = phase_of(pos);
  const PawnEntry& pawns = pawn_entry(pos);
  Term total;
  int material[COLOR_NB] = {0, 0};  // non-pawn material in pawns
  int king_attack[COLOR_NB] = {0, 0};
  int king_shelter[COLOR_NB] = {0, 0};
  for (Color c : {WHITE, BLACK}) {
    Term side;
    for (int t = PAWN; t <= KING; ++t) {
      Bitboard b = pos.pieces(c, PieceType(t));
      while (b) {
        const Square s = pop_lsb(b);
        side += kMaterial[t] + placement(PieceType(t), c, s);
        if (t != PAWN && t != KING) material[c] += kValue[t];
      }
    }
    if (popcount(pos.pieces(c, BISHOP)) >= 2) side += kBishopPair;
    side += pawn_structure(pos, c, pawns.side[c]);
    side += pieces(pos, c, king_attack[c]);
    king_shelter[c] = shelter(pos, c);
    if (c == pos.side_to_move()) side += kTempo;
    total += c == WHITE ? side : Term{} - side;
  }
  // King danger counts in the middlegame only, the shelter the more the more the enemy has left.
  for (Color c : {WHITE, BLACK}) {
    const int danger = king_attack[~c] + king_shelter[c] * std::min(material[~c], 2000) / 2000;
    total.mg += c == WHITE ? -danger : danger;
  }
  int score = (total.mg * phase + total.eg * (kFullPhase - phase)) / kFullPhase;

  // Pawn endings: a pawn the king cannot catch is nearly a queen, unless the other side promotes first.
  if (material[WHITE] == 0 && material[BLACK] == 0) {
    const int w = eval::fastest_runner(pos, WHITE), b = eval::fastest_runner(pos, BLACK);
    const bool white_first = pos.side_to_move() == WHITE;
    if (w >= 0 && (b < 0 || (white_first ? w <= b : w < b)))
      score += 500 - 20 * w;
    else if (b >= 0 && (w < 0 || (white_first ? b < w : b <= w)))
      score -= 500 - 20 * b;
  }
  // A side ahead without pawns and by less than a rook's worth rarely wins (KRKB, KRKN, KBBKB...):
  // scale its advantage down.
  const Color ahead = score > 0 ? WHITE : BLACK;
  if (!pos.pieces(ahead, PAWN) && material[ahead] - material[~ahead] < 400) score /= 4;
  return pos.side_to_move() == WHITE ? score : -score;
}

}  // namespace

int piece_value(PieceType t) { return t < PIECE_TYPE_NB ? kValue[t] : 0; }

int interim_evaluate(const Position& pos) {
  // King and pawn versus king: the chip's KPK ROM knows the answer.
  if (is_kpk(pos)) {
    const Square pawn = lsb(pos.pieces(PAWN));
    const Color strong = color_of(pos.piece_on(pawn));
    const int value = kpk_wins(pos) ? 800 + 20 * relative_rank(strong, rank_of(pawn)) : 0;
    return pos.side_to_move() == strong ? value : -value;
  }
  return general_evaluate(pos);
}

int interim_draw_tie(const Position& pos) {
  if ((is_kpk(pos) && !kpk_wins(pos)) || pos.has_insufficient_material()) return general_evaluate(pos);
  return 0;
}

}  // namespace db::search
