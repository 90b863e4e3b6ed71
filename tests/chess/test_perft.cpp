// Perft counts of ../shared/data/perft.epd (verified with Stockfish 15.1), within a node budget.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "chess/epd.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/perft.h"

namespace db {
namespace {

#ifdef DB_PERFT_DEEP
constexpr std::uint64_t kNodeBudget = 200'000'000;  // label "deep"
constexpr int kMinNodes = 5'000'001;                // the quick suite already covers smaller counts
#else
constexpr std::uint64_t kNodeBudget = 5'000'000;  // every count up to 5 million nodes a position
constexpr int kMinNodes = 0;
#endif

struct PerftCase {
  std::string fen;
  int depth;
  std::uint64_t nodes;
  int line;
};

// Lines of perft.epd whose FEN our strict parser rejects, with the reason. Line 155 (from
// python-chess's tricky.perft) gives black the right 'q' with its king on h8; Stockfish, which
// verified the counts, reads that as a Chess960-style right (king h8, rook a8) and later castles
// with it, so the published counts are not those of standard chess. We refuse the FEN instead.
struct RejectedLine {
  int line;
  std::string error;
};

struct PerftData {
  std::vector<PerftCase> cases;
  std::vector<RejectedLine> rejected;
};

const PerftData& perft_data() {
  static const PerftData data = [] {
    PerftData d;
    std::ifstream in(std::string(DB_SHARED_DATA_DIR) + "/perft.epd");
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
      ++line;
      if (text.empty()) continue;
      try {
        const EpdRecord rec = parse_epd(text);
        for (const auto& [name, value] : rec.opcodes) {
          if (name.size() < 2 || name[0] != 'D') continue;
          const int depth = std::stoi(name.substr(1));
          const std::uint64_t nodes = std::stoull(value);
          if (nodes <= kNodeBudget && nodes >= std::uint64_t(kMinNodes))
            d.cases.push_back({rec.position_fen, depth, nodes, line});
        }
      } catch (const FenError& e) {
        d.rejected.push_back({line, e.what()});
      }
    }
    return d;
  }();
  return data;
}

class PerftSuite : public ::testing::TestWithParam<PerftCase> {};

TEST_P(PerftSuite, CountMatchesPublishedValue) {
  const PerftCase& c = GetParam();
  Position pos = Position::from_fen(c.fen);
  const std::string fen_before = pos.fen();
  EXPECT_EQ(perft(pos, c.depth), c.nodes) << c.fen << " depth " << c.depth;
  EXPECT_EQ(pos.fen(), fen_before) << "perft must leave the position unchanged";
}

INSTANTIATE_TEST_SUITE_P(PerftEpd, PerftSuite, ::testing::ValuesIn(perft_data().cases),
                         [](const ::testing::TestParamInfo<PerftCase>& param) {
                           return "line" + std::to_string(param.param.line) + "_d" + std::to_string(param.param.depth);
                         });

#ifndef DB_PERFT_DEEP
TEST(PerftEpdFile, OnlyTheChess960StyleCastlingLineIsRejected) {
  const PerftData& d = perft_data();
  ASSERT_EQ(d.rejected.size(), 1u);
  EXPECT_EQ(d.rejected[0].line, 155);
  EXPECT_NE(d.rejected[0].error.find("field 3 (castling)"), std::string::npos) << d.rejected[0].error;
  EXPECT_GT(d.cases.size(), 600u);  // the file was found and read
}
#endif

// Position::gives_check against the move made, for every move three plies deep from every position
// of the file (castling, promotions, en passant and discovered checks all occur there).
void expect_gives_check_as_made(Position& pos, int depth, int& checks, int& moves) {
  MoveList list;
  generate_legal(pos, list);
  for (const Move m : list) {
    const bool predicted = pos.gives_check(m);
    pos.make_move(m);
    ++moves;
    checks += pos.in_check();
    ASSERT_EQ(predicted, pos.in_check()) << move_to_uci(m) << " after " << pos.fen();
    if (depth > 1) expect_gives_check_as_made(pos, depth - 1, checks, moves);
    pos.unmake_move(m);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(PerftEpdFile, GivesCheckIsWhatMakingTheMoveShows) {
  std::set<std::string> fens;
  for (const PerftCase& c : perft_data().cases) fens.insert(c.fen);
  int checks = 0, moves = 0;
  for (const std::string& fen : fens) {
    Position pos = Position::from_fen(fen);
    expect_gives_check_as_made(pos, 3, checks, moves);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(checks, 10000) << moves << " moves";
}

}  // namespace
}  // namespace db
