// The software search (AIJ section 4): iterative deepening, NegaScout with a transposition table,
// and Deep Blue's "dual credit with delayed extensions" selectivity, fed by singular / binary /
// trinary and absolute-singular detection, threat and mate threat (null move), influence and
// domain-dependent credit; "no progress" pruning; AIJ 8.4 time control.
// Leaves: the chips' hardware searches when a LeafSearch is set (set_leaf_search), else a quiescence
// search on interim_evaluate().
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "search/chip_answers.h"
#include "search/credit.h"
#include "search/evaluator.h"
#include "search/leaf_search.h"
#include "search/score.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace db::egtb {
class Tablebases;
}

namespace db::search {

struct Limits {
  int depth = 0;  // 0: no depth limit
  // The first iteration's depth: a run that goes on from an earlier one's table (a cluster's master
  // searches the early iterations on its own chips, then the later ones on its workers).
  int first_depth = 1;
  std::uint64_t nodes = 0;  // 0: no node limit
  std::int64_t movetime_ms = 0;
  ClockState clock;       // time_left_ms < 0: no clock
  bool infinite = false;  // search until stop()
  bool ponder = false;    // do not stop on time until ponderhit()
  // Simulated chip time (ms at the chips' 24 MHz, the clocks during which some chip searched; the
  // host's own time is not modelled): with chips as the leaf search, stop when it is spent.
  std::int64_t chip_movetime_ms = 0;
  // The extended book's bonus of root moves (AIJ 8.2; book/extended_book.h), in centipawns: each
  // such move is searched with its window offset by the bonus and scores that much more.
  std::vector<std::pair<Move, int>> root_bonus;
};

constexpr int kDefaultLazyMargin = 150;

struct SearchOptions {
  bool dual_credit = true;  // selective extensions of AIJ 4; off: plain search with check extension
  // AIJ 4.3 "no progress" pruning. Off by default: it prunes the defender's waiting moves, and with it
  // k7/8/8/P1K5/8/8/8/8 w (a rook-pawn draw) is searched as a win (see docs/search.md).
  bool no_progress = false;
  CreditTable credit;
  // Contempt (centipawns): a draw counts this much below zero for the side to move at the root.
  int contempt = 0;
  // MultiPV: how many root moves get an exact score and their own principal variation (the best
  // ones, capped by the number of legal moves). Line i is searched with lines 1..i-1 excluded at the
  // root; 1 is the ordinary search.
  int multipv = 1;
  // The first plies of the quiescence search at which quiet checking moves are searched too (as
  // the chip's quiescence plays mating and singular checks, AIJ 5): 0 = captures only.
  int quiescence_checks = 3;
  // Static exchange (chess/see.h): the quiescence search skips the captures and quiet checks that
  // lose material on their square unless in check (standing pat is the better choice there), and
  // the full-width search tries losing captures after the quiet moves. Off: every capture and
  // check searched, captures first (as before 2026-11-26).
  bool static_exchange = true;
  // Software workers (AIJ 6, docs/search.md "Parallel search"): with the chips as the leaf search,
  // this many workers share the chips and the moves after the first (young brothers wait) of the
  // root and of the master's PV nodes, scheduled one at a time in simulated time, so that a run is
  // reproducible. At most one per chip (more are not used); with one chip or software leaves it is
  // ignored. 1: the sequential search.
  int workers = 1;
  // A cluster node's free software worker (docs/cluster.md): true, it helps the node's open splits
  // before it starts a job waiting on deck, so that the jobs under way (those the master waits for
  // among them) end sooner; false, the next job first.
  bool splits_before_jobs = false;
  // The chips' answers kept for the search (chip_answers.h), so that a question they settle is not
  // asked again; off: only the transposition table remembers them (as before 2026-11-28: tests
  // compare the two).
  bool keep_chip_answers = true;
  // Overlapped iterations (docs/search.md "Overlapped iterations"): once an iteration's root has
  // handed out its last move, a worker with nothing else to do searches the best move so far one
  // ply deeper with the full window, as the next iteration searches its first move, and the next
  // iteration takes that score when its first move is the same. Off (the default: measured within
  // the parallel trees' variation, docs/benchmarks.md): each iteration starts after the last ended.
  bool overlap_iterations = false;
  // What scores the software's own leaves: empty, the interim evaluation; else the evaluator it
  // makes for each search's root (Deep Blue's chip evaluation: search/chip_evaluation.h).
  EvaluatorFactory evaluator;
  // The lazy evaluation at the quiescence search's stand pat, when the evaluator has one
  // (StaticEvaluator::lazy_control: the chip evaluation, its filter and piece minimum from
  // EVAL_CONTROL word 1): the margin in the evaluation's units, 0 to score every stand pat in full.
  // The chip's own margin (60) suits its estimate but is narrow for software, where the tuned slow
  // part often exceeds it: the default is measured (docs/evaluation.md, "Lazy stand pat").
  int lazy_margin = kDefaultLazyMargin;
  // Endgame databases (AIJ 8.3, docs/egtb.md; nullptr: none). A position they hold is not searched:
  // its score is the game-theoretic value as the high part (kTbWin, 0, -kTbWin) with the static
  // evaluation as the tie-breaker; a won or lost root is played by distance to mate at once.
  const egtb::Tablebases* tablebases = nullptr;
};

constexpr int kMaxMultiPv = 256;  // more than the most legal moves in any position (218)

// One of the MultiPV lines: a root move, its exact score and its principal variation (pv[0] == move).
struct PvLine {
  Move move = Move::none();
  int score = 0;
  std::vector<Move> pv;
  int tie = 0;  // the score's tie-breaker (AIJ 4.3, score.h): nonzero on draws
};

struct IterationInfo {
  int depth = 0;
  int seldepth = 0;          // deepest ply reached, quiescence included
  int max_software_ply = 0;  // deepest ply of the full-width (software) part, extensions included
  int score = 0;
  std::uint64_t nodes = 0;       // software nodes and the chip nodes of the answers used
  std::uint64_t extensions = 0;  // plies of extension cashed in
  double seconds = 0;
  int hashfull = 0;
  std::vector<Move> pv;
  // The MultiPV lines, best first (lines[0] is move pv[0] with score): SearchOptions::multipv of
  // them, fewer when the root has fewer legal moves or a stop ended the iteration after line 1.
  std::vector<PvLine> lines;
};

struct SearchResult {
  Move best = Move::none();
  Move ponder = Move::none();
  int score = 0;
  int tie = 0;  // the score's tie-breaker (AIJ 4.3, score.h): nonzero on draws
  int depth = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Move> pv;
  std::vector<PvLine> lines;  // the last reported iteration's MultiPV lines (IterationInfo::lines)
  LeafStats leaf;             // the chips' share (all zero without a leaf search)
  // The parallel search's node splits (AIJ 6.1; 0 with one worker): all of them, and those made by
  // a worker other than the master (inside a move it took from another split or the root's).
  std::uint64_t splits = 0;
  std::uint64_t helper_splits = 0;
  // Of the splits, those of a node's offset searches (the credit's singular/binary/trinary test).
  std::uint64_t offset_splits = 0;
  // Root moves a helper stopped and gave back because another root move failed high (searched
  // again once the root's new alpha was known).
  std::uint64_t root_moves_given_back = 0;
  // Overlapped iterations (SearchOptions::overlap_iterations): first root moves searched early, in
  // the tail of the iteration before, whose scores the next iteration took; and those dropped
  // unused (its first move was another, or a root move failed high meanwhile).
  std::uint64_t early_first_moves = 0, early_first_moves_dropped = 0;
  // Worker-clocks (simulated) the workers spent waiting while the chips ran: for a chip's answer,
  // for work (no split had a move left), for the helpers of their own split to finish.
  std::uint64_t wait_answer_clocks = 0, wait_work_clocks = 0, wait_helpers_clocks = 0;
  // Nodes at the chips' depth searched in software at once, their hardware search known to pass
  // the node limit (it did at that depth or less, or one ply less took a third of the limit).
  std::uint64_t too_big_for_chips = 0;
  std::uint64_t tb_hits = 0;          // positions scored by the endgame databases (the master's)
  std::uint64_t lazy_stand_pats = 0;  // stand pats the lazy evaluation decided (the master's)
  bool tb_root = false;               // the root was won or lost in the databases: their move, no search
};

// A worker node's answer to one job of a cluster's master (search_job, docs/cluster.md).
struct JobOutcome {
  bool fail_high = false;            // the value is >= the job's test value
  bool overflow = false;             // the software node limit was passed: no answer (the master splits the node)
  bool stopped = false;              // stop() ended it: no answer
  std::uint64_t nodes = 0;           // software and chip nodes
  std::uint64_t software_nodes = 0;  // of which software
};

// One job of a cluster worker node, searched by one of the node's software workers (the node's
// other workers may join its splits).
struct NodeJob {
  std::uint32_t id = 0;
  std::vector<Move> path;  // from the root (Move::none(): a null move)
  Position position;       // the root after path (the node checked the path)
  int depth = 0;
  int test = 0;
  int my_credit = 0, his_credit = 0;  // the dual-credit state of the job's root, after its cash-in
  std::uint64_t software_node_limit = 0;
  bool cancel = false;  // set by the node between runs: the job stops
  JobOutcome outcome;
};

// Where a node's software workers get their jobs (the cluster's worker node implements it). Called
// only by the worker holding the baton.
class JobQueue {
 public:
  virtual ~JobQueue() = default;
  virtual bool ready() const = 0;  // a job can start now (no side effect: a scheduler's condition)
  // The next job to start now (nullptr: none).
  virtual NodeJob* take() = 0;
  // Its search is over (outcome filled in).
  virtual void finished(NodeJob& job) = 0;
};

struct RootSplit;
struct NodeSplit;
struct EarlyFirstMove;
struct ParallelWorkers;
bool node_split_cut_off(const NodeSplit& split);             // a move of the split failed high
bool root_split_resolving(const RootSplit& split);           // a root move is searched again after failing high
bool early_first_move_dropped(const EarlyFirstMove& early);  // the next iteration's first move is another

class Searcher {
 public:
  explicit Searcher(TranspositionTable& tt, SearchOptions options = {}) : tt_(tt), options_(options) {}
  using IterationCallback = std::function<void(const IterationInfo&)>;

  SearchResult run(const Position& root, const Limits& limits, const IterationCallback& on_iteration = {});
  void stop() { stop_.store(true); }             // from any thread
  void clear_stop() { stop_.store(false); }      // before a run that an earlier stop() must not end
  void ponderhit() { pondering_.store(false); }  // from any thread: the clock now runs
  void clear_history();
  const SearchOptions& options() const { return options_; }
  void set_options(const SearchOptions& options) { options_ = options; }
  // Hands nodes with at most leaf->depth() plies left to the chips (nullptr: software leaves).
  void set_leaf_search(LeafSearch* leaf) { leaf_ = leaf; }

  // A cluster worker node whose software workers search several jobs at once (search_job.cpp):
  // begin_node() starts them on the master's search rooted at root (the chips get that root's
  // weights, AIJ 7.1), with the chips of set_leaf_search();
  // run_node() lets them work (the calling thread, worker 0, searches nothing) until until() holds
  // or the node is idle (no job to start, no chip running, every worker waiting for work), and
  // returns whether it is idle; end_node() stops them. Simulated time is the chips' clock.
  void begin_node(const Position& root, bool strive_for_draw, JobQueue& queue);
  bool run_node(const std::function<bool()>& until);
  void end_node();

 private:
  int search_root(Position& pos, MoveList& root_moves, std::size_t first, int depth, int alpha, int beta);
  int dual_credit(Position& pos, int alpha, int beta, int depth, int my_credit, int his_credit, int ply, bool pv_node);
  // checks: quiet checking moves are searched too at this ply and the next checks - 1.
  int quiescence(Position& pos, int alpha, int beta, int ply, int checks = 0);
  // my_credit and his_credit: the node's dual-credit state after its cash-in (LeafSearch::set_credits).
  int chip_leaf(Position& pos, int alpha, int beta, int depth, int ply, int my_credit, int his_credit);
  // Tells the leaf searcher the software nodes since the last time (the host's time passes).
  void tell_software_nodes() {
    leaf_->software_nodes(software_nodes_ - software_nodes_told_);
    software_nodes_told_ = software_nodes_;
  }
  // owner: the prefetch's owner for cancel() (-1: the node's ply).
  void prefetch_child(Position& pos, Move m, int alpha, int beta, int depth, int my_credit, int his_credit, int ply,
                      int owner = -1);
  // The depth the child after m will be searched at (the credit it cashes in included), read as
  // prefetch_child reads it; pos is the position before m, m already made on it.
  int child_depth_after(const Position& child, int depth, int my_credit, int his_credit) const;
  // The child's cash-in as dual_credit() will make it on entry: its extension and its credits after.
  CashIn child_cash_in(const Position& child, int my_credit, int his_credit) const;
  // Whether the child after m goes to the software although its siblings go to the chips: its
  // credit extends it past the chips' depth, or its hardware search passed the node limit before.
  bool child_in_software(Position& pos, Move m, int depth, int my_credit, int his_credit);
  bool reachable_directly(Position& pos, Move earlier, Move reply, Move now);
  int generate_credit(Position& pos, const MoveList& moves, std::size_t index, int score, int depth, int ply,
                      int threat_credit);
  int count_good_alternatives(Position& pos, const MoveList& moves, std::size_t index, int threshold, int depth,
                              int ply, int limit);
  int threat_credit(Position& pos, int alpha, int depth, int ply);
  // A quiet move that cut off: a killer at its ply and history credit.
  void record_cutoff(const Position& pos, Move m, int depth, int ply);
  void order_moves(const Position& pos, MoveList& moves, Move tt_move, int ply) const;
  bool should_stop();
  // A job whose own hardware search passed the chips' node limit stops and goes back (search_job).
  int job_goes_back(int alpha);
  // Scores inside the search are two-part (score.h). A draw scores -contempt for the root side
  // (at even plies it is that side's turn), with a tie-breaker given from the root side's view.
  int draw_score(int ply, int root_tie = 0) const {
    const int s = two_part(-options_.contempt, root_tie);
    return ply % 2 == 0 ? s : -s;
  }
  // AIJ 4.3: a repetition's tie-breaker counts the moves until it, positive when the machine
  // strives for the draw (a nearer repetition is better) and negative when it avoids one (a later
  // one is less bad). The machine strives for it when the root's static value is below the draw.
  int repetition_tie(int ply) const {
    const int sooner = kMaxTie + 1 - std::min(ply, kMaxTie);
    return strive_for_draw_ ? sooner : -sooner;
  }
  int static_score(const Position& pos) const;
  // The quiescence search's stand pat: static_score, or with the lazy evaluation a bound outside
  // [alpha, beta] from the fast part and the running estimate of the slow part.
  int stand_pat(const Position& pos, int alpha, int beta);
  // A theoretically drawn position's tie-breaker (AIJ 4.3) under the evaluation in use.
  int draw_tie(const Position& pos) const;
  // One root move's search with its extended-book bonus (Limits::root_bonus).
  int root_child(Position& pos, Move m, int alpha, int beta, int depth, int credit, bool pv);
  // The evaluator of options_.evaluator for a search from root (none: the interim evaluation).
  void set_evaluator(const Position& root);
  // AIJ 8.3: the databases' score of pos (search_egtb.cpp); false when they do not hold it.
  bool probe_tablebases(const Position& pos, int ply, int& score);
  // A won or lost root played by distance to mate: fills result and reports one iteration.
  bool play_tablebase_root(const Position& root, SearchResult& result, const IterationCallback& on_iteration);
  std::uint64_t tb_hits_ = 0;
  double elapsed_ms() const;
  std::vector<Move> extract_pv(Position pos, Move first) const;

  // The parallel search (parallel_split.cpp): the workers, their threads, the root split and the
  // splits of PV nodes below it.
  // extra: workers beyond one per chip (a node's worker 0 only waits: begin_node).
  void start_workers(const Position& root, int extra = 0);
  void finish_workers();
  void helper_main(int me);
  void helper_loop(int me);
  // An exception leaves the search: its helpers unwound (Scheduler::abandon) and joined.
  void abandon_workers() noexcept;
  // Searches moves[next..] of the root among all workers (the master included); updates alpha,
  // best and best_index as the sequential loop would.
  void search_root_split(Position& pos, MoveList& moves, std::size_t first, std::size_t next, int depth, int& alpha,
                         int beta, int& best, std::size_t& best_index);
  void work_on_split(Position& pos, RootSplit& split);
  // Runs one move of a split: in a helper, from a fresh stop flag and depth counters, whose counts
  // then go to the master's.
  int search_for_split(const std::function<int()>& search_move);
  int search_root_move(Position& pos, RootSplit& split, std::size_t i);
  // Overlapped iterations: the master offers the next iteration's first move once the root split
  // has no move left; a free helper searches it; the next iteration takes its score (true, score
  // set) or stops it (false: another first move, or nobody took it).
  void offer_early_first_move(const RootSplit& split);
  void search_early_first_move(Position& root);
  bool take_early_first_move(Move m, int depth, int& score);
  // Withdraws the offer and stops a search under way (another first move, a root move's fail
  // high, the end of the search).
  void drop_early_first_move();
  // Blocks this worker until no root move of the split is being searched again after failing high.
  void wait_for_root_alpha(const RootSplit& split);
  // A PV node's moves[i..] among the workers (the master's PV nodes only, one split at a time).
  void search_node_split(Position& pos, const MoveList& moves, std::size_t i, int depth, int my_credit, int his_credit,
                         int ply, int threat, int& alpha, int beta, int& best, Move& best_move, int& searched);
  // A split of the node at ply whose moves[i..] are to be shared out (not yet open to helpers).
  NodeSplit open_node_split(const MoveList& moves, std::size_t i, int depth, int my_credit, int his_credit, int ply,
                            int threat, int alpha, int beta, int best, Move best_move, int searched);
  // Opens the split to the idle workers, works on it and waits for its helpers to finish.
  void share_out(Position& pos, NodeSplit& split);
  void work_on_node_split(Position& pos, NodeSplit& split);
  int search_split_child(Position& pos, NodeSplit& split, std::size_t i);
  // count_good_alternatives' moves[i..] (but moves[skip]) among the workers, good of them counted
  // already: the number that reach threshold, at most limit.
  int search_offset_split(Position& pos, const MoveList& moves, std::size_t i, std::size_t skip, int threshold,
                          int depth, int ply, int limit, int good);
  int search_offset_child(Position& pos, NodeSplit& split, std::size_t i);
  // Whether count_good_alternatives shares out its offset searches from the one after next on.
  bool offset_splits_here(Position& pos, Move next, int offset_depth);
  bool splits_here(bool pv_node, int searched, int depth) const;
  // At a node whose children go to the chips: splits when the next child is a software search.
  bool splits_for_software_child(Position& pos, Move next, int searched, int depth, int my_credit, int his_credit);

  TranspositionTable& tt_;
  SearchOptions options_;
  LeafSearch* leaf_ = nullptr;
  std::atomic<bool> stop_{false};
  std::atomic<bool> pondering_{false};
  Limits limits_;
  std::chrono::steady_clock::time_point start_;
  std::int64_t normal_ms_ = 0;  // AIJ 8.4 normal target (0: none)
  std::int64_t panic_ms_ = 0;   // panic target, a hard limit (0: none)
  bool root_in_trouble_ = false;
  int previous_score_ = 0;  // the last completed iteration's score (two-part)
  bool strive_for_draw_ = false;
  // The leaves' evaluation for this search (null: the interim one); shared with the helpers.
  std::shared_ptr<const StaticEvaluator> evaluator_;
  StaticEvaluator::LazyControl lazy_;             // margin 0: off
  int slow_estimate_ = 0;                         // the lazy evaluation's estimate of the slow part, white's view
  std::uint64_t lazy_cuts_ = 0;                   // stand pats the lazy evaluation decided
  std::vector<std::pair<Move, int>> root_bonus_;  // this search's Limits::root_bonus
  std::uint64_t nodes_ = 0;
  // Software nodes (nodes_ without the chips'), and how many of them the leaf searcher has been
  // told of (its cost model for the host's time: LeafSearch::software_nodes).
  std::uint64_t software_nodes_ = 0, software_nodes_told_ = 0;
  std::uint64_t stop_checks_ = 0;     // calls of should_stop (the clock is read every 1024th)
  std::uint64_t job_node_limit_ = 0;  // search_job's software node limit (0: none)
  bool job_overflow_ = false;         // and whether it was passed (or the job's own hardware search was)
  int job_root_ply_ = -1;             // search_job's root (-1: not searching a job)
  std::uint64_t extensions_ = 0;
  int seldepth_ = 0;
  int max_software_ply_ = 0;
  // Per ply: the move played from it and the legal moves there (influence and no-progress look back).
  Move path_[130];
  const MoveList* lists_[130] = {};
  // The move ordering's killers and history. A parallel search's workers share the master's
  // (shared()): a refutation that one worker finds orders the moves of the siblings that the
  // others search, as it orders the later siblings' in the sequential search. With a table each,
  // a helper tried its siblings' refutation late and searched up to 1.5x the sequential tree on the
  // quiet set (docs/search.md). The workers run one at a time (parallel_scheduler.h): no lock.
  Move killers_[130][2];
  int history_[2][64][64] = {};
  // The searcher whose state the workers share: the master's (a sequential search's own).
  Searcher& shared() { return master_ ? *master_ : *this; }
  const Searcher& shared() const { return master_ ? *master_ : *this; }
  // Parallel search: a helper's master (nullptr in the master or a sequential search), the master's
  // workers during a run, and the splits the workers share.
  Searcher* master_ = nullptr;
  ParallelWorkers* parallel_ = nullptr;
  RootSplit* split_ = nullptr;
  int worker_ = 0;  // this worker's number (0: the master)
  // The master's copy of the last run's counts, and of the scheduler's wait_clocks().
  std::uint64_t splits_ = 0, helper_splits_ = 0, offset_splits_ = 0, root_moves_given_back_ = 0;
  std::uint64_t early_first_moves_ = 0, early_first_moves_dropped_ = 0;
  int max_depth_ = 0;  // this run's last iteration (no first move is searched early past it)
  std::array<std::uint64_t, 3> wait_clocks_{};
  // The master's, for all workers (one runs at a time): positions whose hardware search passed (or
  // would pass) the node limit in this search, with the smallest depth at which it did; the
  // software searches them itself at that depth or deeper.
  std::unordered_map<Key, int> too_big_;
  std::uint64_t too_big_skips_ = 0;
  bool too_big_for_chips(Key key, int depth) const {
    const auto& known = shared().too_big_;
    const auto it = known.find(key);
    return it != known.end() && depth >= it->second;
  }
  void too_big_for_chips_from(Key key, int depth) {
    const auto [it, added] = shared().too_big_.try_emplace(key, depth);
    if (!added) it->second = std::min(it->second, depth);
  }
  // The master's, for all workers: the chips' answers in this search (chip_answers.h), made at the
  // first search with chips, cleared at each.
  std::unique_ptr<ChipAnswers> chip_answers_;
  // nullptr when they are not kept (SearchOptions::keep_chip_answers).
  ChipAnswers* chip_answers() { return shared().chip_answers_.get(); }
  void clear_chip_answers() {
    if (!leaf_ || !options_.keep_chip_answers) {  // no chips, no answers (and no 3 MiB)
      chip_answers_.reset();
    } else if (chip_answers_) {
      chip_answers_->clear();
    } else {
      chip_answers_ = std::make_unique<ChipAnswers>();
    }
  }
  const NodeSplit* node_task_ = nullptr;  // a helper's: the split it joined (its cutoff stops it)
  // A helper's null-window search of a root move: it stops (stopped_for_root_) when another root
  // move starts its re-search after failing high, since the root's alpha is about to rise
  // (search_root_move).
  const RootSplit* root_task_ = nullptr;
  bool stopped_for_root_ = false;
  // A helper's early search of the next iteration's first move: it stops when that move is dropped.
  const EarlyFirstMove* early_task_ = nullptr;
  NodeJob* job_ = nullptr;    // a node worker's: the job it searches (its cancel stops it)
  JobQueue* jobs_ = nullptr;  // a node's master (begin_node): where its workers find jobs
  void search_node_job(NodeJob& job);
  // One job: "is the value of job.position >= job.test?", the position being reached from the root
  // by job.path, by a dual-credit search of job.depth plies from the job's credits (its last plies
  // on the chips), mates counted from the root. The table, killers and history carry over from job
  // to job. job.software_node_limit (0: none) ends a job that grows too large for a worker
  // (overflow: the master splits it).
  JobOutcome search_job(const NodeJob& job);
  // The legal moves of the two positions above a job's root, which the master's search had in
  // lists_ there (the influence credit and "no progress" look two plies back).
  MoveList job_lists_[2];
  // The split whose move this worker is searching (a split made below it is nested in it).
  const NodeSplit* current_split_ = nullptr;
};

}  // namespace db::search
