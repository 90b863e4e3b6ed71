#include "search/search.h"

#include <algorithm>
#include <exception>
#include <thread>

#include "chess/see.h"
#include "search/interim_eval.h"
#include "search/no_progress.h"
#include "search/score.h"
#include "search/search_internal.h"

namespace db::search {

void Searcher::clear_history() {
  for (auto& k : killers_) k[0] = k[1] = Move::none();
  for (auto& side : history_)
    for (auto& from : side)
      for (int& h : from) h = 0;
}

double Searcher::elapsed_ms() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
}

int Searcher::job_goes_back(int alpha) {
  // A cluster job that is itself one hardware search, too big for the chips: the master searches it
  // in software as one node does (AIJ 6.1's abort and re-split), its children as jobs on every
  // node, and predicts the next such overflow from the answers' node counts. Searched here instead,
  // its children would have only this node's idle chips, on the master's critical path.
  job_overflow_ = true;
  stop_ = true;
  return alpha;
}

bool Searcher::should_stop() {
  if (job_node_limit_ && software_nodes_ >= job_node_limit_) {  // a cluster job grown too big for its node
    job_overflow_ = true;
    return stop_ = true;
  }
  // A helper worker stops with its master (its limits, clock and node count are the master's).
  if (master_) {
    // ... and abandons a PV node's move when another worker's move there has cut off.
    if (master_->should_stop() || (node_task_ && node_split_cut_off(*node_task_)) || (job_ && job_->cancel))
      stop_ = true;
    if (!stop_ && root_task_ && root_split_resolving(*root_task_)) stopped_for_root_ = stop_ = true;
    if (!stop_ && early_task_ && early_first_move_dropped(*early_task_)) stop_ = true;
    return stop_;
  }
  if (stop_.load(std::memory_order_relaxed)) return true;
  if (limits_.nodes && nodes_ >= limits_.nodes) return stop_ = true;
  if (leaf_ && limits_.chip_movetime_ms > 0 &&
      double(leaf_->stats().parallel_clocks) >= double(limits_.chip_movetime_ms) * (kChipClockHz / 1000))
    return stop_ = true;
  // The clock is read every 1024th call, or every call when the chips search the leaves (a chip's
  // answer takes thousands of times as long as a software node).
  if (((++stop_checks_ & 1023) == 0 || leaf_) && !pondering_.load(std::memory_order_relaxed) && !limits_.infinite) {
    const double t = elapsed_ms();
    // AIJ 8.4: at the normal target stop unless the root is in trouble; the panic target is hard.
    if ((panic_ms_ > 0 && t >= double(panic_ms_)) || (normal_ms_ > 0 && t >= double(normal_ms_) && !root_in_trouble_))
      return stop_ = true;
  }
  return false;
}

void Searcher::record_cutoff(const Position& pos, Move m, int depth, int ply) {
  if (m.is_capture() || m.is_promotion()) return;
  Searcher& o = shared();
  if (o.killers_[ply][0] != m) o.killers_[ply][1] = o.killers_[ply][0], o.killers_[ply][0] = m;
  o.history_[pos.side_to_move()][m.from()][m.to()] += depth * depth;
}

void Searcher::order_moves(const Position& pos, MoveList& moves, Move tt_move, int ply) const {
  int keys[MoveList::kCapacity];
  const auto& killers = shared().killers_;
  const auto& history = shared().history_;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    int k;
    if (m == tt_move) {
      k = 1 << 30;
    } else if (m.is_capture() || m.is_promotion()) {
      // Most valuable victim, then least valuable attacker: the chip's capture order too.
      const PieceType victim = m.is_en_passant() ? PAWN : m.is_capture() ? type_of(pos.piece_on(m.to())) : PAWN;
      k = (1 << 28) + piece_value(victim) * 16 - int(type_of(pos.piece_on(m.from()))) +
          (m.promotion() == QUEEN ? 8000 : 0);
      // A capture that loses material by static exchange goes after the quiet moves (the
      // quiescence search does not search them at all: it does not ask).
      if (ply < kMaxPly && options_.static_exchange && !m.is_promotion() && !see_ge(pos, m, 0)) k -= 1 << 29;
    } else if (ply < kMaxPly && (m == killers[ply][0] || m == killers[ply][1])) {
      k = (1 << 27) + (m == killers[ply][0]);
    } else {
      k = history[pos.side_to_move()][m.from()][m.to()];
    }
    keys[i] = k;
  }
  for (std::size_t i = 1; i < moves.size(); ++i) {  // insertion sort: lists are short
    const Move m = moves[i];
    const int k = keys[i];
    std::size_t j = i;
    for (; j > 0 && keys[j - 1] < k; --j) {
      moves[j] = moves[j - 1];
      keys[j] = keys[j - 1];
    }
    moves[j] = m;
    keys[j] = k;
  }
}

// The alternative path of "no progress": from the position two plies up, A-C followed by the same
// reply must be legal (the reply may depend on where our piece stands). Leaves pos as it found it.
bool Searcher::reachable_directly(Position& pos, Move earlier, Move reply, Move now) {
  const Move direct(earlier.from(), now.to(), QUIET);
  pos.unmake_move(reply);
  pos.unmake_move(earlier);
  pos.make_move(direct);
  const bool legal = pos.is_legal(reply);
  pos.unmake_move(direct);
  pos.make_move(earlier);
  pos.make_move(reply);
  return legal;
}

int Searcher::dual_credit(Position& pos, int alpha, int beta, int depth, int my_credit, int his_credit, int ply,
                          bool pv_node) {
  const TTEntry* entry = tt_.probe(pos.key());
  if (entry && options_.dual_credit) {  // preserve the search envelope
    my_credit = std::max<int>(my_credit, entry->my_credit);
    his_credit = std::max<int>(his_credit, entry->his_credit);
  }
  if (options_.dual_credit) {
    const CashIn c = cash_in(my_credit, his_credit);
    depth += c.extension_plies;
    extensions_ += std::uint64_t(c.extension_plies);
    my_credit = c.my_credit;
    his_credit = c.his_credit;
  }
  if (depth <= 0 && !leaf_) return quiescence(pos, alpha, beta, ply, options_.quiescence_checks);
  ++nodes_;
  ++software_nodes_;
  seldepth_ = std::max(seldepth_, ply);
  max_software_ply_ = std::max(max_software_ply_, ply);
  if (should_stop()) return 0;
  // Draws (AIJ 4.3): a repetition's tie-breaker counts the moves until it, a dead position's is
  // its static evaluation.
  if (pos.is_repetition()) return draw_score(ply, repetition_tie(ply));
  if (pos.has_insufficient_material()) return two_part(value_of(draw_score(ply)), draw_tie(pos));
  if (pos.halfmove_clock() >= 100 && !pos.is_checkmate()) return draw_score(ply);
  if (ply >= kMaxPly - 2) return static_score(pos);
  if (int tb; ply > 0 && probe_tablebases(pos, ply, tb)) return tb;

  // Mate distance pruning: no score here can beat a mate found nearer the root.
  alpha = std::max(alpha, S(-kMate + ply));
  beta = std::min(beta, S(kMate - ply - 1));
  if (alpha >= beta) return alpha;

  Move tt_move = Move::none();
  if (entry) {
    tt_move = entry->move;
    if (!pv_node && tt_settles(*entry, depth, alpha, beta, ply)) return score_from_tt(entry->score, ply);
  }
  if (leaf_ && depth <= (pv_node && beta - alpha > 1 ? leaf_->pv_depth() : leaf_->depth())) {
    const int chip_depth = std::max(depth, 1);
    if (too_big_for_chips(pos.key(), chip_depth)) {
      ++shared().too_big_skips_;
      if (ply == job_root_ply_) return job_goes_back(alpha);
    } else {
      const int score = chip_leaf(pos, alpha, beta, chip_depth, ply, my_credit, his_credit);
      if (score != kChipOverflow) return score;
      // The hardware search passed the node limit (AIJ 6.1): this node is searched in software, its
      // children's questions asked of the chips in parallel. A re-search of it (another window, a
      // deeper iteration) goes to the software at once rather than spending the limit again.
      too_big_for_chips_from(pos.key(), chip_depth);
      if (ply == job_root_ply_) return job_goes_back(alpha);
    }
  }

  MoveList moves;
  generate_legal(pos, moves);
  if (moves.empty()) return pos.in_check() ? S(-kMate + ply) : draw_score(ply);
  order_moves(pos, moves, tt_move, ply);
  // Nodes two plies down read this list (no progress, the influence credit); it dies with this
  // frame, so every way out of the node, a stop included, clears it.
  struct ListAtPly {
    const MoveList*& slot;
    ~ListAtPly() { slot = nullptr; }
  } list_at_ply{lists_[ply] = &moves};

  const bool prefetching = leaf_ && leaf_->chips() > 1 && depth - 1 <= leaf_->depth();
  struct CancelPrefetches {
    LeafSearch* leaf;
    int owner;
    ~CancelPrefetches() {
      if (leaf) leaf->cancel(owner);
    }
  } cancel_prefetches{prefetching ? leaf_ : nullptr, ply};
  // AIJ 6.1: the null-move threat search runs in parallel with the first move. Its answer is used
  // before the first move is searched, so the first move's question goes to an idle chip first
  // (a null window's: at a PV node the first move's window is wide); the same questions in the
  // same order, only sooner.
  if (prefetching && !pv_node && beta - alpha == 1 && options_.dual_credit)
    prefetch_child(pos, moves[0], alpha, beta, depth, my_credit, his_credit, ply);
  const int threat = options_.dual_credit ? threat_credit(pos, alpha, depth, ply) : 0;
  const int original_alpha = alpha;
  int best = -kInf;
  Move best_move = Move::none();
  int searched = 0;
  // With several chips, the children that go to the chips are started ahead once the first child
  // has not cut off (as in "young brothers wait": speculating before that measured no faster and
  // wasted a third of the chips' work): every later child is asked the same null-window question
  // (alpha, alpha + 1) until one fails high, or at a PV node until alpha rises (then the questions
  // still running are aborted and asked again). Those that a cutoff leaves unasked are aborted.
  std::size_t next_prefetch = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    // Parallel search: after its first move, a PV node of the master's shares the rest out.
    if (parallel_ && (splits_here(pv_node, searched, depth) ||
                      splits_for_software_child(pos, moves[i], searched, depth, my_credit, his_credit))) {
      search_node_split(pos, moves, i, depth, my_credit, his_credit, ply, threat, alpha, beta, best, best_move,
                        searched);
      if (stop_) return 0;
      break;
    }
    const Move m = moves[i];
    const bool null_window = searched > 0;
    for (next_prefetch = std::max(next_prefetch, i);
         prefetching && null_window && next_prefetch < moves.size() && leaf_->idle_chips() > 0; ++next_prefetch)
      prefetch_child(pos, moves[next_prefetch], alpha, alpha + 1, depth, my_credit, his_credit, ply);
    if (options_.no_progress && ply >= 2 && !pos.in_check() && lists_[ply - 2] && !path_[ply - 1].is_none() &&
        is_no_progress(path_[ply - 2], path_[ply - 1], m, *lists_[ply - 2]) &&
        reachable_directly(pos, path_[ply - 2], path_[ply - 1], m))
      continue;  // we could have played this two plies ago: a fail low here
    path_[ply] = m;
    pos.make_move(m);
    // Without dual credit, a plain check extension stands in for the credit system.
    const int new_depth = depth - 1 + (!options_.dual_credit && pos.in_check() ? 1 : 0);
    int score;
    if (searched == 0) {
      score = -dual_credit(pos, -beta, -alpha, new_depth, his_credit, my_credit, ply + 1, pv_node);
    } else {
      // NegaScout: a null window proves the move no better; a move that beats it is searched again.
      score = -dual_credit(pos, -alpha - 1, -alpha, new_depth, his_credit, my_credit, ply + 1, false);
      if (score > alpha && score < beta)
        score = -dual_credit(pos, -beta, -alpha, new_depth, his_credit, my_credit, ply + 1, pv_node);
    }
    ++searched;
    // Figure 1, lines 27-31: a move above expectation may earn credit, and is searched again with it.
    if (options_.dual_credit && !stop_ && score > alpha && score > best) {
      pos.unmake_move(m);
      const int credit = generate_credit(pos, moves, i, score, depth, ply, threat);
      path_[ply] = m;
      pos.make_move(m);
      if (credit > 0 && !stop_)
        score = -dual_credit(pos, -beta, -alpha, new_depth, his_credit, my_credit + credit, ply + 1, pv_node);
    }
    pos.unmake_move(m);
    if (stop_) return 0;
    if (score > best) {
      best = score;
      best_move = m;
      if (score > alpha) {
        alpha = score;
        if (prefetching && score < beta) {  // the questions asked ahead used the old alpha
          leaf_->cancel(ply);
          next_prefetch = i + 1;
        }
        if (score >= beta) {
          record_cutoff(pos, m, depth, ply);
          break;
        }
      }
    }
  }
  if (searched == 0) return original_alpha;  // every move pruned as no progress: fail low
  const Bound bound = best >= beta ? Bound::LOWER : best > original_alpha ? Bound::EXACT : Bound::UPPER;
  tt_.store(pos.key(), best_move, score_to_tt(best, ply), depth * kCreditUnit, bound, my_credit, his_credit);
  return best;
}

// A root move's search, its window and score offset by the move's extended-book bonus (AIJ 8.2):
// the move is worth its bonus more than its search says, so the book decides between moves the
// search finds close, and a clearly better move still wins. Mate scores keep their distance.
int Searcher::root_child(Position& pos, Move m, int alpha, int beta, int depth, int credit, bool pv) {
  int bonus = 0;
  for (const auto& [move, b] : root_bonus_)
    if (move == m) bonus = S(b);
  if (bonus == 0) return -dual_credit(pos, -beta, -alpha, depth - 1, 0, credit, 1, pv);
  const int raw = -dual_credit(pos, -(beta - bonus), -(alpha - bonus), depth - 1, 0, credit, 1, pv);
  return is_mate_score(value_of(raw)) ? raw : raw + bonus;
}

// The root: like an inner node, but it keeps the move order between iterations (best first) and
// tracks the AIJ 8.4 trouble states: the previous best failing low, a new move failing high.
// Only moves[first..] are searched (MultiPV: moves[0..first-1] are the lines already chosen in this
// iteration); the best of them moves to moves[first]. Line 1 (first == 0) alone sets the trouble
// state: it is about the move the machine would play.
int Searcher::search_root(Position& pos, MoveList& moves, std::size_t first, int depth, int alpha, int beta) {
  lists_[0] = &moves;
  const bool main_line = first == 0;
  int best = -kInf;
  std::size_t best_index = first;
  for (std::size_t i = first; i < moves.size(); ++i) {
    // Parallel search: the first move was searched alone (young brothers wait); the workers share
    // the rest.
    if (parallel_ && i > first) {
      search_root_split(pos, moves, first, i, depth, alpha, beta, best, best_index);
      break;
    }
    const Move m = moves[i];
    path_[0] = m;
    pos.make_move(m);
    int score;
    if (i == first) {
      // Overlapped iterations: a helper may have searched this move already (or be searching it).
      const bool early = main_line && alpha == -kInf && beta == kInf && take_early_first_move(m, depth, score);
      if (!early) score = root_child(pos, m, alpha, beta, depth, 0, true);
      // The previous best dropping 15 points or more (AIJ 8.4): search on until the iteration ends.
      if (main_line)
        root_in_trouble_ = depth > 1 && in_trouble({value_of(previous_score_), value_of(score), false, false});
    } else {
      score = root_child(pos, m, alpha, alpha + 1, depth, 0, false);
      if (score > alpha && score < beta) {
        const bool was_in_trouble = root_in_trouble_;
        if (main_line) root_in_trouble_ = true;  // a new move is failing high: resolve it before stopping
        score = root_child(pos, m, alpha, beta, depth, 0, true);
        if (main_line) root_in_trouble_ = was_in_trouble && score <= previous_score_ - S(15);
      }
    }
    // Credit looks at every root move as an alternative, the excluded lines too (their singularity
    // is the position's, not the line's).
    if (options_.dual_credit && !stop_ && score > alpha && score > best && moves.size() > 0) {
      pos.unmake_move(m);
      const int credit = generate_credit(pos, moves, i, score, depth, 0, 0);
      path_[0] = m;
      pos.make_move(m);
      if (credit > 0 && !stop_) score = root_child(pos, m, alpha, beta, depth, credit, true);
    }
    pos.unmake_move(m);
    if (stop_) break;
    if (score > best) {
      best = score;
      best_index = i;
      alpha = std::max(alpha, score);
    }
  }
  // Best move first for the next iteration (or the next MultiPV line).
  if (best_index > first)
    std::rotate(moves.begin() + first, moves.begin() + best_index, moves.begin() + best_index + 1);
  return best;
}

std::vector<Move> Searcher::extract_pv(Position pos, Move first) const {
  std::vector<Move> pv;
  Move m = first;
  while (!m.is_none() && pv.size() < 64 && pos.is_legal(m)) {
    pv.push_back(m);
    pos.make_move(m);
    if (pos.repetition_count() > 0) break;
    const TTEntry* e = tt_.probe(pos.key());
    m = e ? e->move : Move::none();
  }
  return pv;
}

SearchResult Searcher::run(const Position& root_in, const Limits& limits, const IterationCallback& on_iteration) {
  start_ = std::chrono::steady_clock::now();
  limits_ = limits;
  // stop_ is not cleared here: a stop() that arrives before this thread gets here must count.
  pondering_ = limits.ponder;
  nodes_ = 0;
  software_nodes_ = software_nodes_told_ = 0;
  extensions_ = 0;
  root_in_trouble_ = false;
  clear_history();
  tt_.new_search();
  // The attitude to draws for the tie-breaker of repetitions (AIJ 4.3): strive for one when the
  // root's static value is below the draw's (not from the last iteration's score, which would
  // flip once a draw is found). The chips score their repetitions with it too.
  set_evaluator(root_in);
  strive_for_draw_ = (evaluator_ ? evaluator_->evaluate(root_in) : interim_evaluate(root_in)) < -options_.contempt;
  if (leaf_) leaf_->new_search(root_in, strive_for_draw_);
  for (auto& l : lists_) l = nullptr;
  for (Move& m : path_) m = Move::none();

  normal_ms_ = panic_ms_ = 0;
  if (limits.movetime_ms > 0) {
    normal_ms_ = panic_ms_ = limits.movetime_ms;
  } else if (limits.clock.time_left_ms >= 0 && !limits.infinite) {
    const TimeTargets t = compute_time_targets(limits.clock);
    normal_ms_ = t.normal_ms;
    panic_ms_ = t.panic_ms;
  }

  Position root = root_in;
  SearchResult result;
  MoveList root_moves;
  generate_legal(root, root_moves);
  if (root_moves.empty()) {
    result.score = root.in_check() ? -kMate : kDraw;
    return result;
  }
  // A run that starts deeper (Limits::first_depth) follows the table's best move of the earlier run.
  const TTEntry* root_entry = limits.first_depth > 1 ? tt_.probe(root.key()) : nullptr;
  order_moves(root, root_moves, root_entry ? root_entry->move : Move::none(), 0);
  result.best = root_moves[0];
  tb_hits_ = 0;
  lazy_cuts_ = 0;
  const bool tb_root = play_tablebase_root(root, result, on_iteration);

  root_bonus_ = limits.root_bonus;  // before the helpers start: they copy it
  splits_ = helper_splits_ = offset_splits_ = root_moves_given_back_ = 0;
  early_first_moves_ = early_first_moves_dropped_ = 0;
  wait_clocks_ = {};
  too_big_.clear();
  clear_chip_answers();
  too_big_skips_ = 0;
  if (!tb_root && options_.workers > 1 && leaf_ && leaf_->supports_workers() && leaf_->chips() > 1) start_workers(root);
  // An exception out of the iterations (a cluster's malformed message, thrown on worker 0 by the
  // scheduler): the helpers are unwound and joined before it leaves.
  struct WorkersOnError {
    Searcher& searcher;
    const int uncaught = std::uncaught_exceptions();
    ~WorkersOnError() {
      if (std::uncaught_exceptions() > uncaught) searcher.abandon_workers();
    }
  } workers_on_error{*this};
  const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly / 2) : kMaxPly / 2;
  max_depth_ = max_depth;
  const std::size_t lines_wanted = std::size_t(std::clamp(options_.multipv, 1, int(root_moves.size())));
  int previous_score = 0;
  previous_score_ = 0;
  for (int depth = std::max(1, limits.first_depth); depth <= max_depth && !tb_root; ++depth) {
    seldepth_ = max_software_ply_ = 0;
    if (leaf_) leaf_->new_iteration(depth);
    int score = search_root(root, root_moves, 0, depth, -kInf, kInf);
    if (stop_ && depth > 1 && root_moves[0] == result.best) break;  // an interrupted iteration adds nothing
    if (stop_ && score == -kInf) break;                             // stopped before any root move had a score
    // Each line's PV is read from the table before the next line's search can overwrite it.
    std::vector<PvLine> lines{{root_moves[0], score, extract_pv(root, root_moves[0])}};
    // MultiPV: line i is the best of the moves not in lines 1..i-1, with a full window (exact).
    // A line that a stop interrupts is dropped, and so are the ones after it.
    for (std::size_t i = 1; i < lines_wanted && !stop_; ++i) {
      const int line_score = search_root(root, root_moves, i, depth, -kInf, kInf);
      if (stop_) break;
      lines.push_back({root_moves[i], line_score, extract_pv(root, root_moves[i])});
    }
    if (lines.size() > 1) {
      // Each line's score is exact, but a later line can come out higher than an earlier one (the
      // credit a move earns depends on the alpha it beats, and the table has changed): best first,
      // and the root keeps that order for the next iteration.
      std::stable_sort(lines.begin(), lines.end(), [](const PvLine& a, const PvLine& b) { return a.score > b.score; });
      for (std::size_t i = 0; i < lines.size(); ++i) root_moves[i] = lines[i].move;
      score = lines[0].score;
    }
    for (PvLine& line : lines) {  // the interfaces get the two parts apart
      line.tie = tie_of(line.score);
      line.score = value_of(line.score);
    }
    result.best = root_moves[0];
    result.score = value_of(score);
    result.tie = tie_of(score);
    result.depth = depth;
    result.pv = lines[0].pv;
    result.ponder = result.pv.size() > 1 ? result.pv[1] : Move::none();
    result.lines = std::move(lines);
    if (on_iteration) {
      on_iteration({depth, seldepth_, max_software_ply_, value_of(score), nodes_, extensions_, elapsed_ms() / 1000,
                    tt_.hashfull(), result.pv, result.lines});
    }
    if (stop_) break;
    if (is_mate(score) && limits.depth == 0 && depth > 2 * std::abs(mate_in_moves(value_of(score))) + 2) break;
    // AIJ 8.4 between iterations: past the normal target, stop unless the score dropped 15 points.
    if (normal_ms_ > 0 && !pondering_ && !limits.infinite) {
      const bool dropped = depth > 1 && in_trouble({value_of(previous_score), value_of(score), false, false});
      if (!dropped && elapsed_ms() >= double(normal_ms_) * 0.6) break;  // the next iteration would not finish
    }
    previous_score = previous_score_ = score;
  }
  if (parallel_) {
    drop_early_first_move();  // a first move of an iteration that will not run
    finish_workers();
  }
  // In ponder or infinite mode the GUI expects no bestmove before stop or ponderhit.
  while ((limits.infinite || pondering_) && !stop_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  stop_ = false;  // a time or node limit ends only this run
  result.nodes = nodes_;
  result.splits = splits_;
  result.helper_splits = helper_splits_;
  result.offset_splits = offset_splits_;
  result.root_moves_given_back = root_moves_given_back_;
  result.early_first_moves = early_first_moves_;
  result.early_first_moves_dropped = early_first_moves_dropped_;
  result.wait_answer_clocks = wait_clocks_[0];
  result.wait_work_clocks = wait_clocks_[1];
  result.wait_helpers_clocks = wait_clocks_[2];
  result.too_big_for_chips = too_big_skips_;
  result.tb_hits = tb_hits_;
  result.lazy_stand_pats = lazy_cuts_;
  result.tb_root = tb_root;
  if (leaf_) {
    tell_software_nodes();  // the software's time after its last question counts too
    result.leaf = leaf_->stats();
  }
  result.seconds = elapsed_ms() / 1000;
  return result;
}

}  // namespace db::search
