// libFuzzer target for the cluster (host/cluster): what its MPI ranks do with the bytes they receive.
// The first byte picks the side (its low bit):
//   0: the worker. The rest is a list of messages, each [length u16][bytes], handed one by one to
//      decode() and, when they decode, to a worker node over model chips (host/cluster/worker_node.h).
//   1: the master. A cluster search (host/cluster/cluster_search.h) of a few plies on two nodes: its
//      own node, in process, and a scripted worker that answers each of its GRANTs as the input says
//      (every job answered or some, with the input's fail-high bits and times, only a CLOCK, a raw
//      message from the input, or silence until the master gives the worker up), then honestly once
//      the input is used up.
// Checked besides "no crash, no hang, no undefined behaviour":
//   - decode() throws only ClusterError, and what it decodes encodes back to a message that
//     decodes to the same bytes again (one encoding for every message);
//   - the node throws only ClusterError (a bad history, path or order: the run's end under MPI,
//     after which the node takes nothing more), and everything it sends is an ANSWER or a CLOCK that
//     encodes, decodes and belongs to the search and jobs the node was given;
//   - the master throws only ClusterError (a worker's malformed or impossible message, named), and
//     otherwise its search ends with a legal best move, whatever the scripted worker answered.
// A GRANT is cut to a few thousand chip clocks past the node's clock, so that a job's search (up to
// 60 plies) stays within the input's time; the master's table entries reach the node's table
// unchecked, as they do under MPI, so their moves must be checked where the search uses them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "chess/movegen.h"
#include "chip/chip_model.h"
#include "cluster/cluster_leaf.h"
#include "cluster/cluster_search.h"
#include "cluster/master_link.h"
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

void fuzz_worker(const std::uint8_t* data, std::size_t size) {
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
}

// The master's side: worker 1 answers as the input says.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::vector<std::uint8_t> bytes(std::size_t n) {
    n = std::min(n, size_ - std::min(size_, at_));
    std::vector<std::uint8_t> out(data_ + at_, data_ + at_ + n);
    at_ += n;
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

class ScriptedLink : public MasterLink {
 public:
  ScriptedLink(std::unique_ptr<WorkerNode> own, Input& script) : own_(std::move(own)), script_(script) {}
  int workers() const override { return 2; }
  void send(int worker, const Message& m) override {
    check_canonical(m);
    if (worker == 0) {
      own_->receive(m, [this](const Message& out) { inbox_.emplace_back(0, encode(out)); });
      return;
    }
    check(worker == 1);
    if (const auto* n = std::get_if<NewSearch>(&m)) {
      search_ = n->search;
      jobs_.clear();
    } else if (const auto* j = std::get_if<Job>(&m)) {
      check(j->search == search_);
      check(jobs_.count(j->id) == 0);  // the master numbers its jobs afresh
      jobs_[j->id] = j->arrive;
    } else if (const auto* c = std::get_if<Cancel>(&m)) {
      check(c->search == search_);
    } else if (const auto* g = std::get_if<Grant>(&m)) {
      check(g->search == search_);
      reply(*g);
    }
  }
  std::optional<std::pair<int, Message>> receive() override {
    if (inbox_.empty()) return std::nullopt;
    auto [w, bytes] = std::move(inbox_.front());
    inbox_.pop_front();
    return std::make_pair(w, decode(bytes));  // as MpiLink: a message that does not decode ends the run
  }
  void wait() override {}

 private:
  void answer(std::uint32_t id, std::uint64_t until, std::uint8_t op) {
    Answer a;
    a.search = search_;
    a.id = id;
    a.status = Answer::Status((op >> 2) % 3);
    a.fail_high = (op >> 4) & 1;
    a.nodes = op;
    a.start = std::max(jobs_[id], clock_);
    a.finish = std::min(std::max(a.start, until), a.start + 100u * (op >> 5));
    clock_ = std::max(clock_, a.finish);
    jobs_.erase(id);
    inbox_.emplace_back(1, encode(a));
  }
  void reply(const Grant& g) {
    const std::uint8_t op = script_.byte();
    switch (script_.done() ? 0 : op & 3) {
      case 0:    // every job answered (honestly timed), then the clock at the grant
      case 1: {  // the oldest job only
        std::vector<std::uint32_t> ids;
        for (const auto& [id, arrive] : jobs_) {
          if (arrive <= g.until) ids.push_back(id);
        }
        if ((op & 3) == 1 && ids.size() > 1) ids.resize(1);
        for (std::uint32_t id : ids) answer(id, g.until, op);
        clock_ = std::max(clock_, g.until);
        inbox_.emplace_back(1, encode(Clock{search_, clock_, {}}));
        break;
      }
      case 2: {  // a raw message from the input, then the clock
        const std::size_t n = script_.byte();
        inbox_.emplace_back(1, script_.bytes(n));
        clock_ = std::max(clock_, g.until);
        inbox_.emplace_back(1, encode(Clock{search_, clock_, {}}));
        break;
      }
      default:  // silence: the master gives the worker up after its timeout
        break;
    }
  }

  std::unique_ptr<WorkerNode> own_;
  Input& script_;
  std::deque<std::pair<int, std::vector<std::uint8_t>>> inbox_;
  std::uint32_t search_ = 0;
  std::map<std::uint32_t, std::uint64_t> jobs_;  // the jobs out on worker 1 and their arrival times
  std::uint64_t clock_ = 0;
};

void fuzz_master(const std::uint8_t* data, std::size_t size) {
  static const char* const kFens[] = {
      "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",    // WAC 1
      "r1r1q1k1/6p1/3b1p1p/1p1PpP2/1Pp5/2P4P/R1B2QP1/R5K1 w - - 0 37",  // AIJ 4.2 #1
      "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",                              // mate in one
      "k7/8/1K6/8/8/8/8/1Q6 w - - 0 1",                                 // a stalemate to avoid
  };
  Input script(data, size);
  const db::Position root = db::Position::from_fen(kFens[script.byte() % 4]);
  const int depth = 2 + script.byte() % 2;
  db::search::TranspositionTable tt(1);
  db::cluster::WorkerConfig config;
  config.search.workers = kChips;
  config.shared_table = &tt;  // the master's own node shares its table
  auto own = std::make_unique<WorkerNode>(config, model_chips());
  WorkerNode& own_node = *own;
  ScriptedLink link(std::move(own), script);
  ClusterConfig cc;
  cc.depth = kChipDepth + 1;
  cc.min_depth = kChipDepth;
  cc.master_plies = 2;
  cc.affinity = true;
  cc.job_table = 64;
  cc.worker_timeout_s = 0.001;
  try {
    ClusterLeafSearch leaf(link, cc, tt);
    db::search::Searcher searcher(tt);
    ClusterSearch master(searcher, *own_node.chips(), kChips, leaf, leaf.chips(), 0);
    db::search::Limits limits;
    limits.depth = depth;
    const db::search::SearchResult r = master.run(root, limits);
    leaf.finish();
    check(!r.best.is_none() && root.is_legal(r.best));
  } catch (const ClusterError&) {
    // a worker's message the master refused, named
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1) {
    fuzz_master(data + 1, size - 1);
  } else {
    fuzz_worker(data + 1, size - 1);
  }
  return 0;
}
