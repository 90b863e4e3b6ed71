// `deepblue boardsim` as a child process for the tests: started with --pty-file in a temporary
// directory, as users start it; stopped with SIGTERM (SIGKILL if it does not stop within seconds).
#pragma once

#include <sys/types.h>

#include <csignal>

#include <string>
#include <vector>

namespace db::link::test {

class BoardsimProcess {
 public:
  // Starts `boardsim --board service` with these extra arguments and waits (at most 20 s) for its
  // pty file.
  explicit BoardsimProcess(const std::vector<std::string>& args = {});
  ~BoardsimProcess();
  // The pseudo-terminal's path (serial:PATH).
  const std::string& path() const { return path_; }
  // Sends the signal (SIGTERM unless told) and waits; returns the exit code (-1 when killed or ended by
  // a signal). Idempotent.
  int stop(int signal_number = SIGTERM);
  // Whether the pty file is still there (boardsim removes it when it stops).
  bool pty_file_exists() const;
  // What boardsim wrote to standard error.
  std::string log() const;

 private:
  std::string dir_;
  pid_t pid_ = -1;
  int status_ = -1;
  std::string path_;
};

}  // namespace db::link::test
