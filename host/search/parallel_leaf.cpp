#include "search/parallel_leaf.h"

namespace db::search {

bool WorkerLeaf::test(Position& pos, const Move* path, int ply, int depth, int test) {
  const Key key = pos.key();
  chips_.set_worker(worker_);
  chips_.ask(pos, path, ply, depth, test);
  // Another worker may run (and tag the chips with its own number) while this one waits.
  scheduler_.block(worker_, [&] {
    chips_.set_worker(worker_);
    return chips_.ready(key, ply, depth, test);
  });
  chips_.set_worker(worker_);
  const Answer a = chips_.answer(key, ply, depth, test);
  overflowed_ = a.overflow;
  last_nodes_ = a.nodes;
  if (a.overflow) return false;
  ++searches_;
  nodes_ += a.nodes;
  return a.fail_high;
}

LeafStats WorkerLeaf::stats() const {
  LeafStats s = chips_.stats();
  s.searches = searches_;
  s.nodes = nodes_;
  return s;
}

}  // namespace db::search
