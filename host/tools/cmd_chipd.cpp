// deepblue chipd: the chip server. Serves N chips (model, rtl or cosim) to clients over TCP with the
// chip link protocol (docs/link.md): the same protocol an FPGA board will speak over a UART.
// Listens on loopback unless given another address; logs to standard error; SIGINT or SIGTERM stop
// it cleanly (exit 0).
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <boost/asio.hpp>

#include "chip/rtl_backend.h"
#include "chipd_server.h"
#include "chipd_service.h"
#include "commands.h"

namespace db::cli {

namespace {

struct ChipdOptions {
  std::string listen = "127.0.0.1:7997";
  int chips = 4;
  std::string backend = "model";
  std::string port_file;
  int max_clients = 8;
  double idle_timeout = 300;
  double run_timeout = 60;
  std::string fault;  // fault injection for client tests: die:N, hang:N, garbage:N
};

// "HOST:PORT", ":PORT" or "PORT" (loopback), "[v6]:PORT".
std::pair<std::string, std::uint16_t> parse_listen(const std::string& s) {
  std::string host = "127.0.0.1", port = s;
  const std::size_t colon = s.rfind(':');
  if (colon != std::string::npos) {
    host = s.substr(0, colon);
    port = s.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host.empty()) host = "127.0.0.1";
  }
  std::size_t used = 0;
  unsigned long p = 0;
  try {
    p = std::stoul(port, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (port.empty() || used != port.size() || p > 65535) {
    throw std::invalid_argument(fmt::format("--listen '{}': port '{}' is not a number 0-65535", s, port));
  }
  return {host, std::uint16_t(p)};
}

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
}

// Written to F.tmp, then renamed: a reader polling F never sees a partial number.
void write_port_file(const std::string& path, std::uint16_t port) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << port << "\n";
    if (!out) throw std::runtime_error("cannot write the port file " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

link::Backend backend_code(const std::string& name) {
  if (name == "rtl") return link::Backend::RTL;
  if (name == "cosim") return link::Backend::COSIM;
  return link::Backend::MODEL;
}

void run_chipd(const ChipdOptions& opt) {
  auto log = spdlog::stderr_color_mt("chipd");
  spdlog::set_default_logger(log);
  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %l %v");
  const auto [host, port] = parse_listen(opt.listen);

  chipd::ServiceOptions so;
  so.chips = opt.chips;
  so.make_chip = [backend = opt.backend] { return chip::make_backend(backend); };
  so.backend = backend_code(opt.backend);
  so.run_timeout = millis(opt.run_timeout);
  chipd::ChipService service(so);

  chipd::ServerOptions sv;
  sv.host = host;
  sv.port = port;
  sv.max_clients = opt.max_clients;
  sv.idle_timeout = millis(opt.idle_timeout);
  if (!opt.fault.empty()) sv.fault = chipd::parse_fault(opt.fault);

  boost::asio::io_context io;
  chipd::ChipServer server(io, service, sv);
  if (!opt.port_file.empty()) write_port_file(opt.port_file, server.port());
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signo) {
    if (ec) return;
    spdlog::info("chipd: signal {}: stopping", signo);
    server.stop();
    io.stop();
  });
  spdlog::info("chipd: listening on {}:{}, {} {} chips, at most {} clients", server.address(), server.port(), opt.chips,
               opt.backend, opt.max_clients);
  io.run();
  spdlog::info("chipd: stopped");
}

}  // namespace

void add_chipd_command(CLI::App& app) {
  auto opt = std::make_shared<ChipdOptions>();
  CLI::App* cmd = app.add_subcommand("chipd", "Chip server: serves chips to clients over TCP (docs/link.md)");
  cmd->add_option("--listen", opt->listen,
                  "HOST:PORT to listen on (port 0: any free port; HOST defaults to 127.0.0.1, loopback)")
      ->capture_default_str();
  cmd->add_option("--chips", opt->chips, "Number of chips")->check(CLI::Range(1, 1024))->capture_default_str();
  cmd->add_option("--backend", opt->backend, "Chip backend: model, rtl or cosim")
      ->check(CLI::IsMember({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_option("--port-file", opt->port_file, "Write the bound port number to this file (atomically)");
  cmd->add_option("--max-clients", opt->max_clients, "Clients served at once; more get SERVER_FULL")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--idle-timeout", opt->idle_timeout,
                  "Seconds without a byte from a client (and no RUN of its own) before it is disconnected")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option(
         "--run-timeout", opt->run_timeout,
         "Watchdog: seconds a RUN (or a long ACCESS) may run before it ends with TIMEOUT and its chip is reset")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--fault", opt->fault,
                  "Fault injection for testing clients: die:N (exit), hang:N (answer nothing more) or garbage:N "
                  "(damage the reply) at the N-th RUN request")
      ->check([](const std::string& v) {
        try {
          chipd::parse_fault(v);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      });
  cmd->callback([opt] { run_chipd(*opt); });
}

}  // namespace db::cli
