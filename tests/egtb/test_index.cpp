// The index: every legal canonical position decodes and encodes to its index, and the board's
// symmetries (mirror, flip, colour swap) give a position the value of its image.
#include <gtest/gtest.h>

#include "egtb/verify.h"
#include "egtb_fixture.h"

namespace db::egtb {
namespace {

TEST(Index, DecodeThenEncodeIsTheIdentity) {
  for (const char* name : {"KQvK", "KPvK", "KRvKN", "KPvKP"}) {
    const Layout layout(Material::parse(name).canonical());
    Board b;
    std::uint64_t legal = 0;
    for (std::uint64_t i = 0; i < layout.size(); i += (layout.size() > 1000000 ? 7 : 1)) {
      if (!layout.decode(i, b)) continue;
      ++legal;
      ASSERT_EQ(layout.index(b), i) << name << " " << board_fen(b);
    }
    EXPECT_GT(legal, 0u) << name;
  }
}

Board transform(const Board& b, int xor_mask) {
  Board t = b;
  for (int i = 0; i < t.n; ++i) t.sq[i] ^= xor_mask;
  return t;
}

TEST(Index, SymmetricPositionsHaveOneValue) {
  const Tablebases& tbs = test::three_pieces();
  for (const Material& m : all_materials(3)) {
    const Table& t = *tbs.find(m);
    Board b;
    for (std::uint64_t i = 0; i < t.layout.size(); i += 3) {
      if (!t.layout.decode(i, b)) continue;
      const Value v = *tbs.probe(b);
      EXPECT_EQ(*tbs.probe(transform(b, 7)), v) << board_fen(b) << " mirrored";
      EXPECT_EQ(*tbs.probe(b.flipped()), v) << board_fen(b) << " colours swapped";
      if (!m.has_pawns()) {
        EXPECT_EQ(*tbs.probe(transform(b, 63)), v) << board_fen(b) << " rotated";
      }
    }
  }
}

}  // namespace
}  // namespace db::egtb
