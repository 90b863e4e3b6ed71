// The cluster's messages between the master (rank 0) and its workers (docs/cluster.md): a header
// with a magic number, the protocol version, the type and the payload's size, then the payload.
// decode() checks all of them and throws ClusterError naming what was wrong (a malformed message is
// an error, never a crash). Scores and keys are the search's own (two-part scores, Zobrist keys).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "search/credit.h"
#include "search/tt.h"

namespace db::cluster {

class ClusterError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr std::uint32_t kMagic = 0x31434244;  // "DBC1" little-endian
// 2: simulated times on JOB, CANCEL, ANSWER; GRANT and CLOCK. 3: NEW_SEARCH carries the root's
// history (the FEN before the moves since the last irreversible one, and those moves) instead of
// the root's FEN alone, so that workers see repetitions of positions before the root. 4: JOB carries
// the master's table entries for the job's root and its children. 5: CLOCK carries the node's chip
// counters. 6: GRANT may tell the node to stop at its first answer (the master's own node). 7: JOB
// carries the dual-credit state of the job's root.
constexpr std::uint16_t kVersion = 7;
constexpr std::size_t kHeaderBytes = 12;            // magic, version, type, flags, payload size
constexpr std::size_t kMaxPayloadBytes = 1u << 20;  // far above any message's size
constexpr std::size_t kMaxTableEntries = 256;       // table entries a JOB or an ANSWER may carry
constexpr int kMaxPathPlies = 120;                  // below the search's 128-ply arrays
// A job root's credit, quarter plies (search/credit.h): after the master's cash-in neither side's
// is above the cash-in limit (2 plies); a larger one would extend the job by plies the master's
// own search would not have given it.
constexpr int kMaxJobCredit = search::kCreditLimit;
// Moves of history a NEW_SEARCH carries (2 bytes each). Past 100 reversible plies every node below
// the root is a fifty-move draw (and the 75-move rule ends a game at 150), so a longer history (a
// GUI that never ends a game) is cut to its last kMaxHistoryPlies moves: a repetition further back
// is then scored as the fifty-move draw it also is, without a repetition's tie-breaker.
constexpr int kMaxHistoryPlies = 1024;

enum class Type : std::uint8_t {
  NEW_SEARCH = 1,
  JOB = 2,
  CANCEL = 3,
  QUIT = 4,
  GRANT = 5,
  ANSWER = 0x82,
  CLOCK = 0x85
};
std::string type_name(Type t);

// Master -> worker: a new search; the jobs that follow are asked of its root, base_fen with the
// history played from it (the chips' weights come from the root, AIJ 7.1). The history is the
// root's moves since the last irreversible one (Position::reversible_moves), so that the worker's
// root has every earlier position a repetition can reach, as the master's has. Jobs of earlier
// searches still queued are dropped.
struct NewSearch {
  std::uint32_t search = 0;
  std::string base_fen;
  std::vector<Move> history;  // reversible moves (quiet or castling), at most kMaxHistoryPlies
  bool strive_for_draw = false;
};

// The NEW_SEARCH of the master's root (its last kMaxHistoryPlies reversible moves).
NewSearch new_search_of(std::uint32_t search, const Position& root, bool strive_for_draw);
// The worker's root: base_fen with the history replayed. Throws ClusterError naming a bad FEN or
// the first history move that is illegal or irreversible.
Position root_of(const NewSearch& m);

// Simulated times are chip clocks since the search began, on one clock for all nodes.

// A table entry as the table stores it: passed up with a worker's answer (AIJ 6: the expensive
// results) and down with the master's job.
struct TableEntry {
  Key key = 0;
  Move move;
  std::int32_t score = 0;
  std::int16_t depth_q = 0;
  std::uint8_t bound = 0;
  std::uint8_t my_credit = 0, his_credit = 0;
};

// Master -> worker: is the value of the root after path (Move::none() for a null move) >= test,
// searched depth plies deep? It reaches the worker at simulated time arrive.
struct Job {
  std::uint32_t search = 0;
  std::uint32_t id = 0;
  std::vector<Move> path;
  std::uint8_t depth = 0;
  std::int32_t test = 0;
  std::uint64_t arrive = 0;
  // The master's table entries for the job's root and its children (ClusterConfig::job_table): its
  // first plies are then ordered as the subtree's earlier searches found, wherever they ran. The
  // node keeps its own entries where they are as deep.
  std::vector<TableEntry> table;
  // The dual-credit state of the job's root (AIJ 4, quarter plies, after its cash-in): the worker
  // searches the job's software plies with the extensions the master's own search would give them,
  // so that the cluster's tree is one node's (version 7; before it a job started from no credit).
  std::uint8_t my_credit = 0, his_credit = 0;
};

// Master -> worker: the job is no longer wanted (a cutoff made it useless) from simulated time at.
struct Cancel {
  std::uint32_t search = 0;
  std::uint32_t id = 0;
  std::uint64_t at = 0;
};

// Master -> worker: simulate on up to `until` (no job or cancel will arrive before it), then say
// where you are (CLOCK). With stop_at_answer the node stops earlier, at its first answer the master
// can use (ANSWERED or TOO_BIG; version 6): the master then grants it as far as the other nodes'
// answers allow, not its own, since an answer of its own reaches the master before anything that
// answer causes can reach the node.
struct Grant {
  std::uint32_t search = 0;
  std::uint64_t until = 0;
  bool stop_at_answer = false;
};

// A node's chips since the search began (its leaf searcher's counters): what the master's job
// figures cannot see, how busy the node's chips were and what their speculation cost.
struct NodeChips {
  std::uint64_t busy_clocks = 0;  // chip clocks spent searching, all the node's chips
  std::uint64_t searches = 0;     // hardware searches whose answers the node's jobs used
  std::uint64_t nodes = 0;        // their nodes
  // Searches asked ahead and aborted or never used, or stopped at the node limit, and their nodes.
  std::uint64_t wasted_searches = 0;
  std::uint64_t wasted_nodes = 0;
  std::uint64_t overflows = 0;       // of those, stopped at the node limit (searched in software instead)
  std::uint64_t software_nodes = 0;  // the node's own software nodes
  NodeChips& operator+=(const NodeChips& o) {
    busy_clocks += o.busy_clocks;
    searches += o.searches;
    nodes += o.nodes;
    wasted_searches += o.wasted_searches;
    wasted_nodes += o.wasted_nodes;
    overflows += o.overflows;
    software_nodes += o.software_nodes;
    return *this;
  }
};

// Worker -> master: its simulated time (every answer it finished before it has been sent) and its
// chips' counters at that time.
struct Clock {
  std::uint32_t search = 0;
  std::uint64_t clock = 0;
  NodeChips chips;
};

// Master -> worker: end the process (after the running job, which is stopped).
struct Quit {};

// Worker -> master: one per job, cancelled or not.
struct Answer {
  enum class Status : std::uint8_t { ANSWERED = 0, TOO_BIG = 1, CANCELLED = 2 };
  std::uint32_t search = 0;
  std::uint32_t id = 0;
  Status status = Status::ANSWERED;
  bool fail_high = false;
  std::uint64_t nodes = 0;              // software and chip nodes
  std::uint64_t software_nodes = 0;     // of which software
  std::uint64_t start = 0, finish = 0;  // simulated times the worker began and ended it
  std::vector<TableEntry> table;
};

using Message = std::variant<NewSearch, Job, Cancel, Quit, Grant, Answer, Clock>;

// What a table holds for pos and each of its children (at most `limit` entries, the root's first):
// what a worker passes up with an answer and what the master sends down with a job.
std::vector<TableEntry> table_entries(const search::TranspositionTable& table, Position pos, std::size_t limit);

Type type_of(const Message& m);
std::vector<std::uint8_t> encode(const Message& m);
Message decode(const std::vector<std::uint8_t>& bytes);

}  // namespace db::cluster
