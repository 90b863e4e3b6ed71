// deepblue: the command-line front end of the Deep Blue rebuild.
#include <iostream>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "book/polyglot_book.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "commands.h"
#include "egtb/value.h"

int main(int argc, char** argv) {
  // Log lines (a chip lost by the search, a server's events) go to standard error: standard output
  // carries the commands' results (--json, UCI).
  spdlog::set_default_logger(spdlog::stderr_color_mt("deepblue"));
  CLI::App app{"deepblue: the 1997 Deep Blue chess machine, rebuilt (chip RTL, reference model, host search)"};
  app.require_subcommand(1);
  db::cli::add_perft_command(app);
  db::cli::add_search_command(app);
  db::cli::add_uci_command(app);
  db::cli::add_bench_command(app);
  db::cli::add_epd_command(app);
  db::cli::add_match_command(app);
  db::cli::add_movegen_command(app);
  db::cli::add_eval_command(app);
  db::cli::add_hwsearch_command(app);
  db::cli::add_lazystats_command(app);
  db::cli::add_chipd_command(app);
  db::cli::add_boardsim_command(app);
  db::cli::add_book_command(app);
  db::cli::add_egtb_command(app);
  db::cli::add_tune_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const db::FenError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const db::NotationError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const db::book::BookError& e) {  // a book file that is missing or not a Polyglot book
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const db::egtb::EgtbError& e) {  // a database missing or corrupt, a position it cannot answer
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
