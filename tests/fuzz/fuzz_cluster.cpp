// libFuzzer target for the cluster's messages (host/cluster/messages.h) and a worker node taking
// them (host/cluster/worker_node.h) over model chips: what an MPI rank does with the bytes it
// receives. The input is a list of messages, each [length u16][bytes], handed one by one to
// decode() and, when they decode, to a worker node. Checked besides "no crash, no hang, no
// undefined behaviour":
//   - decode() throws only ClusterError, and what it decodes encodes back to a message that
//     decodes to the same bytes again (one encoding for every message);
//   - the node throws only ClusterError (a bad history, path or order: the run's end under MPI,
//     after which the node takes nothing more), and everything it sends is an ANSWER or a CLOCK that
//     encodes, decodes and belongs to the search and jobs the node was given.
// A GRANT is cut to a few thousand chip clocks past the node's clock, so that a job's search (up to
// 60 plies) stays within the input's time; the master's table entries reach the node's table
// unchecked, as they do under MPI, so their moves must be checked where the search uses them.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <set>
#include <variant>
#include <vector>

#include "chip/chip_model.h"
#include "cluster/messages.h"
#include "cluster/worker_node.h"
#include "search/chip_leaf_search.h"

namespace {

using namespace db::cluster;

constexpr int kChips = 2;
constexpr int kChipDepth = 2;
constexpr std::uint64_t kMostClocksAGrant = 20000;  // under a millisecond of chip time

void check(bool ok) {
  if (!ok) std::abort();
}

std::unique_ptr<db::search::LeafSearch> model_chips() {
  std::vector<std::unique_ptr<db::chip::ChipClient>> clients;
  for (int i = 0; i < kChips; ++i)
    clients.push_back(std::make_unique<db::chip::ChipClient>(std::make_unique<db::chip::ChipModel>()));
  auto chips = std::make_unique<db::search::ChipLeafSearch>(std::move(clients), kChipDepth);
  chips->set_node_limit(2000);  // the node-limit path too, soon
  return chips;
}

// One encoding for every message: what decodes, encodes to bytes that decode to the same bytes.
void check_canonical(const Message& m) {
  const std::vector<std::uint8_t> once = encode(m);
  check(once.size() >= kHeaderBytes);
  Message again;
  try {
    again = decode(once);
  } catch (const ClusterError&) {
    std::abort();  // encode() made a message decode() refuses
  }
  check(again.index() == m.index());
  check(encode(again) == once);
}

struct Node {
  db::cluster::WorkerConfig config() const {
    db::cluster::WorkerConfig c;
    c.search.workers = kChips;
    c.hash_mib = 1;
    c.software_node_limit = 5000;
    return c;
  }
  WorkerNode node{config(), model_chips()};
  std::uint32_t search = 0;
  bool searching = false;
  std::set<std::uint32_t> jobs;  // the ids given in this search (answered ones too)
  std::uint64_t last_clock = 0;

  void sent(const Message& m) {
    check_canonical(m);
    if (const auto* a = std::get_if<Answer>(&m)) {
      check(searching && a->search == search);
      check(jobs.count(a->id) == 1);
      check(a->finish >= a->start);
      check(a->table.size() <= kMaxTableEntries);
      return;
    }
    const auto* c = std::get_if<Clock>(&m);
    check(c != nullptr);  // a worker sends only ANSWER and CLOCK
    check(searching && c->search == search);
    check(c->clock >= last_clock);  // a node's time never runs back
    last_clock = c->clock;
  }

  // false: the node refused the message (the run would end here).
  bool take(Message m) {
    if (auto* g = std::get_if<Grant>(&m)) g->until = std::min(g->until, node.clock() + kMostClocksAGrant);
    try {
      node.receive(m, [this](const Message& out) { sent(out); });
    } catch (const ClusterError&) {
      return false;
    }
    if (const auto* n = std::get_if<NewSearch>(&m)) {
      search = n->search;
      searching = true;
      jobs.clear();
      last_clock = node.clock();
    } else if (const auto* j = std::get_if<Job>(&m)) {
      if (searching && j->search == search) jobs.insert(j->id);
    }
    return true;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Node node;
  std::size_t at = 0;
  while (at + 2 <= size && !node.node.quitting()) {
    const std::size_t n = std::size_t(data[at]) | std::size_t(data[at + 1]) << 8;
    at += 2;
    const std::vector<std::uint8_t> bytes(data + at, data + std::min(size, at + n));
    at += bytes.size();
    Message m;
    try {
      m = decode(bytes);
    } catch (const ClusterError&) {
      continue;  // named and refused: the next message
    }
    check_canonical(m);
    if (!node.take(m)) break;
  }
  return 0;
}
