// See chip_options.h.
#include "chip_options.h"

#include "chip/rtl_backend.h"

namespace db::cli {

void add_chip_options(CLI::App* cmd, ChipOptions& opt, const std::string& default_backend) {
  opt.backend = default_backend;
  cmd->add_option("--trace", opt.trace, "Write an FST waveform of the RTL (needs -DDB_RTL_TRACE=ON)");
  cmd->add_option("--trace-from", opt.trace_from, "First clock to trace");
  cmd->add_option("--trace-to", opt.trace_to, "Last clock to trace");
}

chip::ChipClient make_chip_client(const ChipOptions& opt) {
  rtl::HarnessOptions h;
  h.trace_path = opt.trace;
  h.trace_from = opt.trace_from;
  h.trace_to = opt.trace_to;
  if (!opt.trace.empty() && opt.backend == "model") {
    throw std::invalid_argument("--trace needs the rtl or cosim backend");
  }
  return chip::ChipClient(chip::make_backend(opt.backend, h));
}

std::unique_ptr<search::ChipLeafSearch> make_leaf_search(const std::string& backend, int chips, int depth) {
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  for (int i = 0; i < chips; ++i) clients.push_back(std::make_unique<chip::ChipClient>(chip::make_backend(backend)));
  return std::make_unique<search::ChipLeafSearch>(std::move(clients), depth);
}

}  // namespace db::cli
