// deepblue boardsim: a simulated board behind a pseudo-terminal, so that the host's serial code
// (--backend serial:PATH, the code that opens a real board's /dev/ttyUSB0) runs against it unchanged.
// Writes the pty's path to --pty-file (atomically) and to standard output, logs to standard error,
// and stops cleanly on SIGINT or SIGTERM (exit 0, the pty file removed).
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <boost/asio.hpp>

#include "board_pty.h"
#include "board_registry.h"
#include "commands.h"
#include "link/connection.h"

namespace db::cli {

namespace {

struct BoardsimOptions {
  std::string board;
  std::string pty_file;
  boardsim::BoardOptions board_options;
};

// Written to F.tmp, then renamed: a reader polling F never sees a partial path. Removed again when
// boardsim ends.
class PtyFile {
 public:
  PtyFile(const std::string& path, const std::string& pty) : path_(path) {
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp);
      out << pty << "\n";
      out.flush();
      if (!out) throw std::runtime_error(fmt::format("boardsim: cannot write the pty file '{}'", tmp));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::remove(tmp.c_str());
      throw std::runtime_error(fmt::format("boardsim: cannot rename '{}' to the pty file '{}'", tmp, path));
    }
  }
  ~PtyFile() { std::remove(path_.c_str()); }
  PtyFile(const PtyFile&) = delete;
  PtyFile& operator=(const PtyFile&) = delete;

 private:
  std::string path_;
};

void run_boardsim(const BoardsimOptions& opt) {
  auto log = spdlog::stderr_color_mt("boardsim");
  spdlog::set_default_logger(log);
  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %l %v");
  const std::unique_ptr<link::SimulatedBoard> board = boardsim::make_board(opt.board, opt.board_options);
  boardsim::BoardPty pty(board->baud());
  const PtyFile file(opt.pty_file, pty.path());
  fmt::print("{}\n", pty.path());
  std::fflush(stdout);
  spdlog::info("boardsim: {} on {} (inter-byte timeout {} clocks at {} Hz)", board->describe(), pty.path(),
               board->interbyte_timeout_clocks(), board->clock_hz());

  boost::asio::io_context io;
  bool stop = false;
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (ec) return;
    spdlog::info("boardsim: signal {}: stopping", signo);
    stop = true;
  });
  const boardsim::ShuttleStats st = boardsim::shuttle(io, pty, *board, stop);
  spdlog::info(
      "boardsim: stopped: {} bytes from the host, {} to it ({} unread and dropped), {} board clocks, {} "
      "inter-byte timeouts",
      st.bytes_from_host, st.bytes_to_host, st.bytes_dropped, st.clocks, st.timeouts);
}

}  // namespace

void add_boardsim_command(CLI::App& app) {
  auto opt = std::make_shared<BoardsimOptions>();
  std::string boards;
  for (const boardsim::BoardKind& k : boardsim::boards()) boards += fmt::format("\n  {}: {}", k.name, k.summary);
  CLI::App* cmd = app.add_subcommand(
      "boardsim", "A simulated board behind a pseudo-terminal, for --backend serial:PATH (docs/tools.md)");
  cmd->add_option("--board", opt->board, "The board:" + boards)->required();
  cmd->add_option("--pty-file", opt->pty_file, "Write the pseudo-terminal's path to this file (atomically)")
      ->required();
  opt->board_options.baud = link::kDefaultBaud;
  cmd->add_option("--baud", opt->board_options.baud, "The board's UART baud (the pty's nominal speed)")
      ->check(CLI::Range(1u, 4000000u))
      ->capture_default_str();
  cmd->add_option("--chips", opt->board_options.chips, "Chips on a board whose chips are models (service)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--chip-backend", opt->board_options.chip_backend, "service: the chips behind the stand-in")
      ->check(CLI::IsMember({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_option("--debug-drop-every", opt->board_options.debug_drop_every,
                  "Test hook (service board): drop every N-th reply frame")
      ->group("Test hooks");
  cmd->add_option("--debug-garble-every", opt->board_options.debug_garble_every,
                  "Test hook (service board): damage one byte of every N-th reply frame")
      ->group("Test hooks");
  cmd->callback([opt] { run_boardsim(*opt); });
}

}  // namespace db::cli
