// Deep Blue's master (AIJ 6.2): it searches the early iterations itself, on its own node's chips,
// and the later ones on the cluster, its workers' nodes taking the jobs. One search, two runs of
// the master's Searcher over the same table: the second starts at the first's depth + 1 and
// follows its best move (Limits::first_depth).
#pragma once

#include "cluster/cluster_leaf.h"
#include "search/search.h"

namespace db::cluster {

class ClusterSearch {
 public:
  // own_chips: the master's own node's chips (also worker 0's, which searches no job meanwhile);
  // own_workers: the master's software workers on them; cluster_workers: on the cluster.
  ClusterSearch(search::Searcher& master, search::LeafSearch& own_chips, int own_workers, ClusterLeafSearch& cluster,
                int cluster_workers, int own_until);
  // The search to limits (a fixed depth: the cluster is measured at fixed depths), with the
  // iterations up to own_until on the master's node. The result's leaf figures add both phases.
  search::SearchResult run(const Position& root, const search::Limits& limits,
                           const search::Searcher::IterationCallback& on_iteration = {});
  // The figures so far: the own phase's and the cluster's.
  search::LeafStats stats() const;

 private:
  search::Searcher& master_;
  search::LeafSearch& own_chips_;
  int own_workers_;
  ClusterLeafSearch& cluster_;
  int cluster_workers_;
  int own_until_;
  bool on_cluster_ = false;
  search::LeafStats own_;  // the own phase's figures, once it is over
};

// a + b, field by field (simulated time too: the two phases follow each other).
search::LeafStats add(const search::LeafStats& a, const search::LeafStats& b);

}  // namespace db::cluster
