// deepblue uci: speak UCI on standard input and output.
#include <iostream>

#include "chip_options.h"
#include "commands.h"
#include "uci/uci.h"

namespace db::cli {

void add_uci_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("uci", "Run as a UCI engine on standard input/output");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    uci::UciEngine engine(std::cin, std::cout, [](const std::string& backend, int chips, int depth) {
      return std::unique_ptr<search::LeafSearch>(make_default_leaf_search(backend, chips, depth));
    });
    engine.loop();
  });
}

}  // namespace db::cli
