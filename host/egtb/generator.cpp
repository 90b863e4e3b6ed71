#include "egtb/generator.h"

#include <chrono>
#include <stdexcept>
#include <vector>

namespace db::egtb {

namespace {

class Generator {
 public:
  Generator(const Material& m, const Tablebases& smaller) : table_(m), smaller_(smaller) {}

  Table run(GenerationStats& stats) {
    const Layout& layout = table_.layout;
    std::vector<std::uint8_t>& e = table_.entries;
    Board b;
    for (std::uint64_t i = 0; i < layout.size(); ++i) e[i] = layout.decode(i, b) ? kUnknown : kInvalid;
    pending_.assign(kMaxPlies + 2, {});
    std::vector<std::uint32_t> decided, candidates;
    // Pass 0: mates and stalemates; every other value known through smaller tables is scheduled.
    for (std::uint64_t i = 0; i < layout.size(); ++i)
      if (e[i] == kUnknown) consider(std::uint32_t(i), 0, decided);
    std::vector<std::uint8_t> marked(layout.size(), 0);
    const bool pawns = layout.material().has_pawns();
    for (int pass = 1; pass <= kMaxPlies + 1; ++pass) {
      candidates.clear();
      for (std::uint32_t i : decided) {
        layout.decode(i, b);
        for_each_parent(b, [&](const Board& parent) {
          mark(layout.index(parent), marked, candidates);
          // Without pawns, a position whose white king lies on the a1-h8 diagonal (after the
          // symmetries) is stored twice, as itself and mirrored in that diagonal; a move from
          // either may reach the same stored child, so both are candidates.
          if (!pawns) {
            Board t = parent;
            for (int k = 0; k < t.n; ++k) t.sq[k] = (t.sq[k] >> 3) | ((t.sq[k] & 7) << 3);
            mark(layout.index(t), marked, candidates);
          }
        });
      }
      for (std::uint32_t i : pending_[std::size_t(pass)])
        if (e[i] == kUnknown && !marked[i]) {
          marked[i] = 1;
          candidates.push_back(i);
        }
      pending_[std::size_t(pass)].clear();
      decided.clear();
      for (std::uint32_t i : candidates) {
        marked[i] = 0;
        if (e[i] == kUnknown) consider(i, pass, decided);
      }
      stats.passes = pass;
      if (decided.empty() && !pending_left(pass)) break;
      if (pass > kMaxPlies && !decided.empty())
        throw EgtbError("database " + layout.material().name() + ": a mate longer than " + std::to_string(kMaxPlies) +
                        " plies");
    }
    for (std::uint8_t& x : e) {
      if (x == kUnknown) x = kDrawCode;
      if (x == kInvalid) continue;
      ++stats.positions;
      const Value v = Value::from_code(x);
      (v.wdl == Wdl::Win ? stats.wins : v.wdl == Wdl::Loss ? stats.losses : stats.draws) += 1;
      stats.longest_plies = std::max(stats.longest_plies, v.plies);
    }
    stats.evaluations = evaluations_;
    return std::move(table_);
  }

 private:
  void mark(std::uint64_t p, std::vector<std::uint8_t>& marked, std::vector<std::uint32_t>& candidates) const {
    if (table_.entries[p] == kUnknown && !marked[p]) {
      marked[p] = 1;
      candidates.push_back(std::uint32_t(p));
    }
  }

  bool pending_left(int pass) const {
    for (std::size_t k = std::size_t(pass) + 1; k < pending_.size(); ++k)
      if (!pending_[k].empty()) return true;
    return false;
  }

  // Decides position i in pass `pass` if its moves say it is decided in exactly that many plies;
  // schedules it for a later pass when they say it will be decided then.
  void consider(std::uint32_t i, int pass, std::vector<std::uint32_t>& decided) {
    ++evaluations_;
    Board b;
    table_.layout.decode(i, b);
    int revisit = kMaxPlies + 2;  // a pass at which an en passant child's value becomes exact
    int win = -1, loss = -1;      // plies of the quickest win, of the longest loss
    bool all_lose = true;         // every move known to lose so far
    const int moves = for_each_child(b, [&](const Board& child) {
      const int v = child_value(child, pass, revisit);  // rank-like: see below
      if (v == kChildUnknown) {
        all_lose = false;
        return;
      }
      const Value cv = Value::from_code(std::uint8_t(v));
      const Value mine = cv.parent();
      if (mine.wdl == Wdl::Win) {
        if (win < 0 || mine.plies < win) win = mine.plies;
        all_lose = false;
      } else if (mine.wdl == Wdl::Loss) {
        loss = std::max(loss, mine.plies);
      } else {
        all_lose = false;
      }
    });
    Value result;
    bool known = true;
    if (moves == 0) {
      result = b.in_check(b.stm) ? Value{Wdl::Loss, 0} : Value{};
    } else if (win >= 0) {
      result = {Wdl::Win, win};
    } else if (all_lose) {
      result = {Wdl::Loss, loss};
    } else {
      known = false;
    }
    if (revisit <= kMaxPlies + 1 && revisit > pass) pending_[std::size_t(revisit)].push_back(i);
    if (!known) return;
    if (result.wdl == Wdl::Draw) {
      table_.entries[i] = kDrawCode;
      return;
    }
    if (result.plies > kMaxPlies)
      throw EgtbError("database " + table_.layout.material().name() + ": a mate longer than " +
                      std::to_string(kMaxPlies) + " plies");
    if (result.plies == pass) {
      table_.entries[i] = result.code();
      decided.push_back(i);
    } else if (result.plies > pass) {
      pending_[std::size_t(result.plies)].push_back(i);
    } else {
      throw std::logic_error("database " + table_.layout.material().name() + ": position " + std::to_string(i) +
                             " found in pass " + std::to_string(pass) + " at " + std::to_string(result.plies) +
                             " plies");
    }
  }

  static constexpr int kChildUnknown = -1;

  // The child's code (its side to move's view), or kChildUnknown while it is not decided.
  int child_value(const Board& c, int pass, int& revisit) const {
    const bool same_table = c.n == table_.layout.material().pieces() && c.material() == table_.layout.material();
    int t;
    if (same_table) {
      const std::uint8_t code = table_.entries[table_.layout.index(c)];
      t = code == kUnknown ? kChildUnknown : code;
    } else {
      const std::optional<Value> v = smaller_.probe(c);
      if (!v) throw EgtbError("database " + table_.layout.material().name() + " needs " + c.material().name());
      t = v->code();
    }
    if (c.ep == SQ_NONE) return t;
    // An en passant capture is one more move there: the child's value is the better of its table
    // entry and the capture (whose result is in a smaller table).
    int e = -1000000;
    Value best_capture;
    for_each_child(c, [&](const Board& g) {
      if (g.n == c.n) return;  // not a capture
      const std::optional<Value> v = smaller_.probe(g);
      if (!v) throw EgtbError("database " + table_.layout.material().name() + " needs " + g.material().name());
      const Value mine = v->parent();
      if (mine.rank() > e) {
        e = mine.rank();
        best_capture = mine;
      }
    });
    if (e == -1000000) return t;  // (the only captures are en passant ones: none was legal)
    if (t == kChildUnknown) {
      // Undecided now means decided in this pass or later, or a draw: a capture winning sooner
      // is the value; anything else waits for the table entry.
      if (best_capture.wdl == Wdl::Win) {
        if (best_capture.plies <= pass) return best_capture.code();
        revisit = std::min(revisit, best_capture.plies);
      }
      return kChildUnknown;
    }
    const Value tv = Value::from_code(std::uint8_t(t));
    return (best_capture.rank() > tv.rank() ? best_capture : tv).code();
  }

  Table table_;
  const Tablebases& smaller_;
  std::vector<std::vector<std::uint32_t>> pending_;
  std::uint64_t evaluations_ = 0;
};

}  // namespace

Table generate(const Material& canonical, const Tablebases& smaller, GenerationStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  GenerationStats local;
  Table t = Generator(canonical, smaller).run(local);
  local.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (stats) *stats = local;
  return t;
}

}  // namespace db::egtb
