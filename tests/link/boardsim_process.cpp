// See boardsim_process.h.
#include "boardsim_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace db::link::test {

BoardsimProcess::BoardsimProcess(const std::vector<std::string>& args) {
  char tmpl[] = "/tmp/boardsim_test_XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  const std::string pty_file = dir_ + "/pty";
  std::vector<std::string> argv = {DB_DEEPBLUE_BIN, "boardsim", "--board", "service", "--pty-file", pty_file};
  argv.insert(argv.end(), args.begin(), args.end());
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
    std::ifstream in(pty_file);
    std::string p;
    if (std::getline(in, p) && !p.empty()) {
      path_ = p;
      return;
    }
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("boardsim exited before writing its pty file: " + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop();
  throw std::runtime_error("boardsim wrote no pty file within 20 s: " + log());
}

BoardsimProcess::~BoardsimProcess() {
  stop();
  if (!dir_.empty()) {
    std::remove((dir_ + "/pty").c_str());
    std::remove((dir_ + "/log").c_str());
    rmdir(dir_.c_str());
  }
}

int BoardsimProcess::stop(int signal_number) {
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

bool BoardsimProcess::pty_file_exists() const { return std::ifstream(dir_ + "/pty").good(); }

std::string BoardsimProcess::log() const {
  std::ifstream in(dir_ + "/log");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace db::link::test
