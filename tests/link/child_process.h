// A `deepblue` tool as a child process for the tests, started as users start it: in a temporary
// directory, told to write a file (its port, its pty's path) when it is ready; stopped with a
// signal (SIGKILL if it does not stop within seconds). ChipdProcess and BoardsimProcess are it
// with their arguments.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <string>
#include <vector>

namespace db::link::test {

class ChildProcess {
 public:
  // Runs DB_DEEPBLUE_BIN with args, where the word "{ready}" becomes the path of the file the tool
  // writes when it is ready, and waits (at most 20 s) for that file's first line. The tool's
  // standard error goes to a log; its standard output to /dev/null. name: the tool, for errors.
  ChildProcess(const std::string& name, std::vector<std::string> args);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // The first line of the ready file.
  const std::string& ready_line() const { return ready_line_; }
  // Sends the signal and waits; returns the exit code (-1 when killed or ended by a signal).
  // Idempotent.
  int stop(int signal_number = SIGTERM);
  // Whether the ready file is still there (tools remove it when they stop).
  bool ready_file_exists() const;
  // What the tool wrote to standard error.
  std::string log() const;

 private:
  std::string dir_;
  pid_t pid_ = -1;
  int status_ = -1;
  std::string ready_line_;
};

}  // namespace db::link::test
