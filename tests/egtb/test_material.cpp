// Material signatures: names, orientation, the list of tables and its order.
#include <gtest/gtest.h>

#include <set>

#include "egtb/material.h"

namespace db::egtb {
namespace {

TEST(Material, NameRoundTripsAndOrientsTheStrongerSideWhite) {
  const Material m = Material::parse("KRvKQ");
  EXPECT_EQ(m.name(), "KRvKQ");
  EXPECT_FALSE(m.white_is_canonical());
  EXPECT_EQ(m.canonical().name(), "KQvKR");
  EXPECT_EQ(Material::parse("kqkr").name(), "KQvKR");  // the "KQKR" spelling, any case
  EXPECT_EQ(Material::parse("KPvK").pieces(), 3);
}

TEST(Material, BadNamesSayWhatIsWrong) {
  EXPECT_THROW(
      {
        try {
          Material::parse("KXvK");
        } catch (const EgtbError& e) {
          EXPECT_STREQ(e.what(), "material 'KXvK': unknown piece letter 'X'");
          throw;
        }
      },
      EgtbError);
  EXPECT_THROW(Material::parse("QvK"), EgtbError);
  EXPECT_THROW(Material::parse("KQQQQvK"), EgtbError);
}

TEST(Material, AllTablesOnceEachInDependencyOrder) {
  const std::vector<Material> three = all_materials(3), four = all_materials(4);
  EXPECT_EQ(three.size(), 5u);  // KPvK KNvK KBvK KRvK KQvK
  // Two pieces besides the kings: both on one side (15 pairs of the 5 kinds) or one each (15).
  EXPECT_EQ(four.size(), 5u + 15u + 15u);
  std::set<std::uint32_t> seen;
  for (std::size_t i = 0; i < four.size(); ++i) {
    const Material& m = four[i];
    EXPECT_TRUE(m.white_is_canonical()) << m.name();
    EXPECT_TRUE(seen.insert(m.canonical().key()).second) << m.name() << " twice";
    EXPECT_TRUE(seen.count(m.flipped().key()) == 0 || m.flipped() == m) << m.name() << " in both orientations";
    // Every promotion of a pawn leads to a table listed before (captures lower the count).
    for (int c = 0; c < 2; ++c)
      if (m.counts[c][PAWN]) {
        Material p = m;
        --p.counts[c][PAWN];
        ++p.counts[c][QUEEN];
        const std::uint32_t key = p.canonical().key();
        bool earlier = false;
        for (std::size_t j = 0; j < i; ++j) earlier |= four[j].key() == key;
        EXPECT_TRUE(earlier) << m.name() << " promotes into " << p.canonical().name();
      }
  }
}

}  // namespace
}  // namespace db::egtb
