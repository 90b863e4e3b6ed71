// See chipd_process.h.
#include "chipd_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace db::link::test {

ChipdProcess::ChipdProcess(const std::vector<std::string>& args) {
  char tmpl[] = "/tmp/chipd_test_XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  const std::string port_file = dir_ + "/port";
  std::vector<std::string> argv = {DB_DEEPBLUE_BIN, "chipd", "--listen", "127.0.0.1:0", "--port-file", port_file};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    const int fd = open((dir_ + "/log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 2);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(port_file);
    unsigned p = 0;
    if (in >> p && p > 0) {
      port_ = std::uint16_t(p);
      return;
    }
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("chipd exited before writing its port: " + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop();
  throw std::runtime_error("chipd wrote no port file within 20 s: " + log());
}

ChipdProcess::~ChipdProcess() {
  stop();
  if (!dir_.empty()) {
    std::remove((dir_ + "/port").c_str());
    std::remove((dir_ + "/log").c_str());
    rmdir(dir_.c_str());
  }
}

int ChipdProcess::stop() {
  if (pid_ <= 0) return status_;
  kill(pid_, SIGTERM);
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

std::string ChipdProcess::log() const {
  std::ifstream in(dir_ + "/log");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace db::link::test
