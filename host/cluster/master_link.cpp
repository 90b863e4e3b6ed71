#include "cluster/master_link.h"

#include <chrono>

namespace db::cluster {

InProcessLink::InProcessLink(std::vector<std::unique_ptr<WorkerNode>> nodes, int threads)
    : nodes_(std::move(nodes)), boxes_(nodes_.size()) {
  if (threads > 1 && nodes_.size() > 1) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run_nodes(); });
  }
}

InProcessLink::~InProcessLink() {
  {
    std::lock_guard<std::mutex> hold(lock_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void InProcessLink::post(int worker, const Message& a) {
  // Through the wire format, as MPI would carry it.
  Message m = decode(encode(a));
  {
    std::lock_guard<std::mutex> hold(lock_);
    inbox_.emplace_back(worker, std::move(m));
  }
  replies_.notify_all();
}

void InProcessLink::send(int worker, const Message& m) {
  WorkerNode& n = *nodes_.at(std::size_t(worker));
  // Through the wire format, so that the simulated cluster sends what MPI would.
  Message sent = decode(encode(m));
  if (threads_.empty() || worker == 0) {
    // A GRANT runs the node here and now: its answers and its CLOCK are in the inbox on return.
    n.receive(sent, [&](const Message& a) { post(worker, a); });
    return;
  }
  {
    std::lock_guard<std::mutex> hold(lock_);
    Mailbox& box = boxes_[std::size_t(worker)];
    box.in.push_back(std::move(sent));
    if (box.taken) return;  // its thread takes this one after the others
    box.taken = true;
    ready_.push_back(worker);
  }
  work_.notify_one();
}

void InProcessLink::run_nodes() {
  std::unique_lock<std::mutex> lock(lock_);
  for (;;) {
    // Messages still to take are taken before the link ends (the nodes' QUIT among them).
    work_.wait(lock, [&] { return stop_ || !ready_.empty(); });
    if (ready_.empty()) return;
    const int w = ready_.front();
    ready_.pop_front();
    Mailbox& box = boxes_[std::size_t(w)];
    while (!box.in.empty()) {
      Message m = std::move(box.in.front());
      box.in.pop_front();
      const bool failed = bool(error_);  // read under the lock: another node's thread sets it
      lock.unlock();
      try {
        if (!failed) nodes_[std::size_t(w)]->receive(m, [&](const Message& a) { post(w, a); });
      } catch (...) {
        std::lock_guard<std::mutex> hold(lock_);
        if (!error_) error_ = std::current_exception();
      }
      lock.lock();
      if (error_) box.in.clear();  // the run ends with the first error: the rest is not taken
    }
    box.taken = false;
    replies_.notify_all();  // an error, or the master waiting for the node in node()
    idle_.notify_all();
  }
}

std::optional<std::pair<int, Message>> InProcessLink::receive() {
  std::lock_guard<std::mutex> hold(lock_);
  if (error_) std::rethrow_exception(error_);
  if (inbox_.empty()) return std::nullopt;
  std::pair<int, Message> m = std::move(inbox_.front());
  inbox_.pop_front();
  return m;
}

void InProcessLink::wait() {
  if (threads_.empty()) return;  // every reply is in when send() returns
  std::unique_lock<std::mutex> lock(lock_);
  replies_.wait_for(lock, std::chrono::milliseconds(10), [&] { return !inbox_.empty() || error_; });
}

WorkerNode& InProcessLink::node(int worker) {
  std::unique_lock<std::mutex> lock(lock_);
  idle_.wait(lock, [&] { return !boxes_.at(std::size_t(worker)).taken; });
  return *nodes_.at(std::size_t(worker));
}

}  // namespace db::cluster
