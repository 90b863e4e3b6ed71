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

int Scheduler::choose() {
  for (;;) {
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
    if (!chips_.step()) throw std::logic_error("every software worker waits and no chip is searching");
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
}

void Scheduler::exit(int me) {
  state_[std::size_t(me)] = State::kDone;
  ready_[std::size_t(me)] = nullptr;
  bool others = false;
  for (State s : state_) others |= s != State::kDone;
  if (others) hand_over(me, choose(), false);
}

}  // namespace db::search
