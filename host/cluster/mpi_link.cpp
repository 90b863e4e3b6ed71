#include "cluster/mpi_link.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

namespace db::cluster {

namespace {

constexpr int kTag = 7;

}  // namespace

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error(
        fmt::format("the MPI library gives thread level {}, the cluster needs MPI_THREAD_SERIALIZED", provided));
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::abort(const std::string& why, int code) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "deepblue cluster rank %d: %s\n", rank, why.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; if it did, end anyway
}

struct MpiTransport::Pending {
  std::vector<std::uint8_t> bytes;
  MPI_Request request = MPI_REQUEST_NULL;
};

MpiTransport::MpiTransport() = default;
MpiTransport::~MpiTransport() = default;

void MpiTransport::send(int rank, std::vector<std::uint8_t> bytes) {
  auto p = std::make_unique<Pending>();
  p->bytes = std::move(bytes);
  MPI_Isend(p->bytes.data(), int(p->bytes.size()), MPI_BYTE, rank, kTag, MPI_COMM_WORLD, &p->request);
  pending_.push_back(std::move(p));
  progress();
}

void MpiTransport::progress() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    int done = 0;
    MPI_Test(&(*it)->request, &done, MPI_STATUS_IGNORE);
    it = done ? pending_.erase(it) : std::next(it);
  }
}

void MpiTransport::flush() {
  for (auto& p : pending_) MPI_Wait(&p->request, MPI_STATUS_IGNORE);
  pending_.clear();
}

std::optional<std::pair<int, std::vector<std::uint8_t>>> MpiTransport::receive() {
  progress();
  int flag = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &flag, &status);
  if (!flag) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<std::uint8_t> bytes(std::size_t(count > 0 ? count : 0));
  MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return std::make_pair(status.MPI_SOURCE, std::move(bytes));
}

namespace {

std::vector<std::unique_ptr<WorkerNode>> one(std::unique_ptr<WorkerNode> node) {
  std::vector<std::unique_ptr<WorkerNode>> v;
  v.push_back(std::move(node));
  return v;
}

}  // namespace

MpiLink::MpiLink(const MpiSession& session, std::unique_ptr<WorkerNode> own)
    : size_(session.size()), own_(one(std::move(own))) {}

void MpiLink::send(int worker, const Message& m) {
  if (worker == 0) {
    own_.send(0, m);
    return;
  }
  transport_.send(worker, encode(m));
}

std::optional<std::pair<int, Message>> MpiLink::receive() {
  if (auto own = own_.receive()) return own;
  auto in = transport_.receive();
  if (!in) return std::nullopt;
  backoff_.reset();
  try {
    return std::make_pair(in->first, decode(in->second));
  } catch (const ClusterError& e) {
    throw ClusterError(fmt::format("from rank {}: {}", in->first, e.what()));
  }
}

void IdleBackoff::idle() {
  std::this_thread::sleep_for(sleep_);
  sleep_ = std::min(sleep_ * 2, kLongest);
}

void IdleBackoff::reset() { sleep_ = kFirst; }

void MpiLink::wait() { backoff_.idle(); }

void MpiLink::quit_all() {
  for (int r = 1; r < size_; ++r) transport_.send(r, encode(Quit{}));
  transport_.flush();
}

void run_worker_rank(const MpiSession& session, WorkerNode& node, const WorkerFaults& faults) {
  MpiTransport transport;
  const int me = session.rank();
  auto send = [&](const Message& m) {
    if (me == faults.slow_rank && std::holds_alternative<Clock>(m))
      std::this_thread::sleep_for(std::chrono::milliseconds(faults.slow_ms));
    transport.send(0, encode(m));
  };
  IdleBackoff backoff;
  while (!node.quitting()) {
    auto in = transport.receive();
    if (!in) {
      backoff.idle();
      continue;
    }
    backoff.reset();
    if (in->first != 0)
      throw ClusterError(fmt::format("rank {} got a message from rank {}, not the master", me, in->first));
    Message m;
    try {
      m = decode(in->second);
    } catch (const ClusterError& e) {
      throw ClusterError(fmt::format("from the master: {}", e.what()));
    }
    if (me == faults.exit_rank && std::holds_alternative<Job>(m)) {
      std::fprintf(stderr, "deepblue cluster rank %d: ending on its first job (--debug-exit-rank)\n", me);
      std::fflush(stderr);
      ::_exit(3);
    }
    node.receive(m, send);
  }
  transport.flush();
}

}  // namespace db::cluster
