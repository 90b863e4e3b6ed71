// deepblue uci: speak UCI on standard input and output.
#include <iostream>

#include "commands.h"
#include "uci/uci.h"

namespace db::cli {

void add_uci_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("uci", "Run as a UCI engine on standard input/output");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    uci::UciEngine engine(std::cin, std::cout);
    engine.loop();
  });
}

}  // namespace db::cli
