// The off-line use of AIJ 8.3: the chip's king-and-pawn ROM (host/eval/kpk.h, the RTL's
// rtl/kpk_rom.hex) against the KPvK database, on every placement the ROM holds.
#include <gtest/gtest.h>

#include "egtb/verify.h"
#include "egtb_fixture.h"
#include "eval/kpk.h"

namespace db::egtb {
namespace {

TEST(KpkRom, AgreesWithTheDatabaseEverywhere) {
  const Tablebases& tbs = test::three_pieces();
  const eval::KpkRom& rom = eval::kpk_rom();
  std::uint64_t compared = 0, differ = 0;
  std::string first;
  for (int stm = 0; stm < 2; ++stm)
    for (Square wk = 0; wk < 64; ++wk)
      for (Square bk = 0; bk < 64; ++bk)
        for (int file = 0; file < 4; ++file)
          for (int rank = 1; rank <= 6; ++rank) {
            const Square wp = make_square(file, rank);
            Board b;
            b.add(W_KING, wk);
            b.add(B_KING, bk);
            b.add(W_PAWN, wp);
            b.stm = Color(stm);
            if (wk == bk || wk == wp || bk == wp || b.in_check(~b.stm)) continue;
            const Value v = *tbs.probe(b);
            const bool db_white_wins = v.wdl == (b.stm == WHITE ? Wdl::Win : Wdl::Loss);
            ++compared;
            if (rom.white_wins(Color(stm), wk, wp, bk) == db_white_wins) continue;
            if (++differ == 1) first = board_fen(b);
          }
  EXPECT_GT(compared, 100000u);
  EXPECT_EQ(differ, 0u) << "first: " << first;
}

}  // namespace
}  // namespace db::egtb
