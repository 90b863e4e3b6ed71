// A chess engine in a child process, spoken to over pipes line by line.
#pragma once

#include <chrono>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace db::match {

class EngineProcess {
 public:
  // Starts argv[0] with the arguments; throws std::runtime_error naming the command if it cannot.
  // With use_pty the child gets a pseudo-terminal, for engines that block-buffer their output on a
  // pipe (GNU Chess).
  explicit EngineProcess(const std::vector<std::string>& argv, bool use_pty = false);
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  void send(const std::string& line);
  // The next line, or nothing if the timeout passed or the engine closed its output.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  // Reads until a line starting with prefix; returns it, or nothing on timeout/exit.
  std::optional<std::string> wait_for(const std::string& prefix, std::chrono::milliseconds timeout);
  const std::string& name() const { return name_; }
  // The last lines exchanged, oldest first ("> " sent, "< " received): what a failed game's report
  // shows of the engine's side of the conversation.
  std::string transcript() const;

 private:
  void remember(const std::string& line);
  std::deque<std::string> transcript_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
  std::string name_;
};

}  // namespace db::match
