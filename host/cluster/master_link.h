// The master's end of the wire to its workers: worker 0 is the master's own node (its chips, in
// this process); the others are ranks under MPI (mpi_link.h) or, for the simulated cluster, more
// nodes in this process (InProcessLink). The switch's latency and bandwidth are not here: they are
// simulated time, which the master's leaf searcher keeps (cluster_leaf.h); this is the wall-time
// transport.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
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

// Workers in this process, each a WorkerNode. With one thread (the default) a message sent to a
// node is taken at once (a GRANT runs the node to its time), so its replies wait in the inbox when
// send() returns. With more, the nodes other than the master's own run on that many threads of
// their own, each node's messages in order, as ranks under MPI run beside the master: the master
// takes their replies as they come, and its rounds of grants make the run the same in any order
// (cluster_leaf.h), so only the wall time changes. The master's own node (worker 0, which shares
// the master's table) always runs in send().
class InProcessLink : public MasterLink {
 public:
  explicit InProcessLink(std::vector<std::unique_ptr<WorkerNode>> nodes, int threads = 1);
  ~InProcessLink() override;  // the messages sent are taken first
  InProcessLink(const InProcessLink&) = delete;
  InProcessLink& operator=(const InProcessLink&) = delete;
  int workers() const override { return int(nodes_.size()); }
  void send(int worker, const Message& m) override;
  // Also rethrows, on the master's thread, what a node's thread caught.
  std::optional<std::pair<int, Message>> receive() override;
  void wait() override;
  // The node, once every message sent to it has been taken (its thread may not be inside it).
  WorkerNode& node(int worker);

 private:
  struct Mailbox {
    std::deque<Message> in;
    bool taken = false;  // a thread is running the node (or it waits in ready_)
  };
  void run_nodes();                         // a node thread's loop
  void post(int worker, const Message& a);  // a node's reply, into the inbox

  std::vector<std::unique_ptr<WorkerNode>> nodes_;
  std::mutex lock_;
  std::condition_variable work_, replies_, idle_;
  std::vector<Mailbox> boxes_;
  std::deque<int> ready_;  // nodes with messages and no thread on them, in the order they got them
  std::deque<std::pair<int, Message>> inbox_;
  std::exception_ptr error_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace db::cluster
