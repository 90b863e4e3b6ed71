#include "match/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace db::match {

namespace {

[[noreturn]] void exec_engine(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  _exit(127);
}

}  // namespace

EngineProcess::EngineProcess(const std::vector<std::string>& argv, bool use_pty) : name_(argv.empty() ? "" : argv[0]) {
  if (argv.empty()) throw std::runtime_error("engine command is empty");
  // A dead engine must not kill the runner with SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  if (use_pty) {
    termios raw{};
    cfmakeraw(&raw);  // no echo, no line editing: the engine's lines arrive as written
    int master = -1;
    pid_ = forkpty(&master, nullptr, &raw, nullptr);
    if (pid_ < 0) throw std::runtime_error("forkpty: " + std::string(std::strerror(errno)));
    if (pid_ == 0) exec_engine(argv);
    to_child_ = master;
    from_child_ = dup(master);
    return;
  }
  int in_pipe[2], out_pipe[2];
  if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
  if (pid_ == 0) {
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDERR_FILENO);
    close(in_pipe[0]);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(out_pipe[1]);
    exec_engine(argv);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
}

EngineProcess::~EngineProcess() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  if (pid_ > 0) {
    // Closing stdin ends well-behaved engines; give them a moment, then insist.
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      usleep(10000);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

namespace {
constexpr std::size_t kTranscriptLines = 40;
}

void EngineProcess::remember(const std::string& line) {
  transcript_.push_back(line);
  if (transcript_.size() > kTranscriptLines) transcript_.pop_front();
}

std::string EngineProcess::transcript() const {
  std::string text;
  for (const std::string& line : transcript_) text += line + "\n";
  return text;
}

void EngineProcess::send(const std::string& line) {
  remember("> " + line);
  const std::string data = line + "\n";
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(to_child_, data.data() + done, data.size() - done);
    if (n <= 0) throw std::runtime_error("engine '" + name_ + "' closed its input");
    done += std::size_t(n);
  }
}

std::optional<std::string> EngineProcess::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      remember("< " + line);
      return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd p{from_child_, POLLIN, 0};
    const int r = poll(&p, 1, int(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return std::nullopt;
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, std::size_t(n));
  }
}

std::optional<std::string> EngineProcess::wait_for(const std::string& prefix, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    auto line = read_line(left);
    if (!line) return std::nullopt;
    if (line->rfind(prefix, 0) == 0) return line;
  }
}

}  // namespace db::match
