// See mca_host.h.
#include "mca_host.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "mca_address.h"
#include "mca_cycle.h"

namespace db::sim {

McaHost::McaHost(sc_core::sc_module_name name, sc_core::sc_time overhead)
    : sc_module(name), socket("socket"), overhead_(overhead) {}

McaHost::Result McaHost::transfer(bool write, std::uint64_t address, std::uint32_t data) {
  std::uint32_t buffer = write ? data : 0;
  const bool device_error = transfer_block(write, address, &buffer, 1);
  return Result{write ? 0 : buffer, device_error};
}

bool McaHost::transfer_block(bool write, std::uint64_t address, std::uint32_t* words, std::size_t n) {
  if (n == 0) throw std::invalid_argument("Micro Channel: a transfer of no words");
  tlm::tlm_generic_payload p;
  McaCycle cycle;
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(address);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(words));
  p.set_data_length(unsigned(4 * n));
  p.set_streaming_width(unsigned(4 * n));
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p.set_extension(&cycle);

  // The host's clock never runs behind the kernel's (when driven from a process).
  now_ = std::max(now_, sc_core::sc_time_stamp()) + overhead_;
  stats_.overhead += overhead_;
  const sc_core::sc_time issued = now_;
  sc_core::sc_time delay = now_ - sc_core::sc_time_stamp();
  socket->b_transport(p, delay);
  p.clear_extension(&cycle);
  now_ = sc_core::sc_time_stamp() + delay;  // a process has been synchronised by the bus
  stats_.on_bus += now_ - issued;
  ++stats_.accesses;
  stats_.words += n;

  if (p.is_response_error() && !cycle.device_error) {
    throw McaError(cycle.error.empty() ? fmt::format("Micro Channel: {} at 0x{:X}", p.get_response_string(), address)
                                       : cycle.error,
                   address);
  }
  return cycle.device_error;
}

std::uint8_t McaHost::pos_read(int slot, std::uint32_t reg) {
  write(kSetupSelect, kSetupEnable | std::uint32_t(slot));
  const std::uint8_t v = std::uint8_t(read(reg) & 0xFF);
  write(kSetupSelect, 0);
  return v;
}

void McaHost::pos_write(int slot, std::uint32_t reg, std::uint8_t value) {
  write(kSetupSelect, kSetupEnable | std::uint32_t(slot));
  write(reg, value);
  write(kSetupSelect, 0);
}

}  // namespace db::sim
