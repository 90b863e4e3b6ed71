// The UCI engine's own book: OwnBook and BookFile, book moves answered at once, bad books reported
// with the engine searching on.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "book/book_move.h"
#include "book/polyglot_book.h"
#include "book/polyglot_key.h"
#include "chess/notation.h"
#include "uci/uci.h"
#include "uci_session.h"

namespace db::uci {
namespace {

using test::run_session;

// A one-position book: the start position with 1.Nc3 only (no search would choose it at depth 1).
// A file of its own for each test: CTest runs the tests side by side, and one test's book removed
// under another made that one search instead of answering from its book.
class OneMoveBook {
 public:
  OneMoveBook()
      : path_(::testing::TempDir() + "uci_one_move_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() +
              ".bin") {
    const Position start;
    std::string bytes;
    book::put_entry(bytes, {book::polyglot_key(start), book::encode_move(parse_uci(start, "b1c3")), 10, 0});
    std::ofstream(path_, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  }
  ~OneMoveBook() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(UciBook, OptionsAreListed) {
  const std::string out = run_session("uci\nquit\n");
  EXPECT_NE(out.find("option name OwnBook type check default true"), std::string::npos) << out;
  EXPECT_NE(out.find(std::string("option name BookFile type string default ") + book::kDefaultBookPath),
            std::string::npos)
      << out;
}

TEST(UciBook, PositionInTheBookIsAnsweredFromItWithoutSearching) {
  OneMoveBook book;
  const std::string out =
      run_session("setoption name BookFile value " + book.path() + "\nposition startpos\ngo depth 4\nisready\nquit\n");
  EXPECT_NE(out.find("info string book move b1c3 weight 10 of 10 (1 book moves)\nbestmove b1c3\n"), std::string::npos)
      << out;
  EXPECT_EQ(out.find("info depth"), std::string::npos) << out;
  EXPECT_NE(out.find("readyok"), std::string::npos) << out;
}

TEST(UciBook, OutOfTheBookOwnBookOffInfiniteAndPonderSearch) {
  OneMoveBook book;
  const std::string set = "setoption name BookFile value " + book.path() + "\n";
  // Out of the book.
  EXPECT_NE(run_session(set + "position startpos moves e2e4\ngo depth 2\nquit\n").find("info depth 2"),
            std::string::npos);
  // OwnBook false.
  const std::string off =
      run_session(set + "setoption name OwnBook value false\nposition startpos\ngo depth 2\nquit\n");
  EXPECT_NE(off.find("info depth 2"), std::string::npos) << off;
  EXPECT_EQ(off.find("book move"), std::string::npos) << off;
  // go infinite is analysis: searched until stop.
  std::istringstream in;
  std::ostringstream out;
  UciEngine engine(in, out);
  engine.handle(set.substr(0, set.size() - 1));
  engine.handle("position startpos");
  engine.handle("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(out.str().find("bestmove"), std::string::npos) << out.str();
  engine.handle("stop");
  EXPECT_EQ(out.str().find("book move"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("bestmove"), std::string::npos) << out.str();
}

TEST(UciBook, DefaultBookPlaysALegalBookMove) {
  const std::string out = run_session("position startpos moves d2d4\ngo wtime 1000 btime 1000\nquit\n");
  const std::size_t at = out.find("info string book move ");
  ASSERT_NE(at, std::string::npos) << out;
  const std::size_t best = out.find("bestmove ");
  ASSERT_NE(best, std::string::npos) << out;
  Position pos;
  pos.make_move(parse_uci(pos, "d2d4"));
  EXPECT_NO_THROW(parse_uci(pos, out.substr(best + 9, 4))) << out;
  EXPECT_EQ(out.substr(at + 22, 4), out.substr(best + 9, 4)) << out;
}

TEST(UciBook, BadBookFilesAreReportedAndTheEngineSearches) {
  const std::string missing = ::testing::TempDir() + "no_such_book.bin";
  const std::string out = run_session("setoption name BookFile value " + missing +
                                      "\nposition startpos\ngo depth 2\ngo depth 2\nisready\nquit\n");
  const std::string error =
      "info string error book '" + missing + "': cannot open: No such file or directory (playing without a book)";
  const std::size_t first = out.find(error);
  EXPECT_NE(first, std::string::npos) << out;
  EXPECT_EQ(out.find(error, first + 1), std::string::npos) << "reported once: " << out;
  EXPECT_NE(out.find("info depth 2"), std::string::npos) << out;
  EXPECT_NE(out.find("bestmove"), std::string::npos) << out;

  const std::string bad = ::testing::TempDir() + "bad_book.bin";
  std::ofstream(bad, std::ios::binary) << "seventeen bytes!!";
  const std::string cut =
      run_session("setoption name BookFile value " + bad + "\nposition startpos\ngo depth 1\nquit\n");
  EXPECT_NE(cut.find("size 17 bytes is not a multiple of 16"), std::string::npos) << cut;
  EXPECT_NE(cut.find("bestmove"), std::string::npos) << cut;
  std::remove(bad.c_str());

  const std::string bad_flag = run_session("setoption name OwnBook value maybe\nquit\n");
  EXPECT_NE(bad_flag.find("info string error OwnBook must be true or false"), std::string::npos) << bad_flag;
}

TEST(UciBook, EmptyBookFileMeansNoBook) {
  const std::string out = run_session("setoption name BookFile value <empty>\nposition startpos\ngo depth 1\nquit\n");
  EXPECT_EQ(out.find("info string"), std::string::npos) << out;
  EXPECT_NE(out.find("bestmove"), std::string::npos) << out;
}

}  // namespace
}  // namespace db::uci
