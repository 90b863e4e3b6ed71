// A Texel-style logistic fit of the evaluation generator's parameters (issue 23, AIJ 7.3 in
// spirit): the chip's evaluation of each labelled position, as a win expectation
// 1 / (1 + 10^(-K e / 400)), against the label's, by mean squared error. The parameters are the
// generator's (chip/generator_params.h), not table entries: each trial regenerates the weights of
// every root context in the data and replays every position's feature trace under them, which is
// the chip's value to the bit. The search is a local search on the integers (each parameter
// stepped up and down, the step halved when neither helps), so the result is quantised to what
// the generator can express, and the generator saturates every field to its register's width.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "chip/generator_params.h"
#include "tune/dataset.h"

namespace db::tune {

struct FitOptions {
  double lambda = 0.0;     // label: (1 - lambda) * Stockfish's expectation + lambda * the game's result
  int max_passes = 40;     // passes over every parameter
  double max_seconds = 0;  // stop after this long (0: no limit)
  int threads = 1;
  std::vector<std::string> frozen;  // parameter names (or prefixes ending in '.') left as they are
  // Called after every pass: pass, training loss, evaluations so far.
  std::function<void(int, double, long)> on_pass;
};

struct ParamChange {
  std::string name;
  int before = 0, after = 0;
};

struct FitResult {
  chip::GeneratorParams params = chip::GeneratorParams::hand();
  double k = 1.0;
  double train_before = 0, train_after = 0, test_before = 0, test_after = 0;
  int passes = 0;
  long evaluations = 0;
  double seconds = 0;
  std::vector<ParamChange> changes;
};

class TexelFit {
 public:
  TexelFit(const Dataset& data, FitOptions options);
  // Mean squared error of the win expectation over a sample set under params, with scale k.
  double loss(const chip::GeneratorParams& params, const std::vector<Sample>& samples, double k) const;
  // The k that minimises the training loss under params (golden-section search).
  double fit_k(const chip::GeneratorParams& params) const;
  FitResult fit(const chip::GeneratorParams& start);

 private:
  bool frozen(int index) const;
  const Dataset& data_;
  FitOptions options_;
};

// Whether a parameter is frozen: its name is in the list, or starts with an entry ending in '.'.
bool is_frozen(const std::string& name, const std::vector<std::string>& frozen);

// The chip's evaluation (side to move's view) of a sample under params: the weights of its own
// root context, its trace replayed.
int evaluate(const Sample& s, const chip::GeneratorParams& params);

}  // namespace db::tune
