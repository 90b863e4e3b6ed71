#include "cluster_options.h"

#include <cstdio>
#include <iostream>
#include <limits>

#include <fmt/format.h>

#include "cluster/cluster_search.h"
#include "cluster/mpi_link.h"

namespace db::cli {

void add_cluster_options(CLI::App* cmd, ClusterOptions& opt) {
  cmd->add_flag("--cluster", opt.mpi,
                "Search on a cluster of nodes under mpirun: rank 0 the master, the others workers (docs/cluster.md)");
  CLI::Option* sim_nodes =
      cmd->add_option("--sim-nodes", opt.sim_nodes,
                      "Simulate a cluster of N nodes in this process (the master's and N - 1 workers), no MPI")
          ->check(CLI::Range(1, 64));
  cmd->add_option("--sim-threads", opt.sim_threads,
                  "OS threads running the simulated cluster's worker nodes beside the master, as MPI ranks would "
                  "(the same figures, less wall time; 1: every node on the master's thread)")
      ->check(CLI::Range(1, 256))
      ->needs(sim_nodes)
      ->capture_default_str();
  cmd->add_option("--worker-plies", opt.worker_plies,
                  "Software plies a worker searches above its chips (a job is this plus --chip-depth plies)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_option("--master-plies", opt.master_plies,
                  "Plies the master keeps above the jobs in each iteration: jobs of the iteration's depth less this, "
                  "between --chip-depth and the job depth (0: always the job depth)")
      ->check(CLI::Range(0, 60))
      ->capture_default_str();
  cmd->add_flag("--job-affinity,!--no-job-affinity", opt.affinity,
                "Send a job to its root move's home node while it has room (its table holds the subtree), else to "
                "the least busy node (default: on)");
  cmd->add_option("--job-table", opt.job_table,
                  "Table entries (the job's root and its children, from the master's table) sent with each job to a "
                  "worker node (0: none)")
      ->check(CLI::Range(0, int(cluster::kMaxTableEntries)))
      ->capture_default_str();
  cmd->add_option("--pv-job-depth", opt.pv_job_depth,
                  "Plies left at which a node of the principal variation goes to a worker (default: the job depth; "
                  "less: the master searches the PV itself down to it)")
      ->check(CLI::Range(1, 60));
  cmd->add_option("--own-node-until", opt.own_node_until,
                  "Iterations up to this depth on the master's own node only, a run of their own (default: 0 with "
                  "--master-plies, else --chip-depth)")
      ->check(CLI::Range(0, 60));
  cmd->add_option("--switch-latency-us", opt.latency_us, "Simulated switch latency per message (SP2: about 40 us)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_option("--switch-mb-s", opt.bandwidth_mb_s, "Simulated switch bandwidth in MB/s (SP2: about 35)")
      ->check(CLI::Range(0.001, 1e6))
      ->capture_default_str();
  cmd->add_option("--own-node-latency-us", opt.own_node_latency_us,
                  "Simulated latency of a job or answer between the master and its own node's chips, on the same "
                  "host (not over the switch)")
      ->check(CLI::Range(0.05, 1e6))
      ->capture_default_str();
  cmd->add_option("--jobs-on-deck", opt.deck, "Jobs a node holds beyond one per software worker (--workers)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_option("--node-jobs", opt.node_jobs,
                  "Jobs a node holds at once, its software workers splitting them (0: --workers plus --jobs-on-deck)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_flag("--splits-before-jobs", opt.splits_before_jobs,
                "A node's free software worker helps the node's open splits before it starts a job on deck");
  cmd->add_option("--worker-timeout", opt.worker_timeout_s,
                  "Wall seconds a worker's job may take before the worker is given up and its jobs re-assigned")
      ->check(CLI::Range(0.01, 86400.0))
      ->capture_default_str();
  cmd->add_option("--worker-node-limit", opt.worker_node_limit,
                  "Software nodes past which a worker hands its job back to the master to split (0: none)")
      ->capture_default_str();
  cmd->add_option("--worker-hash", opt.worker_hash_mib, "Each node's transposition table in MiB")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  cmd->add_option("--master-workers", opt.master_workers,
                  "The master's software workers sharing out jobs (0: one per job slot of the workers); --workers is "
                  "each node's")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_option("--debug-slow-rank", opt.faults.slow_rank, "Test hook: this worker rank sleeps before each answer");
  cmd->add_option("--debug-slow-ms", opt.faults.slow_ms, "Test hook: how long (ms)")->check(CLI::Range(0, 3600000));
  cmd->add_option("--debug-exit-rank", opt.faults.exit_rank, "Test hook: this worker rank dies on its first job");
}

struct ClusterRun::Impl {
  std::unique_ptr<cluster::MpiSession> session;
  std::unique_ptr<cluster::MasterLink> link;
  cluster::MpiLink* mpi = nullptr;
  cluster::WorkerNode* own = nullptr;  // worker 0, the master's own node
  int node_workers = 1;                // each node's software workers (--workers)
  std::unique_ptr<cluster::ClusterSearch> search;
  std::unique_ptr<cluster::ClusterLeafSearch> leaf;
  ClusterOptions opt;
  int nodes = 1;
};

namespace {

std::unique_ptr<cluster::WorkerNode> make_node(const ClusterOptions& opt, LeafOptions leaf,
                                               const search::SearchOptions& search,
                                               search::TranspositionTable* shared_table = nullptr) {
  if (leaf.threads == 0) leaf.threads = 1;  // ranks share the machine's cores
  cluster::WorkerConfig config;
  config.search = search;
  config.search.splits_before_jobs = opt.splits_before_jobs;
  config.hash_mib = opt.worker_hash_mib;
  config.software_node_limit = opt.worker_node_limit;
  config.shared_table = shared_table;
  return std::make_unique<cluster::WorkerNode>(config, make_leaf_search(leaf));
}

}  // namespace

std::unique_ptr<ClusterRun> ClusterRun::start(const ClusterOptions& opt, const LeafOptions& leaf,
                                              const search::SearchOptions& search, search::TranspositionTable& table) {
  if (opt.mpi && opt.sim_nodes > 0) throw std::invalid_argument("--cluster and --sim-nodes exclude each other");
  if (leaf.chip_depth < 1) throw std::invalid_argument("a cluster's workers need chips: give --chip-depth 1-8");
  if (opt.sim_nodes > 1 && leaf.backend == "mca")
    throw std::invalid_argument("--sim-nodes with --backend mca: this process holds one Micro Channel node");
  std::unique_ptr<ClusterRun> run(new ClusterRun);
  auto& im = *(run->impl_ = std::make_unique<Impl>());
  im.opt = opt;
  im.node_workers = leaf.workers;
  if (opt.mpi) {
    im.session = std::make_unique<cluster::MpiSession>();
    im.nodes = im.session->size();
    if (im.session->rank() != 0) {
      auto node = make_node(opt, leaf, search);
      try {
        cluster::run_worker_rank(*im.session, *node, opt.faults);
      } catch (const std::exception& e) {
        cluster::MpiSession::abort(e.what(), 2);
      }
      return nullptr;
    }
    auto own = make_node(opt, leaf, search, &table);
    im.own = own.get();
    auto link = std::make_unique<cluster::MpiLink>(*im.session, std::move(own));
    im.mpi = link.get();
    im.link = std::move(link);
  } else {
    im.nodes = opt.sim_nodes;
    std::vector<std::unique_ptr<cluster::WorkerNode>> nodes;
    for (int i = 0; i < opt.sim_nodes; ++i) nodes.push_back(make_node(opt, leaf, search, i == 0 ? &table : nullptr));
    im.own = nodes[0].get();
    im.link = std::make_unique<cluster::InProcessLink>(std::move(nodes), opt.sim_threads);
  }
  cluster::ClusterConfig config;
  config.depth = opt.worker_plies + leaf.chip_depth;
  config.pv_depth = std::min(config.depth, opt.pv_job_depth > 0 ? opt.pv_job_depth : config.depth);
  config.min_depth = leaf.chip_depth;
  config.master_plies = opt.master_plies;
  config.affinity = opt.affinity;
  config.job_table = std::size_t(opt.job_table);
  config.chip_node_limit = leaf.chip_node_limit;
  config.jobs_per_node = opt.node_jobs > 0 ? opt.node_jobs : std::max(1, leaf.workers) + opt.deck;
  config.network = {opt.latency_us, opt.bandwidth_mb_s};
  config.own_node = {opt.own_node_latency_us, 0};
  config.host_node_ns = std::uint32_t(leaf.host_node_us * 1000 + 0.5);
  config.worker_timeout_s = opt.worker_timeout_s;
  // Nodes on threads of this process do not hang on their own, and one may wait its turn for a
  // thread longer than any timeout: no deadline (a worker's wall time would change the figures).
  if (!opt.mpi && opt.sim_threads > 1) config.worker_timeout_s = std::numeric_limits<double>::infinity();
  im.leaf = std::make_unique<cluster::ClusterLeafSearch>(*im.link, config, table);
  return run;
}

ClusterRun::~ClusterRun() {
  if (impl_ && impl_->mpi) {
    try {
      finish();
    } catch (const std::exception& e) {
      cluster::MpiSession::abort(e.what(), 2);
    }
  }
}

cluster::ClusterLeafSearch* ClusterRun::leaf() { return impl_->leaf.get(); }

search::LeafSearch& ClusterRun::own_chips() { return *impl_->own->chips(); }

int ClusterRun::own_until() const {
  // With master plies, none: the early iterations' root jobs go to the master's own node (their
  // home) within the one run, which keeps its root move order, history and credit from one
  // iteration to the next (measured: a second run from the next depth on made its first iteration
  // up to 3.6 times one node's). With a fixed job depth, the iterations whose root moves would go
  // whole to the chips (handing the own node more of them leaves the workers' tables cold).
  if (impl_->opt.own_node_until >= 0) return impl_->opt.own_node_until;
  return impl_->opt.master_plies > 0 ? 0 : impl_->leaf->config().min_depth;
}

void ClusterRun::finish() {
  impl_->leaf->finish();
  if (!impl_->mpi) return;
  impl_->mpi->quit_all();
  impl_->mpi = nullptr;
  if (!impl_->leaf->cluster_stats().lost.empty()) {
    // MPI_Finalize waits for every rank, the lost one too: end the run here, the result printed.
    std::cout.flush();
    cluster::MpiSession::abort(fmt::format("{} worker(s) given up during the search; ending the run without them",
                                           impl_->leaf->cluster_stats().lost.size()),
                               0);
  }
}

search::SearchResult ClusterRun::search(search::Searcher& master, const Position& root, const search::Limits& limits,
                                        const search::Searcher::IterationCallback& on_iteration) {
  const int master_workers = impl_->opt.master_workers > 0 ? impl_->opt.master_workers : impl_->leaf->chips();
  impl_->search = std::make_unique<cluster::ClusterSearch>(master, own_chips(), impl_->node_workers, *impl_->leaf,
                                                           master_workers, own_until());
  return impl_->search->run(root, limits, on_iteration);
}

search::LeafStats ClusterRun::stats() const { return impl_->search ? impl_->search->stats() : search::LeafStats{}; }

nlohmann::json ClusterRun::stats_json() const {
  const cluster::ClusterStats& s = impl_->leaf->cluster_stats();
  const search::LeafStats ls = impl_->leaf->stats();
  const auto share = [&](std::uint64_t clocks) {
    return ls.parallel_clocks ? double(clocks) / double(ls.parallel_clocks) : 0.0;
  };
  nlohmann::json in_progress = nlohmann::json::array();
  for (std::uint64_t b : s.busy) in_progress.push_back(share(b));
  // The nodes' own chips (their counters at their last CLOCK): busy chips a node on average, and
  // the hardware searches the jobs used against those asked ahead and wasted or over the node limit.
  nlohmann::json chips_busy = nlohmann::json::array();
  cluster::NodeChips all;
  for (const cluster::NodeChips& c : s.chips) {
    chips_busy.push_back(share(c.busy_clocks));
    all += c;
  }
  const nlohmann::json node_chips{{"chips_busy", chips_busy},
                                  {"searches", all.searches},
                                  {"nodes", all.nodes},
                                  {"wasted_searches", all.wasted_searches},
                                  {"wasted_nodes", all.wasted_nodes},
                                  {"overflows", all.overflows},
                                  {"software_nodes", all.software_nodes}};
  return {{"mode", impl_->opt.mpi ? "mpi" : "simulated"},
          {"nodes", impl_->nodes},
          {"worker_plies", impl_->opt.worker_plies},
          {"job_depth", impl_->leaf->config().depth},
          {"master_plies", impl_->opt.master_plies},
          {"job_affinity", impl_->opt.affinity},
          {"jobs_at_home", s.at_home},
          {"job_table", impl_->opt.job_table},
          {"table_entries_sent_down", s.table_entries_down},
          {"jobs_on_deck", impl_->opt.deck},
          {"jobs_per_node", impl_->leaf->config().jobs_per_node},
          {"splits_before_jobs", impl_->opt.splits_before_jobs},
          {"grants", s.grants},
          {"switch_latency_us", impl_->opt.latency_us},
          {"switch_mb_s", impl_->opt.bandwidth_mb_s},
          {"own_node_latency_us", impl_->opt.own_node_latency_us},
          {"jobs", s.jobs},
          {"jobs_cancelled", s.cancelled},
          {"cancelled_job_nodes", s.cancelled_nodes},
          {"unused_job_nodes", s.unused_nodes},
          {"jobs_reassigned", s.reassigned},
          {"table_entries_passed_up", s.table_entries},
          {"messages", s.messages},
          {"bytes", s.bytes},
          {"workers_lost", s.lost},
          {"jobs_per_worker", s.jobs_per},
          {"jobs_in_progress", in_progress},
          {"node_chips", node_chips},
          {"master_busy", share(ls.host_clocks)}};
}

}  // namespace db::cli
