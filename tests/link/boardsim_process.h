// `deepblue boardsim` as a child process for the tests: started with --pty-file in a temporary
// directory, as users start it; stopped with SIGTERM (SIGKILL if it does not stop within seconds).
#pragma once

#include <csignal>
#include <string>
#include <vector>

#include "child_process.h"

namespace db::link::test {

class BoardsimProcess {
 public:
  // Starts `boardsim --board service` with these extra arguments and waits (at most 20 s) for its
  // pty file.
  explicit BoardsimProcess(const std::vector<std::string>& args = {});
  // The pseudo-terminal's path (serial:PATH).
  const std::string& path() const { return process_.ready_line(); }
  // Sends the signal (SIGTERM unless told) and waits; returns the exit code (-1 when killed or ended by
  // a signal). Idempotent.
  int stop(int signal_number = SIGTERM) { return process_.stop(signal_number); }
  // Whether the pty file is still there (boardsim removes it when it stops).
  bool pty_file_exists() const { return process_.ready_file_exists(); }
  // What boardsim wrote to standard error.
  std::string log() const { return process_.log(); }

 private:
  ChildProcess process_;
};

}  // namespace db::link::test
