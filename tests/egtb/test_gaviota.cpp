// Every 3-piece position against Debian's Gaviota tablebases (gaviotatb, probed through
// libgaviotatb): the same result and the same distance to mate in plies.
#include <gtest/gtest.h>

#include <gtb-probe.h>

#include "egtb/verify.h"
#include "egtb_fixture.h"

namespace db::egtb {
namespace {

struct Gaviota {
  Gaviota() {
    paths = tbpaths_add(tbpaths_init(), DB_GAVIOTA_DIR);
    tb_init(0, tb_CP4, paths);
    tbcache_init(32 * 1024 * 1024, 96);
  }
  ~Gaviota() {
    tbcache_done();
    tb_done();
    paths = tbpaths_done(paths);
  }
  // The value for the side to move; false when Gaviota has no answer.
  bool probe(const Board& b, Value& v) const {
    unsigned ws[kMaxPieces + 1], bs[kMaxPieces + 1];
    unsigned char wp[kMaxPieces + 1], bp[kMaxPieces + 1];
    int nw = 0, nb = 0;
    for (int pass = 0; pass < 2; ++pass)  // kings first
      for (int i = 0; i < b.n; ++i) {
        if ((type_of(b.pc[i]) == KING) != (pass == 0)) continue;
        const unsigned char kind =
            (unsigned char)(type_of(b.pc[i]) == KING ? int(tb_KING) : int(tb_PAWN) + int(type_of(b.pc[i])));
        if (color_of(b.pc[i]) == WHITE) {
          ws[nw] = unsigned(b.sq[i]);
          wp[nw++] = kind;
        } else {
          bs[nb] = unsigned(b.sq[i]);
          bp[nb++] = kind;
        }
      }
    ws[nw] = bs[nb] = tb_NOSQUARE;
    wp[nw] = bp[nb] = tb_NOPIECE;
    unsigned info = 0, plies = 0;
    if (!tb_probe_hard(b.stm == WHITE ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE, tb_NOSQUARE, tb_NOCASTLE, ws, bs, wp, bp,
                       &info, &plies))
      return false;
    if (info == tb_DRAW) {
      v = Value{};
    } else if (info == tb_WMATE || info == tb_BMATE) {
      const bool stm_wins = (info == tb_WMATE) == (b.stm == WHITE);
      v = Value{stm_wins ? Wdl::Win : Wdl::Loss, int(plies)};
    } else {
      return false;
    }
    return true;
  }
  const char** paths = nullptr;
};

TEST(Gaviota, EveryThreePiecePositionAgrees) {
  const Gaviota gaviota;
  ASSERT_TRUE(tb_availability() & 2) << "Gaviota's 3-piece tables are not in " DB_GAVIOTA_DIR " (scripts/deps)";
  const Tablebases& tbs = test::three_pieces();
  for (const Material& m : all_materials(3)) {
    const Table& t = *tbs.find(m);
    Board b;
    std::uint64_t compared = 0, differ = 0;
    std::string first;
    for (std::uint64_t i = 0; i < t.layout.size(); ++i) {
      if (!t.layout.decode(i, b)) continue;
      Value theirs;
      const Value ours = Value::from_code(t.entries[i]);
      const bool answered = gaviota.probe(b, theirs);
      ++compared;
      if (answered && theirs == ours) continue;
      if (++differ == 1)
        first = board_fen(b) + ": ours " + wdl_name(ours.wdl) + " " + std::to_string(ours.plies) + ", Gaviota " +
                (answered ? std::string(wdl_name(theirs.wdl)) + " " + std::to_string(theirs.plies) : "no answer");
    }
    EXPECT_GT(compared, 0u) << m.name();
    EXPECT_EQ(differ, 0u) << m.name() << " differs in " << differ << " of " << compared << " positions; first "
                          << first;
  }
}

}  // namespace
}  // namespace db::egtb
