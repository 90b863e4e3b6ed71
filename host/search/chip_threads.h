// OS threads that clock in-process chips while the software search waits for one of them (AIJ 6:
// the host kept its 16 chips busy; here the chips are simulated, and a machine with several cores
// can simulate several at once). A fork-join pool: run() hands a batch of tasks to the pool's
// threads, runs one task itself on the calling thread, helps with the rest, and returns when all
// are done. Tasks must not throw (ChipLeafSearch catches inside them).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace db::search {

class ChipThreads {
 public:
  // threads: the calling thread and threads - 1 more (1: everything on the caller).
  explicit ChipThreads(int threads);
  ~ChipThreads();
  ChipThreads(const ChipThreads&) = delete;
  ChipThreads& operator=(const ChipThreads&) = delete;

  int threads() const { return int(workers_.size()) + 1; }
  // Runs first on the calling thread while the pool runs rest (each task once, by whichever thread
  // takes it first); then the caller takes what is left; returns when every task has ended.
  void run(const std::function<void()>& first, const std::vector<std::function<void()>>& rest);

 private:
  void work();
  // Takes and runs tasks of the current batch until none is left to take.
  void drain(std::unique_lock<std::mutex>& lock);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;  // a batch to work on, or stop
  std::condition_variable idle_;  // a task of the batch ended
  const std::vector<std::function<void()>>* batch_ = nullptr;
  std::size_t next_ = 0;     // the next task to take
  std::size_t running_ = 0;  // tasks taken and not ended
  bool stop_ = false;
};

}  // namespace db::search
