// `deepblue chipd` as a child process for the tests: started on 127.0.0.1:0 with --port-file in a
// temporary directory, stopped with SIGTERM (SIGKILL if it does not stop within seconds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "child_process.h"

namespace db::link::test {

class ChipdProcess {
 public:
  // Starts the server with these extra arguments and waits (at most 20 s) for its port file.
  explicit ChipdProcess(const std::vector<std::string>& args);
  std::uint16_t port() const { return port_; }
  // SIGTERM and wait; returns the exit code (-1 when killed or ended by a signal). Idempotent.
  int stop() { return process_.stop(); }
  // What the server wrote to standard error.
  std::string log() const { return process_.log(); }

 private:
  ChildProcess process_;
  std::uint16_t port_ = 0;
};

}  // namespace db::link::test
