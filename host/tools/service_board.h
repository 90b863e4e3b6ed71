// A stand-in board for `deepblue boardsim --board service`: the bytes the host writes are split into
// frames and answered by the chip server's own request handler (chipd_service.h) over in-process
// chips. It has no UART and no bit timing: a frame is answered as soon as its delimiter is in, and
// the whole reply comes out of the next run(). It tests the host's serial path (the pseudo-terminal,
// Connection over a serial port, the retry rules) without the RTL; the verilated bridge and board
// top replace it when they exist.
//
// Like a board on a UART it has one host and no connection whose end it would see: HELLO begins a new
// session (the previous session's jobs end and its chips are reset and released). It drops a partial
// frame after an inter-byte timeout (counted in the clocks run() is given while no byte comes) and
// answers it with ERROR BAD_FRAME (sequence number 0xFFFF).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "board_registry.h"
#include "chipd_service.h"
#include "link/frame.h"
#include "link/simulated_board.h"

namespace db::boardsim {

class ServiceBoard final : public link::SimulatedBoard {
 public:
  // Throws std::invalid_argument for a chip count out of 1-1024 or an unknown chip backend.
  explicit ServiceBoard(const BoardOptions& options);
  void receive(const std::uint8_t* data, std::size_t n) override;
  std::uint64_t run(std::uint64_t clocks, std::vector<std::uint8_t>& out) override;
  bool idle() const override;
  std::uint64_t interbyte_timeout_clocks() const override { return kInterbyteTimeoutClocks; }
  std::uint32_t clock_hz() const override { return kClockHz; }
  std::uint32_t baud() const override { return baud_; }
  std::string describe() const override;

  // Its notional clock: the chip's 24 MHz; the inter-byte timeout: 100 ms of it.
  static constexpr std::uint32_t kClockHz = 24000000;
  static constexpr std::uint64_t kInterbyteTimeoutClocks = kClockHz / 10;

  // Reply frames sent, dropped and damaged (test hooks), partial frames dropped after the timeout.
  struct Counters {
    std::uint64_t replies = 0;
    std::uint64_t dropped = 0;
    std::uint64_t garbled = 0;
    std::uint64_t timeouts = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  void emit(const link::Frame& frame, std::vector<std::uint8_t>& out);
  void emit(const std::vector<chipd::Outgoing>& replies, std::vector<std::uint8_t>& out);

  BoardOptions options_;
  std::uint32_t baud_;
  std::unique_ptr<chipd::ChipService> service_;
  chipd::ClientId session_ = 1;  // the host's session; a HELLO starts the next one
  link::FrameDecoder decoder_;
  std::vector<std::uint8_t> input_;
  std::uint64_t quiet_clocks_ = 0;  // clocks run with a partial frame and no byte
  Counters counters_;
};

}  // namespace db::boardsim
