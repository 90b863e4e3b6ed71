// The master's end of the wire to its workers: worker 0 is the master's own node (its chips, in
// this process); the others are ranks under MPI (mpi_link.h) or, for the simulated cluster, more
// nodes in this process (InProcessLink). The switch's latency and bandwidth are not here: they are
// simulated time, which the master's leaf searcher keeps (cluster_leaf.h); this is the wall-time
// transport.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "cluster/messages.h"
#include "cluster/worker_node.h"

namespace db::cluster {

class MasterLink {
 public:
  virtual ~MasterLink() = default;
  virtual int workers() const = 0;
  virtual void send(int worker, const Message& m) = 0;
  // The next message from a worker, if one has arrived (never blocks).
  virtual std::optional<std::pair<int, Message>> receive() = 0;
  // Waits a little (wall time) for a message, without spinning.
  virtual void wait() = 0;
};

// Workers in this process, each a WorkerNode: a message sent to one is taken at once (a GRANT runs
// the node to its time), so their replies wait in the inbox when send() returns.
class InProcessLink : public MasterLink {
 public:
  explicit InProcessLink(std::vector<std::unique_ptr<WorkerNode>> nodes) : nodes_(std::move(nodes)) {}
  int workers() const override { return int(nodes_.size()); }
  void send(int worker, const Message& m) override;
  std::optional<std::pair<int, Message>> receive() override;
  void wait() override {}
  WorkerNode& node(int worker) { return *nodes_.at(std::size_t(worker)); }

 private:
  std::vector<std::unique_ptr<WorkerNode>> nodes_;
  std::vector<std::pair<int, Message>> inbox_;
  std::size_t next_ = 0;
};

}  // namespace db::cluster
