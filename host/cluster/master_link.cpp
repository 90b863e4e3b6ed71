#include "cluster/master_link.h"

namespace db::cluster {

void InProcessLink::send(int worker, const Message& m) {
  WorkerNode& n = node(worker);
  // Through the wire format, so that the simulated cluster sends what MPI would. A GRANT runs the
  // node here and now: its answers and its CLOCK wait in the inbox when send() returns.
  const Message sent = decode(encode(m));
  n.receive(sent, [&](const Message& a) { inbox_.emplace_back(worker, decode(encode(a))); });
}

std::optional<std::pair<int, Message>> InProcessLink::receive() {
  if (next_ == inbox_.size()) {
    inbox_.clear();
    next_ = 0;
    return std::nullopt;
  }
  return std::move(inbox_[next_++]);
}

}  // namespace db::cluster
