// Building a book from PGN games and reading it back.
#include <gtest/gtest.h>

#include "book/book_builder.h"
#include "book/polyglot_key.h"
#include "book_fixture.h"

namespace db::book {
namespace {

using testing::after;

const char* const kGames = R"([Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "b"]
[Result "1/2-1/2"]

1. e4 c5 2. Nf3 d6 1/2-1/2

[Event "c"]
[Result "0-1"]

1. d4 Nf6 2. c4 e6 0-1

[Event "d"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 1-0

[Event "bad move"]
[Result "*"]

1. e4 e5 2. Ke3 *
)";

std::vector<std::string> probe_uci(const PolyglotBook& book, const Position& pos) {
  std::vector<std::string> out;
  for (const BookMove& m : book.probe(pos)) out.push_back(move_to_uci(m.move) + ":" + std::to_string(m.weight));
  return out;
}

TEST(BookBuild, CountsGamesPerMoveAndReadsBack) {
  BuildStats stats;
  const std::vector<Entry> entries = build_entries(parse_pgn(kGames), BuildOptions{}, &stats);
  EXPECT_EQ(stats.games, 5u);
  EXPECT_EQ(stats.bad_games, 1u);  // 2.Ke3 is illegal; its first two moves still count
  testing::TempFile file("built.bin");
  write_book(file.path(), entries);
  const PolyglotBook book = PolyglotBook::open(file.path());  // sorted, or this would throw
  EXPECT_EQ(book.size(), entries.size());
  EXPECT_EQ(stats.entries, entries.size());
  EXPECT_EQ(probe_uci(book, Position()), (std::vector<std::string>{"e2e4:4", "d2d4:1"}));
  EXPECT_EQ(probe_uci(book, after("e2e4")), (std::vector<std::string>{"e7e5:3", "c7c5:1"}));
  EXPECT_EQ(probe_uci(book, after("e2e4 e7e5 g1f3 b8c6")), (std::vector<std::string>{"f1c4:1", "f1b5:1"}));
}

TEST(BookBuild, MaxPlyMinGamesAndResults) {
  const std::vector<PgnGame> games = parse_pgn(kGames);
  BuildOptions two_plies;
  two_plies.max_ply = 2;
  const PolyglotBook shallow = PolyglotBook::from_bytes(testing::bytes_of(build_entries(games, two_plies)), "shallow");
  EXPECT_FALSE(shallow.probe(after("e2e4")).empty());
  EXPECT_TRUE(shallow.probe(after("e2e4 e7e5")).empty());

  BuildOptions popular;
  popular.min_games = 2;
  const PolyglotBook common = PolyglotBook::from_bytes(testing::bytes_of(build_entries(games, popular)), "common");
  EXPECT_EQ(probe_uci(common, Position()), std::vector<std::string>{"e2e4:4"});
  EXPECT_TRUE(common.probe(after("d2d4")).empty());

  // 2 per win and 1 per draw of the side that moved: 1.e4 won twice, drew once (the bad game has no
  // result); 1.d4 lost and leaves the book.
  BuildOptions results;
  results.weight_results = true;
  const PolyglotBook scored = PolyglotBook::from_bytes(testing::bytes_of(build_entries(games, results)), "scored");
  EXPECT_EQ(probe_uci(scored, Position()), std::vector<std::string>{"e2e4:5"});
  EXPECT_EQ(probe_uci(scored, after("d2d4")), std::vector<std::string>{"g8f6:2"});
}

TEST(BookBuild, WeightsAreScaledToSixteenBits) {
  std::string pgn;
  for (int i = 0; i < 70000; ++i) pgn += "1. e4 *\n\n";
  pgn += "1. d4 *\n\n";
  const std::vector<Entry> entries = build_entries(parse_pgn(pgn), BuildOptions{});
  const PolyglotBook book = PolyglotBook::from_bytes(testing::bytes_of(entries), "big");
  EXPECT_EQ(probe_uci(book, Position()), (std::vector<std::string>{"e2e4:65535", "d2d4:1"}));
}

TEST(BookBuild, BadOptionsAndUnwritableFiles) {
  BuildOptions bad;
  bad.max_ply = 0;
  EXPECT_THROW(build_entries({}, bad), std::invalid_argument);
  EXPECT_THROW(write_book("/nonexistent-dir/book.bin", {}), BookError);
}

}  // namespace
}  // namespace db::book
