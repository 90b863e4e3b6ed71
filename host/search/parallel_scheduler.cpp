#include "search/parallel_scheduler.h"

#include <stdexcept>

namespace db::search {

Scheduler::Scheduler(int workers, LeafSearch& chips)
    : chips_(chips),
      state_(std::size_t(workers), State::kBlocked),
      ready_(std::size_t(workers)),
      why_(std::size_t(workers), kWork),
      baton_changed_(std::size_t(workers)) {
  state_[0] = State::kRunning;
  // A started thread runs only when a block() elsewhere finds its condition true; until it has run
  // once, its condition is "go".
  for (auto& r : ready_) r = [] { return true; };
}

void Scheduler::wait_for_baton(int me) {
  std::unique_lock<std::mutex> lock(mutex_);
  baton_changed_[std::size_t(me)].wait(lock, [&] { return baton_ == me; });
}

int Scheduler::next_to_unwind() {
  for (std::size_t w = 1; w < state_.size(); ++w) {
    if (state_[w] == State::kBlocked) {
      state_[w] = State::kRunning;
      ready_[w] = nullptr;
      return int(w);
    }
  }
  state_[0] = State::kRunning;
  ready_[0] = nullptr;
  return 0;
}

void Scheduler::abandon() { failed_ = true; }

void Scheduler::fail(std::exception_ptr error) {
  failed_ = true;
  if (!error_ && !thrown_) error_ = std::move(error);
}

int Scheduler::choose() {
  for (;;) {
    if (failed_) return next_to_unwind();
    // Fixed order: the lowest-numbered worker whose condition holds runs next.
    for (std::size_t w = 0; w < state_.size(); ++w) {
      if (state_[w] == State::kBlocked && ready_[w]()) {
        state_[w] = State::kRunning;
        ready_[w] = nullptr;
        return int(w);
      }
    }
    // Every worker waits: the chips run on (the simulated time passes) until an answer arrives.
    const std::uint64_t before = chips_.stats().parallel_clocks;
    try {
      if (!chips_.step()) throw std::logic_error("every software worker waits and no chip is searching");
    } catch (...) {
      fail(std::current_exception());
      continue;
    }
    const std::uint64_t clocks = chips_.stats().parallel_clocks - before;
    for (std::size_t w = 0; w < state_.size(); ++w) {
      if (state_[w] == State::kBlocked) wait_clocks_[why_[w]] += clocks;
    }
  }
}

void Scheduler::hand_over(int me, int next, bool wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  baton_ = next;
  baton_changed_[std::size_t(next)].notify_one();
  if (wait) baton_changed_[std::size_t(me)].wait(lock, [&] { return baton_ == me; });
}

void Scheduler::block(int me, std::function<bool()> ready, Wait why) {
  state_[std::size_t(me)] = State::kBlocked;
  why_[std::size_t(me)] = why;
  ready_[std::size_t(me)] = std::move(ready);
  const int next = choose();
  if (next != me) hand_over(me, next, true);
  if (!failed_) return;
  if (me != 0) throw Aborted{};
  if (error_) {
    // Once: a block() while worker 0 unwinds (the helpers' end) returns.
    const std::exception_ptr error = error_;
    error_ = nullptr;
    thrown_ = true;
    std::rethrow_exception(error);
  }
}

void Scheduler::exit(int me) {
  state_[std::size_t(me)] = State::kDone;
  ready_[std::size_t(me)] = nullptr;
  bool others = false;
  for (State s : state_) others |= s != State::kDone;
  if (others) hand_over(me, choose(), false);
}

}  // namespace db::search
