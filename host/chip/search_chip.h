// The transaction-level chip interface: one hardware search per job, whatever the chip is behind
// (an in-process model or RTL chip, a chip behind `deepblue chipd`, a board). The clock-level
// interface (ChipBackend, one clock per call) is right for co-simulation and for the commands a host
// runs once (perft, eval); over a wire it would cost a round trip per clock quantum. A search job
// instead costs a start (its registers in one batch) and a run (the chip clocks itself until done).
//
// Simulated time is defined in quanta: while a search runs, its chip is clocked kQuantum clocks and
// then its status is polled (one more clock, a bus read). A search that ends within a quantum is seen
// at that quantum's poll. A run with a budget of k quanta stops the chip exactly after its k-th
// poll, so a host that runs every chip it keeps busy up to the same quantum, and aborts a search
// only at a quantum boundary, gets the same node counts and times as one clocking all chips in
// lock-step quantum by quantum (docs/search.md, "Chips as transactions").
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chip/chip_client.h"

namespace db::chip {

// One hardware search: the position at the start of the history, the moves since then (made on the
// chip so that its repetition detector sees them), and the search's parameters.
struct SearchJob {
  ChipPosition start;
  std::vector<std::uint16_t> history;  // chip move words
  SearchParams params;
};

// A consecutive run of register writes (address auto-incrementing).
struct WriteBlock {
  std::uint32_t addr = 0;
  std::vector<std::uint32_t> data;
};

struct RunOutcome {
  bool done = false;         // the search ended (result valid); else the budget was spent
  std::uint64_t quanta = 0;  // quanta run by this call
  SearchResult result;       // when done
};

// A chip that can no longer be used: its link failed (the server died, hung or answered garbage).
// Its search is lost; whoever holds it drops the chip and runs the job elsewhere. Distinct from a
// ChipError, which is a chip refusing a request (a host bug, not a fault).
class ChipLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SearchChip {
 public:
  static constexpr std::uint64_t kQuantum = 16;

  virtual ~SearchChip() = default;
  // Downloads the evaluation weights unless the chip already holds this generation (a host tags
  // each set of weights it builds; 0 is never a valid tag).
  virtual void load_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation) = 0;
  // The generation of weights the chip holds (0: unknown), and a note that this generation reached
  // it another way (its card broadcast the same writes to all its chips).
  virtual std::uint64_t weights_generation() const { return 0; }
  virtual void weights_broadcast(std::uint64_t /*generation*/) {}
  // Loads the job and starts its search; returns at once (the chip is not clocked beyond the
  // accesses that load it). Throws ChipError when the chip refuses the job.
  virtual void start(const SearchJob& job) = 0;
  // Split-phase run of the started search: begin_run() lets the chip run up to max_quanta more
  // quanta (0: until the search ends), end_run() waits for it. Chips behind one link run
  // concurrently between the two calls.
  virtual void begin_run(std::uint64_t max_quanta) = 0;
  virtual RunOutcome end_run() = 0;
  // Aborts a search stopped by its budget, where it stands, without reading its result (the host
  // has no use for it, and on the Micro Channel every read is bus time): one ABORT write. Returns
  // the counts for the statistics (aborted_search), taken beside the bus.
  virtual SearchResult abort() = 0;
  // Every call above throws ChipLost when the chip is gone; it then stays gone.
  // The clock-level client, for a host that clocks the chip itself (the Micro Channel model's
  // timeline); nullptr for a chip behind a link.
  virtual ChipClient* client() { return nullptr; }
  // Round trips to the chip so far (0 in process).
  virtual std::uint64_t round_trips() const { return 0; }
};

// An aborted search as its host counts it: `aborted` set, the nodes of the chip's debug port, and
// the clocks from the start of its job (the JOB command, or SEARCH with JobLoad::kRegisters) to its
// ABORT, the load included (a finished search counts CYCLES, from its SEARCH step). In process the
// counts come from the backend, through a link from the ABORT's reply and a DEBUG request, so a
// chip behind a link counts the same clocks as in process.
SearchResult aborted_search(std::uint32_t nodes, std::uint64_t clocks);

// How a host loads a search job into a chip: one JOB (the staging registers and one command, about
// 20 accesses: ChipClient::start_job), or the registers as before interface version 2 (the board
// square by square, the state, EVAL_INIT, MAKE after MAKE, the parameters, SEARCH: about 85
// accesses, each MAKE and EVAL_INIT waited for). The same search either way; kept to measure.
enum class JobLoad { kPacked, kRegisters };

// A chip in this process, through its clock-level client.
class LocalSearchChip final : public SearchChip {
 public:
  explicit LocalSearchChip(std::unique_ptr<ChipClient> chip, JobLoad load = JobLoad::kPacked)
      : chip_(std::move(chip)), job_load_(load) {}
  void load_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation) override;
  std::uint64_t weights_generation() const override { return generation_; }
  void weights_broadcast(std::uint64_t generation) override { generation_ = generation; }
  void start(const SearchJob& job) override;
  void begin_run(std::uint64_t max_quanta) override { budget_ = max_quanta; }
  RunOutcome end_run() override;
  SearchResult abort() override;
  ChipClient* client() override { return chip_.get(); }

 private:
  std::unique_ptr<ChipClient> chip_;
  JobLoad job_load_;
  std::uint64_t generation_ = 0;
  std::uint64_t budget_ = 0;
  std::uint64_t job_clock_ = 0;  // the chip's clock once its job was started
};

}  // namespace db::chip
