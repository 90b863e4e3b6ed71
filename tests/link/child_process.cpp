// See child_process.h.
#include "child_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace db::link::test {

ChildProcess::ChildProcess(const std::string& name, std::vector<std::string> args) {
  std::string tmpl_text = "/tmp/" + name + "_test_XXXXXX";
  std::vector<char> tmpl(tmpl_text.begin(), tmpl_text.end());
  tmpl.push_back('\0');
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl.data();
  const std::string ready_file = dir_ + "/ready";
  std::vector<std::string> argv = {DB_DEEPBLUE_BIN};
  for (std::string& a : args) argv.push_back(a == "{ready}" ? ready_file : std::move(a));
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    const int fd = open((dir_ + "/log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 2);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 1);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(ready_file);
    std::string line;
    if (std::getline(in, line) && !line.empty()) {
      ready_line_ = line;
      return;
    }
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error(name + " exited before it was ready: " + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop();
  throw std::runtime_error(name + " was not ready within 20 s: " + log());
}

ChildProcess::~ChildProcess() {
  stop();
  if (!dir_.empty()) {
    std::remove((dir_ + "/ready").c_str());
    std::remove((dir_ + "/log").c_str());
    rmdir(dir_.c_str());
  }
}

int ChildProcess::stop(int signal_number) {
  if (pid_ <= 0) return status_;
  kill(pid_, signal_number);
  int st = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    if (waitpid(pid_, &st, WNOHANG) == pid_) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &st, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
  status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return status_;
}

bool ChildProcess::ready_file_exists() const { return std::ifstream(dir_ + "/ready").good(); }

std::string ChildProcess::log() const {
  std::ifstream in(dir_ + "/log");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace db::link::test
