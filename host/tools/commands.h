// Subcommands of the deepblue program. Each registers itself on the CLI11 app and runs when chosen.
#pragma once

#include <CLI/CLI.hpp>

namespace db::cli {

void add_perft_command(CLI::App& app);
void add_search_command(CLI::App& app);
void add_uci_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_epd_command(CLI::App& app);
void add_match_command(CLI::App& app);
void add_movegen_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_lazystats_command(CLI::App& app);
void add_hwsearch_command(CLI::App& app);
void add_chipd_command(CLI::App& app);
void add_boardsim_command(CLI::App& app);
void add_book_command(CLI::App& app);
// book extend, book bonus (the extended book), under the book command.
void add_extended_book_commands(CLI::App* book_cmd);
void add_egtb_command(CLI::App& app);
void add_egtb_chip_command(CLI::App& egtb);  // deepblue egtb chip
// tune data (positions labelled by Stockfish for the evaluation fit); its subcommands in cmd_tune.cpp.
void add_tune_command(CLI::App& app);
// tune fit (the evaluation tuner), under the tune command.
void add_tune_fit_command(CLI::App* tune_cmd);

}  // namespace db::cli
