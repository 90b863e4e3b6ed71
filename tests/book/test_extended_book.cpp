// The extended book (AIJ 8.2, book/extended_book.h): summaries counted from games (results from
// the mover's side, Elo, years, annotations from SAN marks and NAGs), bonuses bounded by half a
// pawn and ordered as the summaries say, the immediate move, and the file read back or refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "book/book_move.h"
#include "book/extended_book.h"
#include "book_fixture.h"

namespace db::book {
namespace {

using testing::after;

// Twelve games 1. e4 (won by white ten times, rated 2700, one "!"), two 1. d4?! (lost, rated
// 2200, old), and one unrated 1. c4 $2.
std::string games_text() {
  std::string pgn;
  for (int i = 0; i < 12; ++i) {
    pgn += "[Event \"e4\"]\n[Date \"1997.05.0" + std::to_string(1 + i % 9) + "\"]\n[WhiteElo \"2700\"]\n";
    pgn += i < 10 ? "[Result \"1-0\"]\n\n1. e4" : "[Result \"1/2-1/2\"]\n\n1. e4";
    pgn += i == 0 ? "! e5 2. Nf3 " : " e5 2. Nf3 ";
    pgn += i < 10 ? "1-0\n\n" : "1/2-1/2\n\n";
  }
  for (int i = 0; i < 2; ++i)
    pgn += "[Event \"d4\"]\n[Date \"1950.??.??\"]\n[WhiteElo \"2200\"]\n[Result \"0-1\"]\n\n1. d4?! d5 0-1\n\n";
  pgn += "[Event \"c4\"]\n[Result \"*\"]\n\n1. c4 $2 e5 *\n\n";
  return pgn;
}

TEST(ExtendedBook, SummarisesTheGamesPerMove) {
  ExtendedBuildStats stats;
  const ExtendedBook book = ExtendedBook::build(parse_pgn(games_text()), {}, &stats);
  EXPECT_EQ(stats.games, 15u);
  EXPECT_EQ(stats.bad_games, 0u);
  EXPECT_EQ(book.latest_year(), 1997);
  const std::vector<MoveSummary> start = book.moves(after(""));
  ASSERT_EQ(start.size(), 3u);
  const MoveSummary& e4 = start[0];  // most played first
  EXPECT_EQ(move_to_uci(decode_move(after(""), e4.move)), "e2e4");
  EXPECT_EQ(e4.games, 12u);
  EXPECT_EQ(e4.wins, 10u);
  EXPECT_EQ(e4.draws, 2u);
  EXPECT_EQ(e4.losses, 0u);
  EXPECT_EQ(e4.average_elo(), 2700);
  EXPECT_EQ(e4.last_year, 1997);
  EXPECT_EQ(e4.good, 1u);
  EXPECT_EQ(e4.bad, 0u);
  const MoveSummary& d4 = start[1];
  EXPECT_EQ(d4.games, 2u);
  EXPECT_EQ(d4.losses, 2u);
  EXPECT_EQ(d4.bad, 2u);
  EXPECT_EQ(d4.last_year, 1950);
  const MoveSummary& c4 = start[2];
  EXPECT_EQ(c4.rated, 0u);
  EXPECT_EQ(c4.bad, 1u);  // the NAG $2
  // Black's reply counted from black's side: e5 lost ten times after 1. e4.
  const std::vector<MoveSummary> reply = book.moves(after("e2e4"));
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(reply[0].losses, 10u);
  EXPECT_TRUE(book.moves(after("a2a3")).empty());
}

TEST(ExtendedBook, BonusesAreBoundedAndFollowTheSummaries) {
  const ExtendedBook book = ExtendedBook::build(parse_pgn(games_text()));
  const std::vector<RootBonus> b = book.bonuses(after(""));
  ASSERT_EQ(b.size(), 3u);
  for (const RootBonus& r : b) EXPECT_LE(std::abs(r.bonus), kMaxBonus);
  EXPECT_GT(b[0].bonus, b[1].bonus);  // e4: popular, winning, strong, recent, praised
  EXPECT_LT(b[1].bonus, 0);           // d4?!: lost by weaker players long ago
  EXPECT_GE(b[0].bonus, 30);
  // e4 dominates: played at once.
  const std::optional<Move> now = book.immediate(after(""));
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(move_to_uci(*now), "e2e4");
  // After 1. e4 the only book move was played 12 times but lost 10: no immediate move.
  EXPECT_FALSE(book.immediate(after("e2e4")).has_value());
  // Each ingredient moves the bonus the way AIJ 8.2 says.
  MoveSummary m;
  m.games = 20;
  m.wins = 10;
  m.draws = 10;
  const int base = move_bonus(m, 40, 2000);
  MoveSummary more_played = m;
  more_played.games = 30;
  more_played.draws = 20;
  EXPECT_GT(move_bonus(more_played, 40, 2000), base);
  MoveSummary praised = m;
  praised.good = 5;
  EXPECT_GT(move_bonus(praised, 40, 2000), base);
  MoveSummary strong = m;
  strong.rated = 20;
  strong.elo_sum = 20 * 2750;
  EXPECT_GT(move_bonus(strong, 40, 2000), base);
  MoveSummary recent = m;
  recent.last_year = 2000;
  MoveSummary old = m;
  old.last_year = 1950;
  EXPECT_GT(move_bonus(recent, 40, 2000), move_bonus(old, 40, 2000));
}

TEST(ExtendedBook, FileRoundTripAndDamagedFilesAreRefused) {
  const std::string path = ::testing::TempDir() + "extended_book_test.xbook";
  const ExtendedBook book = ExtendedBook::build(parse_pgn(games_text()));
  book.write(path);
  const ExtendedBook back = ExtendedBook::read(path);
  EXPECT_EQ(back.size(), book.size());
  EXPECT_EQ(back.latest_year(), 1997);
  EXPECT_EQ(back.bonuses(after("")).front().bonus, book.bonuses(after("")).front().bonus);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto refused = [&](const std::string& content, const std::string& why) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    try {
      ExtendedBook::read(path);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const BookError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused(bytes.substr(0, bytes.size() - 3), "truncated");
  refused("not a book at all, but long enough", "not an extended book");
  std::string bad_counts = bytes;
  bad_counts[24 + 16] = char(0xFF);  // the first entry's wins above its games
  refused(bad_counts, "counts do not add up");
  std::remove(path.c_str());
  EXPECT_THROW(ExtendedBook::read(path), BookError);
}

}  // namespace
}  // namespace db::book
