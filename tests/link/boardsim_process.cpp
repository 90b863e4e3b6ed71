// See boardsim_process.h.
#include "boardsim_process.h"

namespace db::link::test {

namespace {

std::vector<std::string> boardsim_args(const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {"boardsim", "--board", "service", "--pty-file", "{ready}"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

}  // namespace

BoardsimProcess::BoardsimProcess(const std::vector<std::string>& args) : process_("boardsim", boardsim_args(args)) {}

}  // namespace db::link::test
