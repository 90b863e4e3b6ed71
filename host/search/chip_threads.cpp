// See chip_threads.h.
#include "search/chip_threads.h"

#include <stdexcept>

namespace db::search {

ChipThreads::ChipThreads(int threads) {
  if (threads < 1) throw std::invalid_argument("chip threads: at least 1");
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ChipThreads::~ChipThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ChipThreads::drain(std::unique_lock<std::mutex>& lock) {
  while (batch_ && next_ < batch_->size()) {
    const std::function<void()>& task = (*batch_)[next_++];
    ++running_;
    lock.unlock();
    task();
    lock.lock();
    --running_;
    idle_.notify_all();
  }
}

void ChipThreads::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || (batch_ && next_ < batch_->size()); });
    if (stop_) return;
    drain(lock);
  }
}

void ChipThreads::run(const std::function<void()>& first, const std::vector<std::function<void()>>& rest) {
  if (workers_.empty() || rest.empty()) {
    first();
    for (const auto& task : rest) task();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    batch_ = &rest;
    next_ = 0;
  }
  wake_.notify_all();
  first();
  std::unique_lock<std::mutex> lock(mutex_);
  drain(lock);
  idle_.wait(lock, [this] { return running_ == 0; });
  batch_ = nullptr;
}

}  // namespace db::search
