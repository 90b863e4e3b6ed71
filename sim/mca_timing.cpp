// See mca_timing.h.
#include "mca_timing.h"

#include <stdexcept>

namespace db::sim {

namespace {
void check_resolution() {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS)) {
    throw std::logic_error("the Micro Channel model needs SystemC's 1 ps time resolution");
  }
}
}  // namespace

std::uint64_t chip_clocks_at(const sc_core::sc_time& t) {
  check_resolution();
  return t.value() / 125000 * 3 + t.value() % 125000 * 3 / 125000;
}

sc_core::sc_time chip_clock_time(std::uint64_t k) {
  check_resolution();
  const std::uint64_t ps = k / 3 * 125000 + (k % 3 * 125000 + 2) / 3;
  return sc_core::sc_time::from_value(ps);
}

}  // namespace db::sim
