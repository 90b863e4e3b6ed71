// The cluster over MPI (docs/cluster.md): the session, which only `--cluster` starts (plain runs
// need no MPI runtime), the master's link to the worker ranks, and a worker rank's life. Rank 0 is
// the master; its own node is worker 0, in process; rank r is worker r. Every call into MPI is made
// by one thread at a time (the master's software workers take turns, parallel_scheduler.h):
// MPI_THREAD_SERIALIZED. Receives are non-blocking probes with a short sleep between them, so that
// oversubscribed ranks do not spin.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cluster/master_link.h"
#include "cluster/worker_node.h"

namespace db::cluster {

class MpiSession {
 public:
  MpiSession();   // MPI_Init_thread; throws if the library cannot give MPI_THREAD_SERIALIZED
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Ends every rank: the message on stderr, MPI_Abort with code.
  [[noreturn]] static void abort(const std::string& why, int code);

 private:
  int rank_ = 0, size_ = 1;
};

// Byte messages between ranks, one tag, non-blocking both ways.
class MpiTransport {
 public:
  MpiTransport();
  ~MpiTransport();
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;
  void send(int rank, std::vector<std::uint8_t> bytes);
  std::optional<std::pair<int, std::vector<std::uint8_t>>> receive();
  void flush();  // waits until every send has left

 private:
  void progress();
  struct Pending;
  std::vector<std::unique_ptr<Pending>> pending_;
};

// The sleeps of a rank that probes for messages and finds none: 5 us at first, doubling up to
// 200 us, back to 5 us when a message comes. A round of grants and their replies is often shorter
// than a fixed 200 us sleep (an MPI run makes thousands of rounds), and a rank that waits long still
// leaves its core to the others when oversubscribed: it never spins.
class IdleBackoff {
 public:
  static constexpr std::chrono::microseconds kFirst{5};
  static constexpr std::chrono::microseconds kLongest{200};
  void idle();
  void reset();

 private:
  std::chrono::microseconds sleep_ = kFirst;
};

class MpiLink final : public MasterLink {
 public:
  // own: the master's own node (worker 0).
  MpiLink(const MpiSession& session, std::unique_ptr<WorkerNode> own);
  int workers() const override { return size_; }
  void send(int worker, const Message& m) override;
  std::optional<std::pair<int, Message>> receive() override;
  void wait() override;
  void quit_all();  // QUIT to every worker rank

 private:
  int size_;
  MpiTransport transport_;
  InProcessLink own_;
  IdleBackoff backoff_;
};

// Test hooks for a worker rank's failures (docs/cluster.md): it sleeps before each reply to a
// GRANT, or its process ends on its first job as if it had crashed.
struct WorkerFaults {
  int slow_rank = -1;
  int slow_ms = 0;
  int exit_rank = -1;
};

// A worker rank's life: answers the master's jobs until QUIT.
void run_worker_rank(const MpiSession& session, WorkerNode& node, const WorkerFaults& faults);

}  // namespace db::cluster
