// Random bytes as book files: either a clear BookError or a book whose probes return legal moves.
// (tests/fuzz/fuzz_parsers.cpp fuzzes the same reader under the sanitizers, label "fuzz".)
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "book/polyglot_book.h"
#include "book/polyglot_key.h"
#include "book_fixture.h"

namespace db::book {
namespace {

TEST(BookRandomBytes, NeverCrashesAndOnlyLegalMovesComeOut) {
  const Position positions[] = {Position(), testing::after("e2e4"),
                                Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
                                Position::from_fen("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1")};
  std::mt19937_64 rng(23);
  int books = 0, errors = 0;
  for (int round = 0; round < 2000; ++round) {
    const std::size_t size = rng() % 200;
    std::string bytes(size, '\0');
    for (char& c : bytes) c = char(rng() & 0xff);
    if (round % 2 == 0 && size >= 16) {
      // Half the time: whole entries, sorted, keyed to the test positions with random move fields,
      // so that decoding sees every kind of field.
      bytes.resize(size / 16 * 16);
      std::vector<Entry> entries;
      for (std::size_t i = 0; i < bytes.size(); i += 16) {
        Entry e = get_entry(reinterpret_cast<const unsigned char*>(bytes.data() + i));
        e.key = polyglot_key(positions[rng() % 4]);
        entries.push_back(e);
      }
      std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
      bytes = testing::bytes_of(entries);
    }
    try {
      const PolyglotBook book = PolyglotBook::from_bytes(bytes, "random");
      ++books;
      for (const Position& pos : positions)
        for (const BookMove& m : book.probe(pos)) EXPECT_TRUE(pos.is_legal(m.move));
    } catch (const BookError& e) {
      ++errors;
      EXPECT_EQ(std::string(e.what()).rfind("book 'random': ", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(books, 0);
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace db::book
