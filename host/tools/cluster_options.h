// The cluster's command-line options (docs/cluster.md) and the run they start: under mpirun with
// --cluster, rank 0 is the master and every other rank a worker that answers jobs until the master
// is done; with --sim-nodes N, the master and N - 1 workers in this process over a simulated switch.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "chip_options.h"
#include "cluster/cluster_leaf.h"
#include "cluster/mpi_link.h"
#include "search/search.h"

namespace db::cli {

struct ClusterOptions {
  bool mpi = false;     // --cluster
  int sim_nodes = 0;    // --sim-nodes
  int sim_threads = 1;  // --sim-threads
  int worker_plies = 2;
  // The master's plies above the jobs in each iteration (ClusterConfig::master_plies). 4: at the
  // chips' depth 4 every iteration up to 8 hands out jobs of one chip search (3 gave the same up to
  // depth 7); at depth 8 on 4 nodes the quiet set was 13 % faster than with 3, the tactical set
  // 3.5 %, the AIJ pair 9 % (and 9 % at depth 9) (docs/benchmarks.md, "The cluster: four master plies").
  int master_plies = 4;
  bool affinity = true;     // jobs to their root move's home node (ClusterConfig::affinity)
  int job_table = 64;       // table entries sent down with each job (ClusterConfig::job_table)
  int pv_job_depth = -1;    // -1: the job depth
  int own_node_until = -1;  // -1: 0 with master plies, else the chip depth
  double latency_us = cluster::SwitchModel{}.latency_us;                      // the SP2 switch
  double bandwidth_mb_s = cluster::SwitchModel{}.bandwidth_mb_s;              // through MPI
  double own_node_latency_us = cluster::ClusterConfig{}.own_node.latency_us;  // on the master's host
  int deck = 1;
  int node_jobs = 0;                // jobs a node holds at once (ClusterConfig::jobs_per_node); 0: workers + deck
  bool splits_before_jobs = false;  // SearchOptions::splits_before_jobs on every node
  double worker_timeout_s = 60;
  std::uint64_t worker_node_limit = 0;
  std::size_t worker_hash_mib = 16;
  int master_workers = 0;  // the master's software workers; 0: one per job slot (ClusterLeafSearch::chips)
  cluster::WorkerFaults faults;
  bool enabled() const { return mpi || sim_nodes > 0; }
};

void add_cluster_options(CLI::App* cmd, ClusterOptions& opt);

// A cluster's run for one search command. start() returns nullptr on a worker rank, after its
// life (the command then has nothing to print); on the master, the run whose leaf() the search uses.
class ClusterRun {
 public:
  static std::unique_ptr<ClusterRun> start(const ClusterOptions& opt, const LeafOptions& leaf,
                                           const search::SearchOptions& search, search::TranspositionTable& table);
  ~ClusterRun();
  cluster::ClusterLeafSearch* leaf();
  // The master's own node's chips (worker 0's), for the iterations it searches alone, and up to
  // which depth it does.
  search::LeafSearch& own_chips();
  int own_until() const;
  nlohmann::json stats_json() const;
  // One search by the master (its software workers: --master-workers) on this cluster, the early
  // iterations on its own node (cluster/cluster_search.h).
  search::SearchResult search(search::Searcher& master, const Position& root, const search::Limits& limits,
                              const search::Searcher::IterationCallback& on_iteration = {});
  search::LeafStats stats() const;  // the last search's figures so far, both phases
  // The search is over: what is still out is cancelled and the worker ranks told to quit.
  void finish();

 private:
  ClusterRun() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace db::cli
