#include "tune/texel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>
#include <utility>

#include "chip/eval_generator.h"

namespace db::tune {

namespace {

double expectation(double centipawns) { return 1.0 / (1.0 + std::pow(10.0, -centipawns / 400.0)); }

// The root contexts of a sample set: the generator's weights depend on the root only through its
// game stage and its move number's development bracket, so the samples share a few dozen weight
// sets, made once per trial.
struct Contexts {
  std::vector<chip::RootContext> roots;
  std::vector<int> of_sample;
};

// The generator scales development by the root's move number in brackets (development.until[k]):
// a move number that stands for every move of its bracket. The brackets' bounds are never fitted
// (TexelFit holds them), so the samples' contexts stay fixed during a fit.
int development_bracket_move(int fullmove, const chip::GeneratorParams& params) {
  const int first = params.get(chip::gp::DEVELOPMENT_UNTIL), second = params.get(chip::gp::DEVELOPMENT_UNTIL + 1);
  return fullmove <= first ? 1 : fullmove <= second ? first + 1 : std::max(first, second) + 1;
}

Contexts contexts_of(const std::vector<Sample>& samples, const chip::GeneratorParams& params) {
  Contexts c;
  std::map<std::pair<int, int>, int> index;
  for (const Sample& s : samples) {
    const chip::RootContext root{s.stage, development_bracket_move(s.fullmove, params)};
    const auto [it, added] = index.emplace(std::make_pair(root.stage, root.fullmove), int(c.roots.size()));
    if (added) c.roots.push_back(root);
    c.of_sample.push_back(it->second);
  }
  return c;
}

template <typename F>
void parallel_for(std::size_t n, int threads, F&& body) {  // body(begin, end, thread)
  threads = std::max(1, std::min<int>(threads, int(n / 256) + 1));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back([&, t] { body(n * t / threads, n * (t + 1) / threads, t); });
  body(0, n / threads, 0);
  for (std::thread& th : pool) th.join();
}

double mean_squared_error(const std::vector<Sample>& samples, const std::vector<chip::EvalWeights>& weights,
                          const Contexts& ctx, double k, double lambda, int threads) {
  std::vector<double> sums(std::size_t(std::max(1, threads)), 0.0);
  parallel_for(samples.size(), threads, [&](std::size_t begin, std::size_t end, int t) {
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const Sample& s = samples[i];
      const int e = chip::ChipEvaluator::replay(s.trace, weights[std::size_t(ctx.of_sample[i])]).total;
      const double target = (1 - lambda) * expectation(s.score) + lambda * s.result;
      const double d = expectation(k * e) - target;
      sum += d * d;
    }
    sums[std::size_t(t)] = sum;
  });
  double total = 0;
  for (double s : sums) total += s;
  return samples.empty() ? 0.0 : total / double(samples.size());
}

std::vector<chip::EvalWeights> weights_for(const Contexts& ctx, const chip::GeneratorParams& params) {
  std::vector<chip::EvalWeights> out;
  out.reserve(ctx.roots.size());
  for (const chip::RootContext& root : ctx.roots) out.push_back(chip::generate_weights(root, params));
  return out;
}

}  // namespace

int evaluate(const Sample& s, const chip::GeneratorParams& params) {
  const chip::RootContext root{s.stage, s.fullmove};
  return chip::ChipEvaluator::replay(s.trace, chip::generate_weights(root, params)).total;
}

TexelFit::TexelFit(const Dataset& data, FitOptions options) : data_(data), options_(std::move(options)) {}

bool is_frozen(const std::string& name, const std::vector<std::string>& frozen) {
  for (const std::string& f : frozen) {
    if (name == f || (!f.empty() && f.back() == '.' && name.compare(0, f.size(), f) == 0)) return true;
  }
  return false;
}

bool TexelFit::frozen(int index) const {
  if (index == chip::gp::DEVELOPMENT_UNTIL || index == chip::gp::DEVELOPMENT_UNTIL + 1) return true;  // the brackets
  return is_frozen(chip::GeneratorParams::name(index), options_.frozen);
}

double TexelFit::loss(const chip::GeneratorParams& params, const std::vector<Sample>& samples, double k) const {
  const Contexts ctx = contexts_of(samples, params);
  return mean_squared_error(samples, weights_for(ctx, params), ctx, k, options_.lambda, options_.threads);
}

double TexelFit::fit_k(const chip::GeneratorParams& params) const {
  const Contexts ctx = contexts_of(data_.train, params);
  const std::vector<chip::EvalWeights> w = weights_for(ctx, params);
  auto f = [&](double k) { return mean_squared_error(data_.train, w, ctx, k, options_.lambda, options_.threads); };
  double lo = 0.2, hi = 3.0;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo), fa = f(a), fb = f(b);
  while (hi - lo > 1e-3) {
    if (fa < fb) {
      hi = b, b = a, fb = fa, a = hi - g * (hi - lo), fa = f(a);
    } else {
      lo = a, a = b, fa = fb, b = lo + g * (hi - lo), fb = f(b);
    }
  }
  return (lo + hi) / 2;
}

FitResult TexelFit::fit(const chip::GeneratorParams& start) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  FitResult r;
  r.params = start;
  // K is fitted once, to the starting weights, and then held (Texel's method): the parameters
  // then move to fit the labels in the evaluation's own units (a pawn about 100).
  r.k = fit_k(start);
  const Contexts ctx = contexts_of(data_.train, start);
  auto train_loss = [&](const chip::GeneratorParams& p) {
    ++r.evaluations;
    return mean_squared_error(data_.train, weights_for(ctx, p), ctx, r.k, options_.lambda, options_.threads);
  };
  r.train_before = train_loss(start);
  r.test_before = loss(start, data_.test, r.k);
  double best = r.train_before;
  const int n = chip::GeneratorParams::count();
  std::vector<int> step(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int range = chip::GeneratorParams::max(i) - chip::GeneratorParams::min(i);
    step[std::size_t(i)] = std::max(1, range / 64);
  }
  bool out_of_time = false;
  for (int pass = 1; pass <= options_.max_passes && !out_of_time; ++pass) {
    bool improved_any = false, steps_left = false;
    for (int i = 0; i < n; ++i) {
      if (frozen(i)) continue;
      if (options_.max_seconds > 0 && elapsed() > options_.max_seconds) {
        out_of_time = true;
        break;
      }
      bool improved = false;
      for (int dir : {+1, -1}) {
        const int now = r.params.get(i);
        const int next =
            std::clamp(now + dir * step[std::size_t(i)], chip::GeneratorParams::min(i), chip::GeneratorParams::max(i));
        if (next == now) continue;
        chip::GeneratorParams trial = r.params;
        trial.set(i, next);
        const double l = train_loss(trial);
        if (l < best - 1e-12) {
          best = l;
          r.params = trial;
          improved = true;
          break;
        }
      }
      if (improved)
        improved_any = true;
      else if (step[std::size_t(i)] > 1)
        step[std::size_t(i)] /= 2;
      steps_left = steps_left || step[std::size_t(i)] > 1;
    }
    r.passes = pass;
    if (options_.on_pass) options_.on_pass(pass, best, r.evaluations);
    if (!improved_any && !steps_left) break;
  }
  r.train_after = best;
  r.test_after = loss(r.params, data_.test, r.k);
  for (int i = 0; i < n; ++i) {
    if (r.params.get(i) != start.get(i))
      r.changes.push_back({chip::GeneratorParams::name(i), start.get(i), r.params.get(i)});
  }
  r.seconds = elapsed();
  return r;
}

}  // namespace db::tune
