// Debian's gnuchess-book, the engine's default book: it must be there (scripts/deps installs it),
// and its start position must give legal moves including 1.e4.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "book/polyglot_book.h"
#include "book/polyglot_key.h"
#include "book_fixture.h"

namespace db::book {
namespace {

TEST(GnuchessBook, IsInstalledByScriptsDeps) {
  std::ifstream deps(std::string(DB_SOURCE_DIR) + "/scripts/deps");
  std::stringstream text;
  text << deps.rdbuf();
  ASSERT_NE(text.str().find("gnuchess-book"), std::string::npos) << "scripts/deps should install gnuchess-book";
  ASSERT_TRUE(std::filesystem::exists(kDefaultBookPath))
      << kDefaultBookPath << " is missing although scripts/deps lists gnuchess-book: run scripts/deps";
}

TEST(GnuchessBook, StartPositionGivesLegalMovesIncludingE4) {
  ASSERT_TRUE(std::filesystem::exists(kDefaultBookPath)) << kDefaultBookPath << " is missing: run scripts/deps";
  const PolyglotBook book = PolyglotBook::open(kDefaultBookPath);
  EXPECT_GT(book.size(), 100000u);  // about 180,000 entries
  for (const Position& pos : {Position(), testing::after("e2e4"), testing::after("d2d4 g8f6 c2c4")}) {
    const std::vector<BookMove> moves = book.probe(pos);
    SCOPED_TRACE(pos.fen());
    ASSERT_FALSE(moves.empty());
    // Every entry of the key decodes to a legal move: none was dropped.
    EXPECT_EQ(moves.size(), book.find(polyglot_key(pos)).size());
    for (const BookMove& m : moves) EXPECT_TRUE(pos.is_legal(m.move));
  }
  bool e4 = false;
  for (const BookMove& m : book.probe(Position())) e4 |= move_to_uci(m.move) == "e2e4";
  EXPECT_TRUE(e4);
}

}  // namespace
}  // namespace db::book
