// The in-process transaction-level chip. See search_chip.h.
#include "chip/search_chip.h"

#include <stdexcept>

#include "chip/chip_regs.h"

namespace db::chip {

void LocalSearchChip::load_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation) {
  if (generation != 0 && generation == generation_) return;
  for (const WriteBlock& b : weights) {
    for (std::size_t i = 0; i < b.data.size(); ++i) chip_->write(b.addr + std::uint32_t(i), b.data[i]);
  }
  generation_ = generation;
}

void LocalSearchChip::start(const SearchJob& job) {
  if (job_load_ == JobLoad::kPacked) {
    chip_->start_job(job.start, job.history, job.params);
  } else {
    chip_->load(job.start);
    chip_->eval_init();
    for (std::uint16_t m : job.history) chip_->make(m);
    chip_->start_search(job.params);
  }
  job_clock_ = chip_->backend().clock();
}

RunOutcome LocalSearchChip::end_run() {
  RunOutcome out;
  ChipBackend& backend = chip_->backend();
  for (;;) {
    backend.tick(kQuantum);
    ++out.quanta;
    if (!chip_->busy()) {
      out.done = true;
      out.result = chip_->search_result();
      return out;
    }
    if (budget_ != 0 && out.quanta == budget_) return out;
  }
}

SearchResult LocalSearchChip::abort() {
  // ABORT stops the command at the next clock, and the write is that clock: the chip is idle once
  // it returns (docs/chip.md), and the next job's JOB command reloads the position.
  chip_->abort();
  const ChipBackend& backend = chip_->backend();
  return aborted_search(backend.debug().nodes, backend.clock() - job_clock_);
}

SearchResult aborted_search(std::uint32_t nodes, std::uint64_t clocks) {
  SearchResult r;
  r.aborted = true;
  r.nodes = nodes;
  r.cycles = clocks;
  return r;
}

}  // namespace db::chip
