// Chips behind a link (docs/link.md): a `deepblue chipd` server, later a board. Two views of one
// remote chip, over a shared connection:
// - RemoteBackend, the clock-level ChipBackend: writes and idle clocks are queued and sent in one
//   ACCESS batch when the host reads (a read needs its answer), so that a ChipClient's perft, eval or
//   weight download costs a round trip per read, not per clock. A write the chip refuses surfaces as
//   a ChipError at the batch's end, after the ops before it took effect.
// - RemoteSearchChip, the transaction-level SearchChip: a job is one ACCESS batch (position, history,
//   search registers) and one RUN, sent together; weights go only to a chip whose generation tag
//   differs.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chip/bus.h"
#include "chip/search_chip.h"
#include "link/connection.h"

namespace db::chip {

// One server's connection, shared by the chips claimed on it.
using LinkPtr = std::shared_ptr<link::Connection>;

class RemoteBackend final : public ChipBackend {
 public:
  RemoteBackend(LinkPtr link, std::uint16_t chip);
  ~RemoteBackend() override;
  BusResponse access(bool write, std::uint32_t addr, std::uint32_t data) override;
  void tick(std::uint64_t n) override;
  DebugPort debug() const override;
  std::uint64_t clock() const override { return clock_; }
  std::string name() const override;
  // Sends the queued ops and waits for their reply.
  void flush();

 private:
  void queue(link::AccessOp op, std::size_t bytes);
  link::AccessReply send_batch();

  LinkPtr link_;
  std::uint16_t chip_;
  std::vector<link::AccessOp> pending_;
  std::size_t pending_bytes_ = 0;
  std::uint64_t clock_ = 0;  // the chip's clock, queued ops included
};

class RemoteSearchChip final : public SearchChip {
 public:
  RemoteSearchChip(LinkPtr link, std::uint16_t chip) : link_(std::move(link)), chip_(chip) {}
  void load_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation) override;
  void start(const SearchJob& job) override;
  void begin_run(std::uint64_t max_quanta) override;
  RunOutcome end_run() override;
  SearchResult abort() override;
  std::uint64_t round_trips() const override { return link_->stats().round_trips; }
  const LinkPtr& link() const { return link_; }

 private:
  void send_weights(const std::vector<WriteBlock>& weights, std::uint64_t generation);
  void send_start(const SearchJob& job);
  SearchResult result_of(const std::array<std::uint32_t, 7>& words);
  JobRegisters job_registers_;  // what the chip's job registers hold (as ChipClient keeps it)
  void send_run(std::uint64_t max_quanta);
  RunOutcome receive_run();
  SearchResult abort_search();
  // Waits for the start batch's reply and checks that the chip took every write.
  void check_start();
  // Runs op; a link failure (timeout, damaged or missing reply, closed connection) closes the
  // connection, so that no later reply is trusted, and becomes ChipLost.
  template <class Op>
  auto guarded(const char* what, Op&& op);

  LinkPtr link_;
  std::uint16_t chip_;
  std::uint64_t generation_ = 0;  // the weights the chip holds (its tag)
  int start_seq_ = -1;            // the start batch not yet checked
  int run_seq_ = -1;              // the RUN under way
  std::uint64_t job_clock_ = 0;   // the chip's clock after the job's start batch
};

// "remote:HOST:PORT[,HOST:PORT...]": whether a backend name is a remote one, and the servers it
// names; throws std::invalid_argument naming the bad part.
bool is_remote_backend(const std::string& name);
// "serial:PATH[@BAUD]": a board (or `deepblue boardsim`) behind a serial port, at BAUD (default
// 3,000,000); throws std::invalid_argument naming the bad part (no path, a baud that is no number).
bool is_serial_backend(const std::string& name);
link::SerialPort parse_serial_backend(const std::string& name);
// Either: chips behind a link, claimed with claim_remote_chips.
bool is_link_backend(const std::string& name);
struct ServerAddress {
  std::string host;
  std::uint16_t port = 0;
};
std::vector<ServerAddress> parse_remote_backend(const std::string& name);

// The chips of the servers (every free chip of each, in server order), or of the board on the serial
// port, each claimed on its server's connection; `wanted` > 0 takes only that many (an error if the
// servers have fewer). timeout: how long a reply may take before the link is given up (a hung server).
struct RemoteChip {
  LinkPtr link;
  std::uint16_t chip = 0;
};
constexpr std::chrono::milliseconds kDefaultLinkTimeout{10000};
std::vector<RemoteChip> claim_remote_chips(const std::string& name, int wanted,
                                           std::chrono::milliseconds timeout = kDefaultLinkTimeout);

}  // namespace db::chip
