// Polyglot files: the entry bytes, lookup of all entries of a key, move decoding (castling as king
// takes rook, promotions), the order of probe results, and bad files.
#include <gtest/gtest.h>

#include "book/book_move.h"
#include "book/polyglot_book.h"
#include "book/polyglot_key.h"
#include "book_fixture.h"

namespace db::book {
namespace {

using testing::after;
using testing::bytes_of;
using testing::TempFile;

std::uint16_t field(const char* uci, int promo = 0) {
  const int from = (uci[0] - 'a') + 8 * (uci[1] - '1');
  const int to = (uci[2] - 'a') + 8 * (uci[3] - '1');
  return std::uint16_t(to | (from << 6) | (promo << 12));
}

std::vector<std::string> uci_moves(const std::vector<BookMove>& moves) {
  std::vector<std::string> out;
  for (const BookMove& m : moves) out.push_back(move_to_uci(m.move));
  return out;
}

TEST(BookFile, EntryBytesAreBigEndian) {
  std::string bytes;
  put_entry(bytes, {0x0102030405060708ULL, 0x090a, 0x0b0c, 0x0d0e0f10});
  ASSERT_EQ(bytes.size(), kEntryBytes);
  for (std::size_t i = 0; i < kEntryBytes; ++i) EXPECT_EQ(int(static_cast<unsigned char>(bytes[i])), int(i + 1));
  const Entry e = get_entry(reinterpret_cast<const unsigned char*>(bytes.data()));
  EXPECT_EQ(e, (Entry{0x0102030405060708ULL, 0x090a, 0x0b0c, 0x0d0e0f10}));
}

TEST(BookFile, MoveFieldsOfOrdinaryMovesCastlingAndPromotions) {
  const Position start;
  EXPECT_EQ(field("e2e4"), 796);  // to 28, from 12
  EXPECT_EQ(move_to_uci(decode_move(start, field("e2e4"))), "e2e4");
  EXPECT_EQ(encode_move(parse_uci(start, "g1f3")), field("g1f3"));
  EXPECT_TRUE(decode_move(start, field("e2e5")).is_none());  // not a legal move
  EXPECT_TRUE(decode_move(start, 0).is_none());              // a1a1: Polyglot's "no move"

  const Position castles = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(move_to_uci(decode_move(castles, field("e1h1"))), "e1g1");
  EXPECT_TRUE(decode_move(castles, field("e1h1")).is_castle());
  EXPECT_EQ(move_to_uci(decode_move(castles, field("e1a1"))), "e1c1");
  EXPECT_TRUE(decode_move(castles, field("e1g1")).is_none());  // the king's step is not how books write it
  EXPECT_EQ(encode_move(parse_uci(castles, "e1g1")), field("e1h1"));
  EXPECT_EQ(encode_move(parse_uci(castles, "e1c1")), field("e1a1"));
  const Position black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_EQ(move_to_uci(decode_move(black, field("e8h8"))), "e8g8");
  EXPECT_EQ(move_to_uci(decode_move(black, field("e8a8"))), "e8c8");
  // Without the right, e1h1 is no move (the king cannot reach h1 otherwise).
  EXPECT_TRUE(decode_move(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1"), field("e1h1")).is_none());
  // A rook on e1 going to h1 is an ordinary move with the same field.
  const Position rook = Position::from_fen("k7/8/8/8/8/8/8/K3R3 w - - 0 1");
  EXPECT_EQ(move_to_uci(decode_move(rook, field("e1h1"))), "e1h1");

  const Position promo = Position::from_fen("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(move_to_uci(decode_move(promo, field("a7a8", 4))), "a7a8q");
  EXPECT_EQ(move_to_uci(decode_move(promo, field("a7a8", 1))), "a7a8n");
  EXPECT_EQ(move_to_uci(decode_move(promo, field("a7b8", 3))), "a7b8r");
  EXPECT_EQ(move_to_uci(decode_move(promo, field("a7b8", 2))), "a7b8b");
  EXPECT_TRUE(decode_move(promo, field("a7a8")).is_none());     // a promotion needs its piece
  EXPECT_TRUE(decode_move(promo, field("a7a8", 5)).is_none());  // no such piece
  EXPECT_EQ(encode_move(parse_uci(promo, "a7b8q")), field("a7b8", 4));
}

// A book of three positions: the start (three moves and an illegal one, not in weight order), the
// position after 1.e4 (one move), and a castling position.
std::vector<Entry> small_book() {
  const Key start = polyglot_key(Position());
  const Key e4 = polyglot_key(after("e2e4"));
  const Key castles = polyglot_key(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
  std::vector<Entry> entries = {{start, field("d2d4"), 80, 1},  {start, field("e2e4"), 100, 2},
                                {start, field("e2e5"), 500, 0}, {start, field("g1f3"), 20, 3},
                                {e4, field("e7e5"), 7, 0},      {castles, field("e1h1"), 3, 0},
                                {castles, field("e1a1"), 2, 0}};
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  return entries;
}

TEST(BookFile, FindsEveryEntryOfAKeyAndProbesHighestWeightFirst) {
  TempFile file("small.bin");
  file.write(bytes_of(small_book()));
  const PolyglotBook book = PolyglotBook::open(file.path());
  EXPECT_EQ(book.size(), 7u);
  EXPECT_EQ(book.name(), file.path());

  const std::vector<Entry> start = book.find(polyglot_key(Position()));
  ASSERT_EQ(start.size(), 4u);
  EXPECT_EQ(start[0].move, field("d2d4"));  // file order
  EXPECT_EQ(start[3].move, field("g1f3"));

  const std::vector<BookMove> moves = book.probe(Position());
  EXPECT_EQ(uci_moves(moves), (std::vector<std::string>{"e2e4", "d2d4", "g1f3"}));  // e2e5 is dropped
  EXPECT_EQ(moves[0].weight, 100);
  EXPECT_EQ(moves[0].learn, 2u);

  EXPECT_EQ(uci_moves(book.probe(after("e2e4"))), std::vector<std::string>{"e7e5"});
  EXPECT_EQ(uci_moves(book.probe(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))),
            (std::vector<std::string>{"e1g1", "e1c1"}));
  EXPECT_TRUE(book.probe(after("d2d4")).empty());
  EXPECT_TRUE(book.find(0).empty());
  EXPECT_TRUE(book.find(~Key(0)).empty());
}

TEST(BookFile, EmptyFileIsAnEmptyBook) {
  TempFile file("empty.bin");
  file.write("");
  const PolyglotBook book = PolyglotBook::open(file.path());
  EXPECT_EQ(book.size(), 0u);
  EXPECT_TRUE(book.probe(Position()).empty());
}

// The message of the BookError that opening path throws.
std::string open_error(const std::string& path) {
  try {
    PolyglotBook::open(path);
  } catch (const BookError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BookFile, BadFilesNameTheFileAndTheFault) {
  TempFile cut("cut.bin");
  cut.write(bytes_of(small_book()) + "x");
  EXPECT_EQ(open_error(cut.path()),
            "book '" + cut.path() + "': size 113 bytes is not a multiple of 16 (not a Polyglot book, or cut short)");

  std::vector<Entry> entries = small_book();
  std::swap(entries[1], entries[5]);
  TempFile unsorted("unsorted.bin");
  unsorted.write(bytes_of(entries));
  const std::string msg = open_error(unsorted.path());
  EXPECT_EQ(msg.rfind("book '" + unsorted.path() + "': keys not sorted: entry ", 0), 0u) << msg;

  const std::string missing = ::testing::TempDir() + "no-such-book.bin";
  EXPECT_EQ(open_error(missing), "book '" + missing + "': cannot open: No such file or directory");
  EXPECT_EQ(open_error(::testing::TempDir()), "book '" + ::testing::TempDir() + "': is a directory, not a book file");
}

}  // namespace
}  // namespace db::book
