// See chip_socket.h.
#include "chip_socket.h"

#include <cstring>
#include <stdexcept>

#include "chip/chip_regs.h"
#include "mca_cycle.h"
#include "mca_timing.h"

namespace db::sim {

ChipSocket::ChipSocket(sc_core::sc_module_name name, std::unique_ptr<chip::ChipBackend> chip)
    : sc_module(name), socket("socket"), chip_(std::move(chip)), epoch_(chip_ ? chip_->clock() : 0) {
  if (!chip_) throw std::invalid_argument("a chip socket needs a chip");
  socket.register_b_transport(this, &ChipSocket::b_transport);
}

std::uint64_t ChipSocket::clock_at(const sc_core::sc_time& t) const { return epoch_ + chip_clocks_at(t); }

void ChipSocket::sync(const sc_core::sc_time& t) {
  const std::uint64_t target = clock_at(t);
  const std::uint64_t now = chip_->clock();
  if (target > now) chip_->tick(target - now);
}

bool ChipSocket::idle_at(const sc_core::sc_time& t) {
  sync(t);
  return chip_->debug().state == chip::S_IDLE;
}

void ChipSocket::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  sync(sc_core::sc_time_stamp() + delay);
  std::uint32_t data = 0;
  if (p.is_write()) std::memcpy(&data, p.get_data_ptr(), sizeof data);
  const chip::BusResponse r = chip_->access(p.is_write(), std::uint32_t(p.get_address()), data);
  ++accesses_;
  if (p.is_read()) std::memcpy(p.get_data_ptr(), &r.data, sizeof r.data);
  if (r.error) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    if (McaCycle* cycle = p.get_extension<McaCycle>()) {
      cycle->device_error = true;
      cycle->error = std::string(name()) + ": the chip flagged the request";
    }
    return;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace db::sim
