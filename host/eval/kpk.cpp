#include "eval/kpk.h"

#include <cstdlib>

#include "chess/bitboard.h"

namespace db::eval {

namespace {

enum Result : std::uint8_t { INVALID, UNKNOWN, DRAW, WIN };

int distance(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

struct Entry {
  Color stm;
  Square wk, bk, wp;
};

Entry decode(std::uint32_t addr) {
  const int rank = 1 + int(addr & 7);
  const int file = int((addr >> 3) & 3);
  return {Color((addr >> 17) & 1), Square((addr >> 5) & 63), Square((addr >> 11) & 63), make_square(file, rank)};
}

Result classify_initial(const Entry& e) {
  if (rank_of(e.wp) > 6 || e.wk == e.bk || e.wk == e.wp || e.bk == e.wp || distance(e.wk, e.bk) <= 1) return INVALID;
  if (e.stm == WHITE && (attacks::pawn[WHITE][e.wp] & square_bb(e.bk)))
    return INVALID;  // black in check, white to move
  if (e.stm == WHITE && rank_of(e.wp) == 6) {
    const Square promo = e.wp + 8;
    // Promotes safely: the square is free and the black king cannot take the new piece undefended.
    if (promo != e.wk && promo != e.bk && (distance(e.bk, promo) > 1 || distance(e.wk, promo) == 1)) return WIN;
  }
  if (e.stm == BLACK) {
    const Bitboard white_controls = attacks::king[e.wk] | attacks::pawn[WHITE][e.wp];
    const Bitboard escapes = attacks::king[e.bk] & ~white_controls;
    if (!escapes) return DRAW;  // stalemate (a king and pawn cannot mate)
    if ((attacks::king[e.bk] & square_bb(e.wp)) && !(attacks::king[e.wk] & square_bb(e.wp)))
      return DRAW;  // takes the pawn
  }
  return UNKNOWN;
}

}  // namespace

std::uint32_t kpk_address(Color side_to_move, Square white_king, Square white_pawn, Square black_king) {
  return std::uint32_t(side_to_move) << 17 | std::uint32_t(black_king) << 11 | std::uint32_t(white_king) << 5 |
         std::uint32_t(file_of(white_pawn)) << 3 | std::uint32_t(rank_of(white_pawn) - 1);
}

KpkRom::KpkRom() : bits_(kKpkSize / 8, 0) {
  std::vector<Result> db(kKpkSize);
  for (std::uint32_t a = 0; a < kKpkSize; ++a) db[a] = classify_initial(decode(a));

  // Fixed point: white wins if some move reaches a win; black loses if every move does.
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::uint32_t a = 0; a < kKpkSize; ++a) {
      if (db[a] != UNKNOWN) continue;
      const Entry e = decode(a);
      Result r;
      if (e.stm == WHITE) {
        bool win = false, unknown = false;
        auto see = [&](Square wk, Square wp) {
          const Result s = db[kpk_address(BLACK, wk, wp, e.bk)];
          win |= s == WIN;
          unknown |= s == UNKNOWN;
        };
        Bitboard kmoves = attacks::king[e.wk] & ~attacks::king[e.bk] & ~square_bb(e.wp);
        while (kmoves) see(pop_lsb(kmoves), e.wp);
        if (rank_of(e.wp) < 6) {
          const Square push = e.wp + 8;
          if (push != e.wk && push != e.bk) {
            see(e.wk, push);
            if (rank_of(e.wp) == 1 && push + 8 != e.wk && push + 8 != e.bk) see(e.wk, push + 8);
          }
        }
        r = win ? WIN : unknown ? UNKNOWN : DRAW;
      } else {
        bool draw = false, unknown = false;
        Bitboard kmoves = attacks::king[e.bk] & ~attacks::king[e.wk] & ~attacks::pawn[WHITE][e.wp];
        while (kmoves) {
          const Square to = pop_lsb(kmoves);
          if (to == e.wp) {  // capturing an undefended pawn was classified already; defended is excluded above
            draw = true;
            continue;
          }
          const Result s = db[kpk_address(WHITE, e.wk, e.wp, to)];
          draw |= s == DRAW;
          unknown |= s == UNKNOWN;
        }
        r = draw ? DRAW : unknown ? UNKNOWN : WIN;
      }
      if (r != UNKNOWN) {
        db[a] = r;
        changed = true;
      }
    }
  }
  for (std::uint32_t a = 0; a < kKpkSize; ++a)
    if (db[a] == WIN) bits_[a >> 3] |= std::uint8_t(1u << (a & 7));
}

bool KpkRom::white_wins(Color side_to_move, Square white_king, Square white_pawn, Square black_king) const {
  const std::uint32_t a = kpk_address(side_to_move, white_king, white_pawn, black_king);
  return (bits_[a >> 3] >> (a & 7)) & 1;
}

bool KpkRom::pawn_side_wins(Color pawn_side, Color side_to_move, Square strong_king, Square pawn,
                            Square weak_king) const {
  // Normalise: the pawn side plays white (flip ranks), and the pawn stands on files a-d (mirror files).
  auto norm = [&](Square s) {
    if (pawn_side == BLACK) s ^= 56;
    if (file_of(pawn_side == BLACK ? pawn ^ 56 : pawn) >= 4) s ^= 7;
    return s;
  };
  const Color stm = pawn_side == WHITE ? side_to_move : ~side_to_move;
  return white_wins(stm, norm(strong_king), norm(pawn), norm(weak_king));
}

std::uint32_t KpkRom::win_count() const {
  std::uint32_t n = 0;
  for (std::uint8_t b : bits_) n += std::uint32_t(__builtin_popcount(b));
  return n;
}

const KpkRom& kpk_rom() {
  static const KpkRom rom;
  return rom;
}

}  // namespace db::eval
