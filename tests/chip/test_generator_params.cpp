// The evaluation generator's named parameters (chip/generator_params.h): the registry, its JSON
// form and errors, the hand values generating today's weights bit for bit, saturation into every
// field's width at every parameter's extremes, colour symmetry, and single parameters reaching the
// entries they should.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

#include "chip/array_model.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/generator_params.h"
#include "chip/slow_weights.h"

namespace db::chip {
namespace {

// Throws f and expects an std::invalid_argument whose message contains every one of parts.
template <typename F>
void expect_invalid(F f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(GeneratorParams, RegistryNamesAreUniqueAndHandValuesInRange) {
  EXPECT_GT(GeneratorParams::count(), 150);
  std::set<std::string> names;
  for (int i = 0; i < GeneratorParams::count(); ++i) {
    const std::string& n = GeneratorParams::name(i);
    EXPECT_TRUE(names.insert(n).second) << n;
    EXPECT_EQ(GeneratorParams::find(n), i);
    EXPECT_LE(GeneratorParams::min(i), GeneratorParams::hand_value(i)) << n;
    EXPECT_LE(GeneratorParams::hand_value(i), GeneratorParams::max(i)) << n;
    EXPECT_FALSE(GeneratorParams::description(i).empty()) << n;
    EXPECT_EQ(GeneratorParams::hand().get(i), GeneratorParams::hand_value(i));
  }
  EXPECT_EQ(GeneratorParams::hand()["placement.knight.value"], 320);
  EXPECT_EQ(GeneratorParams::hand()["rook_files.open[2]"], 10);
  EXPECT_EQ(GeneratorParams::hand()["passed.static[4]"], 100);
  EXPECT_EQ(GeneratorParams::hand()["regs.bishop_pair"], 30);
  EXPECT_EQ(GeneratorParams::name(gp::REG_BISHOP_PAIR), "regs.bishop_pair");
  EXPECT_THROW(GeneratorParams::hand().get(GeneratorParams::count()), std::out_of_range);
  EXPECT_THROW(GeneratorParams::hand().get(-1), std::out_of_range);
}

TEST(GeneratorParams, DefaultsAreTheHandValuesWithTheEmbeddedTunedOnes) {
  const nlohmann::json tuned = nlohmann::json::parse(kTunedParamsJson);
  ASSERT_TRUE(tuned.is_object());
  for (int i = 0; i < GeneratorParams::count(); ++i) {
    const std::string& n = GeneratorParams::name(i);
    EXPECT_EQ(GeneratorParams::defaults().get(i),
              tuned.contains(n) ? tuned[n].get<int>() : GeneratorParams::hand_value(i))
        << n;
  }
}

TEST(GeneratorParams, JsonRoundTrip) {
  GeneratorParams p = GeneratorParams::hand();
  std::mt19937 rng(7);
  for (int i = 0; i < GeneratorParams::count(); ++i) {
    p.set(i, std::uniform_int_distribution<int>(GeneratorParams::min(i), GeneratorParams::max(i))(rng));
  }
  const nlohmann::json j = p.to_json();
  EXPECT_EQ(int(j.size()), GeneratorParams::count());
  EXPECT_EQ(j["regs.bishop_pair"].get<int>(), p.get(gp::REG_BISHOP_PAIR));
  EXPECT_EQ(GeneratorParams::from_json(j), p);
  EXPECT_EQ(GeneratorParams::from_json(nlohmann::json::parse(j.dump())), p);
  // Through a file too.
  EXPECT_EQ(GeneratorParams::from_file(write_temp("params_round_trip.json", j.dump(1))), p);
  // Names left out keep the defaults.
  const GeneratorParams one = GeneratorParams::from_json({{"regs.bishop_pair", 50}});
  for (int i = 0; i < GeneratorParams::count(); ++i) {
    EXPECT_EQ(one.get(i), i == gp::REG_BISHOP_PAIR ? 50 : GeneratorParams::defaults().get(i));
  }
  EXPECT_EQ(GeneratorParams::from_json(nlohmann::json::object()), GeneratorParams::defaults());
}

TEST(GeneratorParams, ErrorsNameTheParameterAndTheRange) {
  expect_invalid([] { GeneratorParams::from_json({{"regs.bishop_pear", 30}}); }, {"regs.bishop_pear", "unknown"});
  expect_invalid([] { GeneratorParams::from_json({{"regs.bishop_pair", 128}}); }, {"regs.bishop_pair", "[0, 127]"});
  expect_invalid([] { GeneratorParams::from_json({{"regs.bishop_pair", -1}}); }, {"regs.bishop_pair", "[0, 127]"});
  expect_invalid(
      [] {
        GeneratorParams::from_json({{"phase.pawn_scale.divisor", 0}});
      },
      {"phase.pawn_scale.divisor", "[1, 16]"});
  expect_invalid([] { GeneratorParams::from_json({{"regs.bishop_pair", 4294967326ull}}); }, {"regs.bishop_pair"});
  expect_invalid(
      [] {
        GeneratorParams::from_json({{"regs.bishop_pair", 30.5}});
      },
      {"regs.bishop_pair", "not an integer", "[0, 127]"});
  expect_invalid(
      [] {
        GeneratorParams::from_json({{"regs.bishop_pair", "30"}});
      },
      {"regs.bishop_pair", "not an integer"});
  expect_invalid([] { GeneratorParams::from_json({{"regs.bishop_pair", true}}); }, {"regs.bishop_pair"});
  expect_invalid([] { GeneratorParams::from_json(nlohmann::json::array({1, 2})); }, {"object"});
  expect_invalid([] { (void)GeneratorParams::hand()["placement.knight.valu"]; }, {"placement.knight.valu"});
  GeneratorParams p = GeneratorParams::hand();
  expect_invalid([&p] { p.set(gp::PASSED_STATIC + 4, 2001); }, {"passed.static[4]", "[-2000, 2000]"});
  EXPECT_EQ(p, GeneratorParams::hand());  // a refused value changes nothing
  // Files: unreadable, not JSON, bad values (the file named).
  expect_invalid([] { GeneratorParams::from_file("/nonexistent/params.json"); }, {"/nonexistent/params.json", "read"});
  const std::string bad = write_temp("params_bad.json", "{\"regs.xray\": 8,");
  expect_invalid([&bad] { GeneratorParams::from_file(bad); }, {bad, "not JSON"});
  const std::string range = write_temp("params_range.json", "{\"regs.xray\": 64}");
  expect_invalid([&range] { GeneratorParams::from_file(range); }, {range, "regs.xray", "[0, 63]"});
}

TEST(GeneratorParams, SpecsOfTheCommandLineAndUci) {
  EXPECT_EQ(GeneratorParams::from_spec(""), nullptr);
  EXPECT_EQ(GeneratorParams::from_spec("default"), nullptr);
  ASSERT_NE(GeneratorParams::from_spec("hand"), nullptr);
  EXPECT_EQ(*GeneratorParams::from_spec("hand"), GeneratorParams::hand());
  const auto p = GeneratorParams::from_spec(write_temp("params_spec.json", "{\"regs.xray\": 9}"));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ((*p)["regs.xray"], 9);
  EXPECT_THROW(GeneratorParams::from_spec("/nonexistent/params.json"), std::invalid_argument);
}

// The hash of every weight write (weights_generation) the generator made for these roots before it
// had parameters (computed from the sources of commit 0c13252): the hand values give the same
// weights bit for bit. Roots 4 and 6 share stage 24 and the development step: the same weights.
TEST(GeneratorParams, HandValuesGenerateTheWeightsOfTheHandSetGenerator) {
  const struct {
    const char* fen;
    std::uint64_t hash;
  } roots[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x918920d41d22e0d7ull},
      {"r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 4 25", 0x8ce1379299ef90ffull},
      {"8/5k2/8/3R4/8/2r5/5PP1/6K1 w - - 0 52", 0x181b3a5882d4a3b2ull},
      {"r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 2 15", 0xa161c3ec0a32e2feull},
      {"4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1", 0x4399ba0d2b36252bull},
      {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 18", 0xa161c3ec0a32e2feull},
  };
  for (const auto& r : roots) {
    const Position root = Position::from_fen(r.fen);
    const EvalWeights w = generate_weights(root, GeneratorParams::hand());
    EXPECT_EQ(weights_generation(weight_writes(w)), r.hash) << r.fen;
    // The root matters through its context only.
    EXPECT_EQ(weights_generation(weight_writes(generate_weights(root_context(root), GeneratorParams::hand()))), r.hash);
  }
}

std::uint32_t mask(int bits) { return bits >= 32 ? ~0u : (1u << bits) - 1; }

// Every table entry and register within its width (EVAL_TABLE_BITS, EVAL_REG_BITS), the phase
// RAM's fields and the pawn race registers in theirs.
void expect_fits(const EvalWeights& w, const std::string& what) {
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    for (int e = 0; e < EVAL_TABLE_ENTRIES[t]; ++e) {
      ASSERT_EQ(w.slow.tables[t][e] & ~mask(EVAL_TABLE_BITS[t]), 0u)
          << what << ": table " << EVAL_TABLE_GROUP[t] << " (" << t << ") entry " << e;
    }
  }
  for (int r = 0; r < EVAL_REGS_COUNT; ++r) {
    ASSERT_EQ(w.slow.regs[r] & ~mask(EVAL_REG_BITS[r]), 0u) << what << ": register " << EVAL_REG_GROUP[r];
  }
  ASSERT_LT(w.runner_bonus, 0x8000) << what;
  ASSERT_LT(w.sep_bonus, 0x8000) << what;
}

int sext(std::uint32_t v, int bits) { return int(v << (32 - bits)) >> (32 - bits); }

TEST(GeneratorParams, EveryParametersExtremesFitEveryFieldsWidth) {
  const RootContext roots[] = {{24, 1}, {12, 15}, {0, 60}};
  for (int i = 0; i < GeneratorParams::count(); ++i) {
    for (const int value : {GeneratorParams::min(i), GeneratorParams::max(i)}) {
      GeneratorParams p = GeneratorParams::hand();
      p.set(i, value);
      for (const RootContext& ctx : roots) {
        expect_fits(generate_weights(ctx, p), GeneratorParams::name(i) + " = " + std::to_string(value));
      }
    }
  }
  // All at their minima, all at their maxima, and random sets: combinations saturate too.
  GeneratorParams lo = GeneratorParams::hand(), hi = GeneratorParams::hand();
  for (int i = 0; i < GeneratorParams::count(); ++i)
    lo.set(i, GeneratorParams::min(i)), hi.set(i, GeneratorParams::max(i));
  for (const RootContext& ctx : roots) {
    expect_fits(generate_weights(ctx, lo), "every minimum");
    expect_fits(generate_weights(ctx, hi), "every maximum");
  }
  std::mt19937 rng(23);
  for (int k = 0; k < 20; ++k) {
    GeneratorParams p = GeneratorParams::hand();
    for (int i = 0; i < GeneratorParams::count(); ++i) {
      p.set(i, std::uniform_int_distribution<int>(GeneratorParams::min(i), GeneratorParams::max(i))(rng));
    }
    expect_fits(generate_weights(roots[k % 3], p), "random set " + std::to_string(k));
  }
}

TEST(GeneratorParams, ValuesBeyondAFieldSaturateInsteadOfWrapping) {
  GeneratorParams p = GeneratorParams::hand();
  p.set(gp::ROOK_FILES_OPEN, 31);  // doubled: 46, and +1 in the centre: 6-bit signed field, 31 at most
  const EvalWeights w = generate_weights(RootContext{24, 1}, p);
  // unopposed 1, blockage 0, semi 1, centrality 3, two rooks (rc 2)
  const int idx = (((1 * 4 + 0) * 2 + 1) * 4 + 3) * 3 + 2;
  EXPECT_EQ(sext(w.slow.tables[ET_ROOK_FILES][idx], 6), 31);
  // Development: 3 minors x 80 + 120 - (-120) = 480 in a 9-bit signed field: 255; the mirrored
  // index -480: -255 (white's-view tables saturate symmetrically, so colour symmetry holds).
  p = GeneratorParams::hand();
  p.set(gp::DEVELOPMENT_MINOR, 80);
  p.set(gp::DEVELOPMENT_KING + 0, 120);
  p.set(gp::DEVELOPMENT_KING + 3, -120);
  const EvalWeights dev = generate_weights(RootContext{24, 1}, p);
  EXPECT_EQ(sext(dev.slow.tables[ET_DEVELOPMENT][0 << 6 | 3 << 4 | 0 << 2 | 3], 9), 255);
  EXPECT_EQ(sext(dev.slow.tables[ET_DEVELOPMENT][3 << 6 | 0 << 4 | 3 << 2 | 0], 9), -255);
  // Multi pawns at their most: 255, not 255 + something wrapped.
  p = GeneratorParams::hand();
  p.set(gp::MULTI_PAWNS_ISOLATED, 255);
  EXPECT_EQ(generate_weights(RootContext{24, 1}, p).slow.tables[ET_MULTI_PAWNS][0], 255u);
}

TEST(GeneratorParams, OneParameterReachesItsEntriesForBothColours) {
  const RootContext ctx{24, 1};
  const EvalWeights base = generate_weights(ctx, GeneratorParams::hand());
  GeneratorParams p = GeneratorParams::hand();
  p.set(gp::REG_BISHOP_PAIR, 77);
  const EvalWeights w = generate_weights(ctx, p);
  EXPECT_EQ(w.slow.regs[ER_BISHOP_PAIR], 77u);
  EXPECT_EQ(w.slow.regs[ER_BISHOP_PAIR + 1], 77u);
  for (int r = 0; r < EVAL_REGS_COUNT; ++r) {
    if (r != ER_BISHOP_PAIR && r != ER_BISHOP_PAIR + 1) {
      EXPECT_EQ(w.slow.regs[r], base.slow.regs[r]) << r;
    }
  }
  EXPECT_EQ(w.slow.tables, base.slow.tables);
  EXPECT_EQ(w.placement, base.placement);
  EXPECT_EQ(w.phase, base.phase);

  // placement.knight.value moves every knight entry by the difference, nothing else.
  p = GeneratorParams::hand();
  p.set(gp::KNIGHT_VALUE, 300);
  const EvalWeights k = generate_weights(ctx, p);
  for (int i = 0; i < 512; ++i) EXPECT_EQ(k.placement[i], base.placement[i] - (i >> 6 == CHIP_KNIGHT ? 20 : 0)) << i;

  // passed.static[4] changes the static half of both colours' PASSED entries of rank class 4 only.
  p = GeneratorParams::hand();
  p.set(gp::PASSED_STATIC + 4, 200);
  const EvalWeights q = generate_weights(ctx, p);
  for (int c = 0; c < 2; ++c) {
    for (int i = 0; i < 320; ++i) {
      const std::uint32_t a = base.slow.tables[ET_PASSED + c][i], b = q.slow.tables[ET_PASSED + c][i];
      EXPECT_EQ(a >> 16, b >> 16);
      if (i / 64 == 4)
        EXPECT_EQ(sext(b, 16), 2 * sext(a, 16)) << i;  // 100 x pct / 100 = pct, 200 x pct / 100 = 2 pct
      else
        EXPECT_EQ(a, b) << i;
    }
    EXPECT_EQ(sext(q.slow.tables[ET_PASSED + c][4 * 64 + 16], 16), 200);  // centrality 1, no feature: 100 %
  }

  // The ending king and the development steps act through the root's context.
  p = GeneratorParams::hand();
  p.set(gp::KING_ENDING_BASE, 0);
  EXPECT_EQ(generate_weights(RootContext{24, 1}, p).placement, base.placement);  // stage 24: middlegame only
  EXPECT_NE(generate_weights(RootContext{0, 1}, p).placement,
            generate_weights(RootContext{0, 1}, GeneratorParams::hand()).placement);
  p = GeneratorParams::hand();
  p.set(gp::DEVELOPMENT_PERCENT + 2, 0);
  EXPECT_EQ(generate_weights(RootContext{24, 15}, p).slow.tables,
            generate_weights(RootContext{24, 15}, GeneratorParams::hand()).slow.tables);
  const EvalWeights late = generate_weights(RootContext{24, 40}, p);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(late.slow.tables[ET_DEVELOPMENT][i], 0u);
}

// One parameter feeds both colours: every generated set is colour-symmetric (colour_symmetric
// leaves it as it is), for the hand values and random ones.
TEST(GeneratorParams, GeneratedWeightsStayColourSymmetric) {
  std::mt19937 rng(5);
  for (int k = 0; k < 10; ++k) {
    GeneratorParams p = GeneratorParams::hand();
    if (k > 0) {
      for (int i = 0; i < GeneratorParams::count(); ++i) {
        p.set(i, std::uniform_int_distribution<int>(GeneratorParams::min(i), GeneratorParams::max(i))(rng));
      }
    }
    SlowEvalWeights w = generate_weights(RootContext{12, 12}, p).slow;
    SlowEvalWeights s = colour_symmetric(w);
    // Control level 0 never occurs (levels are 2-14); colour_symmetric maps it onto itself.
    for (int r = 0; r < 8; ++r) {
      for (int f = 0; f < 8; ++f) w.tables[ET_MOBILITY + r][f * 16] = s.tables[ET_MOBILITY + r][f * 16] = 0;
    }
    EXPECT_EQ(s.regs, w.regs) << k;
    for (int t = 0; t < EVAL_TABLES_COUNT; ++t) EXPECT_EQ(s.tables[t], w.tables[t]) << k << ": " << EVAL_TABLE_GROUP[t];
  }
}

}  // namespace
}  // namespace db::chip
