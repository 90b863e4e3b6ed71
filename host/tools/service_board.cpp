// The stand-in board. See service_board.h.
#include "service_board.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "chip/rtl_backend.h"
#include "link/connection.h"

namespace db::boardsim {

ServiceBoard::ServiceBoard(const BoardOptions& options)
    : options_(options), baud_(options.baud ? options.baud : link::kDefaultBaud) {
  if (options.chips < 1 || options.chips > 1024) {
    throw std::invalid_argument(fmt::format("--chips {} out of range 1-1024", options.chips));
  }
  if (options.chip_backend != "model" && options.chip_backend != "rtl" && options.chip_backend != "cosim") {
    throw std::invalid_argument(fmt::format("--chip-backend '{}' is not model, rtl or cosim", options.chip_backend));
  }
  chipd::ServiceOptions so;
  so.chips = options.chips;
  so.make_chip = [backend = options.chip_backend] { return chip::make_backend(backend); };
  so.backend = options.chip_backend == "rtl"     ? link::Backend::RTL
               : options.chip_backend == "cosim" ? link::Backend::COSIM
                                                 : link::Backend::MODEL;
  so.name = "deepblue boardsim service";
  service_ = std::make_unique<chipd::ChipService>(so);
}

std::string ServiceBoard::describe() const {
  return fmt::format("service stand-in: the link service over {} {} chip(s), no UART bit timing (nominal {} baud)",
                     options_.chips, options_.chip_backend, baud_);
}

void ServiceBoard::receive(const std::uint8_t* data, std::size_t n) { input_.insert(input_.end(), data, data + n); }

bool ServiceBoard::idle() const { return input_.empty() && !service_->busy(); }

void ServiceBoard::emit(const link::Frame& frame, std::vector<std::uint8_t>& out) {
  ++counters_.replies;
  if (options_.debug_drop_every && counters_.replies % options_.debug_drop_every == 0) {
    ++counters_.dropped;
    spdlog::warn("boardsim: test hook: reply {} (type 0x{:02X}, seq {}) dropped", counters_.replies, frame.type,
                 frame.seq);
    return;
  }
  std::vector<std::uint8_t> bytes = link::encode_frame(frame);
  if (options_.debug_garble_every && counters_.replies % options_.debug_garble_every == 0) {
    ++counters_.garbled;
    spdlog::warn("boardsim: test hook: reply {} (type 0x{:02X}, seq {}) damaged", counters_.replies, frame.type,
                 frame.seq);
    // As chipd --fault garbage: a byte of the middle flipped (it may even become a delimiter).
    bytes[bytes.size() / 2] ^= 0x5A;
  }
  out.insert(out.end(), bytes.begin(), bytes.end());
}

void ServiceBoard::emit(const std::vector<chipd::Outgoing>& replies, std::vector<std::uint8_t>& out) {
  for (const chipd::Outgoing& o : replies) {
    if (o.client == session_) emit(o.frame, out);  // replies of an ended session go nowhere
  }
}

std::uint64_t ServiceBoard::run(std::uint64_t clocks, std::vector<std::uint8_t>& out) {
  if (!input_.empty()) {
    quiet_clocks_ = 0;
    for (link::DecodeResult& r : decoder_.feed(input_.data(), input_.size())) {
      if (!r.ok) {
        emit(link::error_frame(r.seq, r.error, 0, r.message), out);
        continue;
      }
      if (r.frame.type == link::type::HELLO) {
        // A new session: what the previous host left claimed or running is ended, as chipd does when
        // a connection goes.
        service_->disconnect(session_);
        ++session_;
        try {
          spdlog::info("boardsim: HELLO from '{}': session {}", link::Hello::decode(r.frame.payload).name, session_);
        } catch (const link::LinkError&) {
          // A malformed HELLO: the service answers it with the error.
        }
      }
      emit(service_->handle(session_, r.frame), out);
    }
    input_.clear();
  } else if (decoder_.pending() > 0) {
    quiet_clocks_ += clocks;
    if (quiet_clocks_ >= kInterbyteTimeoutClocks) {
      ++counters_.timeouts;
      const std::size_t dropped = decoder_.pending();
      decoder_ = link::FrameDecoder();
      quiet_clocks_ = 0;
      emit(link::error_frame(link::kNoSeq, link::ErrorCode::BAD_FRAME, 0,
                             fmt::format("inter-byte timeout: {} bytes of a frame dropped", dropped)),
           out);
    }
  }
  if (service_->busy()) emit(service_->step(), out);
  return clocks;
}

}  // namespace db::boardsim
