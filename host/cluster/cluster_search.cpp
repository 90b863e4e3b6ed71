#include "cluster/cluster_search.h"

#include <algorithm>
#include <cstdint>

namespace db::cluster {

search::LeafStats add(const search::LeafStats& a, const search::LeafStats& b) {
  search::LeafStats s;
  s.searches = a.searches + b.searches;
  s.nodes = a.nodes + b.nodes;
  s.wasted_searches = a.wasted_searches + b.wasted_searches;
  s.wasted_nodes = a.wasted_nodes + b.wasted_nodes;
  s.busy_clocks = a.busy_clocks + b.busy_clocks;
  s.parallel_clocks = a.parallel_clocks + b.parallel_clocks;
  s.host_clocks = a.host_clocks + b.host_clocks;
  s.software_nodes = a.software_nodes + b.software_nodes;
  s.chips_lost = a.chips_lost + b.chips_lost;
  s.reruns = a.reruns + b.reruns;
  s.overflows = a.overflows + b.overflows;
  return s;
}

ClusterSearch::ClusterSearch(search::Searcher& master, search::LeafSearch& own_chips, int own_workers,
                             ClusterLeafSearch& cluster, int cluster_workers, int own_until)
    : master_(master),
      own_chips_(own_chips),
      own_workers_(own_workers),
      cluster_(cluster),
      cluster_workers_(cluster_workers),
      own_until_(own_until) {}

search::LeafStats ClusterSearch::stats() const {
  return on_cluster_ ? add(own_, cluster_.stats()) : own_chips_.stats();
}

search::SearchResult ClusterSearch::run(const Position& root, const search::Limits& limits,
                                        const search::Searcher::IterationCallback& on_iteration) {
  const search::SearchOptions options = master_.options();
  on_cluster_ = false;
  own_ = {};
  search::SearchResult own;
  bool searched = false;
  std::int64_t rest_time_ms = limits.movetime_ms;
  if (own_until_ > 0) {
    search::Limits first = limits;
    first.depth = limits.depth > 0 ? std::min(limits.depth, own_until_) : own_until_;
    search::SearchOptions o = options;
    o.workers = own_workers_;
    master_.set_options(o);
    master_.set_leaf_search(&own_chips_);
    own = master_.run(root, first, on_iteration);
    own_ = own.leaf;
    // What is left of a time limit goes to the cluster's iterations.
    const auto spent = std::int64_t(own.seconds * 1000);
    if (limits.movetime_ms > 0) rest_time_ms = std::max<std::int64_t>(1, limits.movetime_ms - spent);
    searched = true;
    // Done, or stopped (a stop, a time or node limit) before the own iterations were.
    if ((limits.depth > 0 && limits.depth <= own_until_) || own.depth < first.depth) {
      master_.set_options(options);
      return own;
    }
  }
  on_cluster_ = true;
  search::Limits rest = limits;
  rest.first_depth = searched ? own.depth + 1 : 1;
  if (limits.movetime_ms > 0) rest.movetime_ms = rest_time_ms;
  if (limits.chip_movetime_ms > 0) {
    const double own_ms = double(own_.parallel_clocks) / search::kChipClockHz * 1000;
    rest.chip_movetime_ms = std::max<std::int64_t>(1, limits.chip_movetime_ms - std::int64_t(own_ms));
  }
  search::SearchOptions o = options;
  o.workers = cluster_workers_;
  master_.set_options(o);
  master_.set_leaf_search(&cluster_);
  search::SearchResult r = master_.run(root, rest, on_iteration);
  master_.set_options(options);
  cluster_.finish();  // the jobs still out (asked ahead, or a stop's) are cancelled on the workers
  r.nodes += own.nodes;
  r.splits += own.splits;
  r.helper_splits += own.helper_splits;
  r.offset_splits += own.offset_splits;
  r.wait_answer_clocks += own.wait_answer_clocks;
  r.wait_work_clocks += own.wait_work_clocks;
  r.wait_helpers_clocks += own.wait_helpers_clocks;
  r.too_big_for_chips += own.too_big_for_chips;
  r.leaf = add(own_, r.leaf);
  if (r.best.is_none()) r = own;  // stopped before the cluster's first iteration had a move
  return r;
}

}  // namespace db::cluster
