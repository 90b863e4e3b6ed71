// deepblue uci: speak UCI on standard input and output.
#include <filesystem>
#include <iostream>

#include "chip_options.h"
#include "cluster_options.h"
#include "commands.h"
#include "search/chip_evaluation.h"
#include "uci/uci.h"

namespace db::cli {

namespace {

struct UciOptions {
  // Only with --cluster: every rank builds its node from the command line (the GUI talks to rank 0
  // only, after the ranks have started).
  ClusterOptions cluster;
  LeafOptions leaf;
};

void run_uci(const UciOptions& opt) {
  std::ios::sync_with_stdio(false);
  // The generator's parameters of the chips and of the chip evaluation: --eval-params, then the
  // option EvalParams.
  auto params = std::make_shared<std::shared_ptr<const chip::GeneratorParams>>(opt.leaf.generator_params);
  uci::UciEngine engine(
      std::cin, std::cout,
      [params](const std::string& backend, int chips, int depth) {
        return std::unique_ptr<search::LeafSearch>(make_default_leaf_search(backend, chips, depth, *params));
      },
      search::evaluator_factory(search::EvaluationKind::Chip, *params));
  engine.set_eval_params_handler([params](const std::string& value) {
    *params = chip::GeneratorParams::from_spec(value);
    return search::evaluator_factory(search::EvaluationKind::Chip, *params);
  });
  // The endgame databases of deepblue egtb build's default directory, when it has been made.
  if (std::filesystem::is_directory(DB_DEFAULT_EGTB)) engine.set_egtb_path(DB_DEFAULT_EGTB);
  std::unique_ptr<ClusterRun> cluster;
  if (opt.cluster.enabled()) {
    search::SearchOptions so;
    apply_leaf_options(opt.leaf, so);
    cluster = ClusterRun::start(opt.cluster, opt.leaf, so, engine.table());
    if (!cluster) return;  // a worker rank: its life (until the master's quit) is over
    engine.set_search_runner([&cluster](search::Searcher& master, const Position& root, const search::Limits& limits,
                                        const search::Searcher::IterationCallback& on_iteration) {
      return cluster->search(master, root, limits, on_iteration);
    });
  }
  engine.loop();
}

}  // namespace

void add_uci_command(CLI::App& app) {
  auto opt = std::make_shared<UciOptions>();
  CLI::App* cmd = app.add_subcommand("uci", "Run as a UCI engine on standard input/output");
  add_cluster_options(cmd, opt->cluster);
  add_leaf_options(cmd, opt->leaf, 4);
  cmd->callback([opt] { run_uci(*opt); });
}

}  // namespace db::cli
