// The software search's own evaluation: colour symmetry on positions from outside sources, and
// each term pointing the way chess knowledge says it should (same material, one feature changed).
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>

#include "chess/epd.h"
#include "search/interim_eval.h"

namespace db::search {
namespace {

// The same position with the colours swapped and the board turned upside down.
std::string mirror_fen(const std::string& fen) {
  std::istringstream in(fen);
  std::string board, side, castling, ep, half = "0", full = "1";
  in >> board >> side >> castling >> ep >> half >> full;
  std::vector<std::string> ranks;
  std::stringstream bs(board);
  for (std::string r; std::getline(bs, r, '/');) ranks.push_back(r);
  std::string out;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    for (char c : *it)
      out +=
          std::isalpha(static_cast<unsigned char>(c)) ? char(std::isupper(c) ? std::tolower(c) : std::toupper(c)) : c;
    if (it + 1 != ranks.rend()) out += '/';
  }
  std::string cas;
  for (char c : castling) cas += c == '-' ? c : char(std::isupper(c) ? std::tolower(c) : std::toupper(c));
  // The mirrored castling field in the usual order (KQkq).
  std::string ordered;
  for (char c : std::string("KQkq"))
    if (cas.find(c) != std::string::npos) ordered += c;
  if (ordered.empty()) ordered = "-";
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return out + " " + (side == "w" ? "b" : "w") + " " + ordered + " " + ep + " " + half + " " + full;
}

int eval(const std::string& fen) { return interim_evaluate(Position::from_fen(fen)); }

TEST(InterimEval, ColourSymmetricOnEveryWacPosition) {
  const auto records = read_epd_file(std::string(DB_SHARED_DATA_DIR) + "/wac.epd", FenMode::Lenient);
  ASSERT_GE(records.size(), 300u);
  int checked = 0;
  for (const auto& r : records) {
    const std::string fen = r.position.fen();
    // The mirror is a different position that mirrors back to this one.
    ASSERT_NE(Position::from_fen(mirror_fen(fen)).fen(), fen);
    ASSERT_EQ(Position::from_fen(mirror_fen(Position::from_fen(mirror_fen(fen)).fen())).fen(), fen);
    EXPECT_EQ(interim_evaluate(r.position), eval(mirror_fen(fen))) << fen << " / " << mirror_fen(fen);
    ++checked;
  }
  EXPECT_EQ(checked, int(records.size()));
}

TEST(InterimEval, StartIsNearlyEqualAndAKnightUpIsWinning) {
  EXPECT_LE(std::abs(eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")), 20);
  EXPECT_GE(eval("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 250);
}

TEST(InterimEval, PassedPawnWorthMoreTheFurtherItIs) {
  const int far = eval("4k3/P7/8/8/8/8/8/4K3 b - - 0 1");
  const int near = eval("4k3/8/8/8/8/P7/8/4K3 b - - 0 1");
  EXPECT_LT(far, near);  // black to move: white's advanced passer is worse for black
}

TEST(InterimEval, DoubledAndIsolatedPawnsCost) {
  // Three white pawns side by side against one of them cut off on the h-file.
  EXPECT_GT(eval("4k3/ppp5/8/8/8/8/PPP5/4K3 w - - 0 1"), eval("4k3/ppp5/8/8/8/8/P1P4P/4K3 w - - 0 1"));
  const int two_on_a_file = eval("4k3/ppp5/8/8/8/P7/P1P5/4K3 w - - 0 1");
  const int spread = eval("4k3/ppp5/8/8/8/8/P1P1P3/4K3 w - - 0 1");
  EXPECT_LT(two_on_a_file, spread);
}

TEST(InterimEval, RookPrefersTheOpenFile) {
  const int open = eval("r5k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
  const int closed = eval("r5k1/3p1ppp/8/8/8/8/3P1PPP/3R2K1 w - - 0 1");
  const int closed_ref = eval("r5k1/4pppp/8/8/8/8/4PPPP/3R2K1 w - - 0 1");  // same pawns, d-file open
  EXPECT_GT(closed_ref, closed);
  EXPECT_GT(open, eval("r5k1/5ppp/8/8/8/8/5PPP/5RK1 w - - 0 1") - 30);
}

TEST(InterimEval, KingShelterMattersWithQueensOn) {
  const int sheltered = eval("r2q1rk1/ppp2ppp/8/8/8/8/PPP2PPP/R2Q1RK1 w - - 0 1");
  const int bare = eval("r2q1rk1/ppp2ppp/8/8/8/5PPP/PPP5/R2Q1RK1 w - - 0 1");  // pawns pushed, same count
  EXPECT_GT(sheltered, bare);
}

TEST(InterimEval, RookAgainstMinorWithoutPawnsIsNearlyADraw) {
  EXPECT_LT(std::abs(eval("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1")), 100);
  EXPECT_GT(eval("4k3/8/8/3r4/8/8/8/Q3K3 w - - 0 1"), 300);  // the queen does win against the rook
}

}  // namespace
}  // namespace db::search
