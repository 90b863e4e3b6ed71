// The evaluation tuner (host/tune): the positions file's errors name their line and field, and
// the fit recovers parameters from labels made with known ones (the chip's own evaluation under
// a changed parameter set, as if it were Stockfish's), lowering both the training and the
// held-out error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "chip/chip_data.h"
#include "chip/eval_generator.h"
#include "chip/generator_params.h"
#include "tune/texel.h"

namespace db::tune {
namespace {

class TempFile {
 public:
  explicit TempFile(const std::string& text)
      // The test's name too: CTest runs tests side by side, each process counting from 0.
      : path_(testing::TempDir() + "tune_" + testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
              std::to_string(counter_++) + ".csv") {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

std::string error_of(const std::string& text) {
  const TempFile f(text);
  try {
    load_dataset(f.path());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(TuneDataset, ErrorsNameTheLineAndTheField) {
  const std::string ok = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;20;0.5;3\n";
  EXPECT_NE(error_of("# comment\n" + ok + "8/8/8/8/8/8/8/8 w - - 0 1;0;1;1\n").find(":3: FEN"), std::string::npos);
  EXPECT_NE(error_of(ok + "x;1;1\n").find(":2: expected 4 fields"), std::string::npos);
  EXPECT_NE(error_of(ok + ok.substr(0, ok.find(';')) + ";12a;1;4\n").find(":2: score: '12a' is not a number"),
            std::string::npos);
  EXPECT_NE(error_of(ok + ok.substr(0, ok.find(';')) + ";12;2;4\n").find(":2: result '2'"), std::string::npos);
  EXPECT_NE(error_of("# nothing\n").find("holds no positions"), std::string::npos);
  EXPECT_EQ(error_of(ok), "");
}

TEST(TuneDataset, SplitsByGameAndKeepsTheSideToMovesView) {
  std::string text;
  int game = 0;
  for (const std::string& fen : chip::testdata::random_game_positions(5, 6, 40))
    text += fen + ";50;1;" + std::to_string(game++ / 10) + "\n";
  const TempFile f(text);
  const Dataset d = load_dataset(f.path(), 2);
  EXPECT_EQ(d.lines, d.train.size() + d.test.size());
  EXPECT_GT(d.test.size(), 0u);
  EXPECT_GT(d.train.size(), 0u);
  for (const Sample& s : d.train) EXPECT_EQ(s.result, s.trace.black_to_move ? 0.0f : 1.0f);
}

// Labels made by the chip's evaluation under parameters with the bishop pair at twice its hand
// value: fitting only that parameter from the hand values must move it towards the labels' value
// and lower the error on both sets.
TEST(TexelFit, RecoversAParameterFromItsOwnLabels) {
  const int index = chip::GeneratorParams::find("regs.bishop_pair");
  ASSERT_GE(index, 0);
  chip::GeneratorParams truth = chip::GeneratorParams::hand();
  const int hand = truth.get(index);
  truth.set(index, hand * 2 + 20);
  std::string text;
  int n = 0;
  for (const std::string& fen : chip::testdata::random_game_positions(9, 30, 80)) {
    const Position pos = Position::from_fen(fen);
    Sample s;
    s.trace = chip::ChipEvaluator::trace(pos);
    s.stage = std::uint8_t(chip::game_stage(pos));
    s.fullmove = std::uint16_t(pos.fullmove_number());
    text += fen + ";" + std::to_string(evaluate(s, truth)) + ";0.5;" + std::to_string(n++ / 40) + "\n";
  }
  const TempFile f(text);
  const Dataset d = load_dataset(f.path(), 4);
  FitOptions options;
  for (int i = 0; i < chip::GeneratorParams::count(); ++i) {
    if (i != index) options.frozen.push_back(chip::GeneratorParams::name(i));
  }
  TexelFit fit(d, options);
  const FitResult r = fit.fit(chip::GeneratorParams::hand());
  EXPECT_NEAR(r.k, 1.0, 0.15);
  EXPECT_LT(r.train_after, r.train_before);
  EXPECT_LT(r.test_after, r.test_before);
  EXPECT_GT(r.params.get(index), hand + (hand + 20) / 2);
  ASSERT_EQ(r.changes.size(), 1u);
  EXPECT_EQ(r.changes[0].name, "regs.bishop_pair");
}

}  // namespace
}  // namespace db::tune
