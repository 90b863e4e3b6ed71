// deepblue tune fit: fits the evaluation generator's parameters to labelled positions (the file
// `deepblue tune data` writes) by a Texel-style logistic fit (tune/texel.h), reports the held-out
// error before and after, re-checks the lazy evaluation's margin under the new weights, and
// writes the parameters as JSON (host/chip/tuned_params.json holds the built-in defaults:
// docs/evaluation.md, "Tuning").
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/generator_params.h"
#include "cli_common.h"
#include "commands.h"
#include "tune/texel.h"

namespace db::cli {

namespace {

struct TuneFitOptions {
  std::string data;
  std::string start = "default";  // default, hand or a parameters file
  std::string out;
  std::string report;
  int test_every = 10;
  std::size_t limit = 0;
  tune::FitOptions fit;
  std::string frozen;
  bool json = false;
};

chip::GeneratorParams start_params(const std::string& start) {
  if (start == "default") return chip::GeneratorParams::defaults();
  if (start == "hand") return chip::GeneratorParams::hand();
  return chip::GeneratorParams::from_file(start);
}

// The lazy evaluation decides a leaf from the fast value alone when the slow part cannot move it
// past the window by more than the margin: how often the slow part is that large.
nlohmann::json lazy_check(const std::vector<tune::Sample>& samples, const chip::GeneratorParams& params) {
  std::vector<int> slow;
  int margin = 0;
  // The weights depend on a sample only through its root context: the samples in context order,
  // the weights generated once per context rather than once per sample.
  std::vector<const tune::Sample*> order;
  for (const tune::Sample& s : samples) order.push_back(&s);
  const auto context = [](const tune::Sample* s) { return std::make_pair(int(s->stage), int(s->fullmove)); };
  std::sort(order.begin(), order.end(),
            [&](const tune::Sample* a, const tune::Sample* b) { return context(a) < context(b); });
  chip::EvalWeights w;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const tune::Sample& s = *order[i];
    if (i == 0 || context(order[i - 1]) != context(order[i]))
      w = chip::generate_weights(chip::RootContext{s.stage, s.fullmove}, params);
    margin = int(w.slow.regs[chip::ER_EVAL_CONTROL + 1] & 0xFFFF);
    slow.push_back(std::abs(chip::ChipEvaluator::replay(s.trace, w).slow));
  }
  if (slow.empty()) return nlohmann::json::object();
  std::sort(slow.begin(), slow.end());
  const auto beyond = std::count_if(slow.begin(), slow.end(), [margin](int v) { return v > margin; });
  return {{"margin", margin},
          {"beyond_margin", double(beyond) / double(slow.size())},
          {"slow_p50", slow[slow.size() / 2]},
          {"slow_p90", slow[slow.size() * 9 / 10]},
          {"slow_p99", slow[slow.size() * 99 / 100]}};
}

void run_fit(const TuneFitOptions& opt) {
  tune::FitOptions fit = opt.fit;
  for (std::size_t begin = 0; begin < opt.frozen.size();) {
    const std::size_t end = std::min(opt.frozen.find(',', begin), opt.frozen.size());
    if (end > begin) fit.frozen.push_back(opt.frozen.substr(begin, end - begin));
    begin = end + 1;
  }
  const chip::GeneratorParams start = start_params(opt.start);
  const bool tty = stderr_is_terminal();
  if (tty) std::cerr << "reading " << opt.data << " ...\n";
  const tune::Dataset data = tune::load_dataset(opt.data, opt.test_every, opt.limit);
  if (data.train.empty()) throw std::invalid_argument("no training positions in '" + opt.data + "'");
  int frozen_count = 0;
  for (int i = 0; i < chip::GeneratorParams::count(); ++i)
    frozen_count += tune::is_frozen(chip::GeneratorParams::name(i), fit.frozen);
  if (tty) {
    std::cerr << fmt::format("{} positions from {} games: {} training, {} held out; {} parameters, {} frozen\n",
                             data.lines, data.games, data.train.size(), data.test.size(),
                             chip::GeneratorParams::count(), frozen_count);
    fit.on_pass = [](int pass, double loss, long evaluations) {
      std::cerr << fmt::format("pass {}: training loss {:.6f} after {} trials\n", pass, loss, evaluations);
    };
  }
  tune::TexelFit texel(data, fit);
  const tune::FitResult r = texel.fit(start);
  nlohmann::json changes = nlohmann::json::array();
  for (const tune::ParamChange& c : r.changes)
    changes.push_back({{"name", c.name}, {"before", c.before}, {"after", c.after}});
  nlohmann::json report = {{"data", opt.data},
                           {"positions", data.lines},
                           {"games", data.games},
                           {"train", data.train.size()},
                           {"test", data.test.size()},
                           {"lambda", fit.lambda},
                           {"k", r.k},
                           {"train_before", r.train_before},
                           {"train_after", r.train_after},
                           {"test_before", r.test_before},
                           {"test_after", r.test_after},
                           {"passes", r.passes},
                           {"trials", r.evaluations},
                           {"seconds", r.seconds},
                           {"parameters", chip::GeneratorParams::count()},
                           {"frozen", frozen_count},
                           {"changed", r.changes.size()},
                           {"lazy_before", lazy_check(data.test, start)},
                           {"lazy_after", lazy_check(data.test, r.params)},
                           {"changes", changes}};
  if (!opt.out.empty()) {
    std::ofstream out(opt.out);
    if (!out) throw std::invalid_argument("cannot write parameters file '" + opt.out + "'");
    out << r.params.to_json().dump(2) << "\n";
  }
  if (!opt.report.empty()) {
    std::ofstream out(opt.report);
    if (!out) throw std::invalid_argument("cannot write report file '" + opt.report + "'");
    out << report.dump(2) << "\n";
  }
  if (opt.json) {
    print_json(report);
    return;
  }
  std::cout << fmt::format("K {:.3f}; training loss {:.6f} -> {:.6f}; held-out loss {:.6f} -> {:.6f}\n", r.k,
                           r.train_before, r.train_after, r.test_before, r.test_after);
  std::cout << fmt::format("{} passes, {} trials, {:.0f} s; {} of {} parameters changed\n", r.passes, r.evaluations,
                           r.seconds, r.changes.size(), chip::GeneratorParams::count());
  for (const tune::ParamChange& c : r.changes) std::cout << fmt::format("  {} {} -> {}\n", c.name, c.before, c.after);
}

}  // namespace

void add_tune_fit_command(CLI::App* tune) {
  auto opt = std::make_shared<TuneFitOptions>();
  CLI::App* cmd = tune->add_subcommand(
      "fit", "Fit the evaluation generator's parameters to labelled positions (Texel-style logistic fit)");
  cmd->add_option("--data", opt->data, "Positions file written by `deepblue tune data`")->required();
  cmd->add_option("--start", opt->start, "Parameters to start from: default, hand (the untuned values) or a JSON file")
      ->capture_default_str();
  cmd->add_option("--out", opt->out, "Write the fitted parameters here (JSON)");
  cmd->add_option("--report", opt->report, "Write the fit's report here (JSON)");
  cmd->add_option("--test-every", opt->test_every, "Hold out the games whose id is a multiple of this (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--limit", opt->limit, "Use the first N positions only (0: all)");
  cmd->add_option("--lambda", opt->fit.lambda,
                  "Label = (1 - lambda) x Stockfish's expectation + lambda x the game's result")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--passes", opt->fit.max_passes, "At most this many passes over the parameters")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--time", opt->fit.max_seconds, "Stop after this many seconds (0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--threads", opt->fit.threads, "Threads evaluating the positions")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--freeze", opt->frozen,
                  "Comma-separated parameter names (or prefixes ending in '.') to leave as they are");
  cmd->add_flag("--json", opt->json, "Print the report as one JSON object");
  cmd->callback([opt] { run_fit(*opt); });
}

}  // namespace db::cli
