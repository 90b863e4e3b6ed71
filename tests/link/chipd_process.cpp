// See chipd_process.h.
#include "chipd_process.h"

#include <stdexcept>

namespace db::link::test {

namespace {

std::vector<std::string> chipd_args(const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {"chipd", "--listen", "127.0.0.1:0", "--port-file", "{ready}"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

}  // namespace

ChipdProcess::ChipdProcess(const std::vector<std::string>& args) : process_("chipd", chipd_args(args)) {
  const std::string& line = process_.ready_line();
  if (line.find_first_not_of("0123456789") != std::string::npos || line.size() > 5 || std::stoul(line) == 0 ||
      std::stoul(line) > 65535) {
    throw std::runtime_error("chipd wrote port '" + line + "'");
  }
  const unsigned long p = std::stoul(line);
  port_ = std::uint16_t(p);
}

}  // namespace db::link::test
