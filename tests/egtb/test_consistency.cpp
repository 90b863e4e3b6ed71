// Retrograde consistency of the 3-piece databases through the chess core's move generator, and
// what is known of them without any table: a lone minor piece never wins.
#include <gtest/gtest.h>

#include "egtb/verify.h"
#include "egtb_fixture.h"

namespace db::egtb {
namespace {

TEST(Consistency, EveryThreePieceValueIsItsMovesBest) {
  const Tablebases& tbs = test::three_pieces();
  for (const Material& m : all_materials(3)) {
    const VerifyStats st = verify_table(tbs, m);
    EXPECT_GT(st.positions, 0u) << m.name();
    EXPECT_EQ(st.mismatches, 0u) << m.name() << ": " << st.first_mismatch;
  }
}

TEST(Consistency, ALoneMinorPieceNeverWins) {
  const Tablebases& tbs = test::three_pieces();
  for (const char* name : {"KNvK", "KBvK"}) {
    const Table& t = *tbs.find(Material::parse(name));
    for (std::uint8_t e : t.entries) EXPECT_TRUE(e == kInvalid || e == kDrawCode) << name;
  }
}

// The checker must catch a wrong entry: corrupt one value of a copy and verify it again.
TEST(Consistency, TheCheckFindsAWrongEntry) {
  const Tablebases& tbs = test::three_pieces();
  Tablebases copy;
  for (const Material& m : all_materials(3)) copy.add(*tbs.find(m));
  const Material krk = Material::parse("KRvK");
  Table broken = *copy.find(krk);
  std::size_t i = 0;
  while (Value::from_code(broken.entries[i]).wdl != Wdl::Win) ++i;
  broken.entries[i] = Value{Wdl::Win, Value::from_code(broken.entries[i]).plies + 2}.code();
  copy.add(std::move(broken));
  EXPECT_GT(verify_table(copy, krk).mismatches, 0u);
}

}  // namespace
}  // namespace db::egtb
