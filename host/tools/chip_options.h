// Command-line options shared by the subcommands that run on a chip backend.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "chip/chip_client.h"
#include "chip/generator_params.h"
#include "search/chip_leaf_search.h"
#include "search/search.h"

namespace db::cli {

struct ChipOptions {
  std::string backend = "model";
  std::string trace;  // FST file (RTL builds with DB_RTL_TRACE=ON)
  std::uint64_t trace_from = 0;
  std::uint64_t trace_to = ~std::uint64_t(0);
  double link_timeout = 10;  // remote backends: seconds a reply may take before the link is given up
  std::string bus_record;    // every bus access and idle clock, for scripts/fpga gatesim (chip/bus_recorder.h)
  // --eval-params of the commands that generate weights (eval, lazystats, hwsearch; add_eval_params_option)
  std::string eval_params = "default";
  std::shared_ptr<const chip::GeneratorParams> generator_params;  // nullptr: GeneratorParams::defaults()
};

// The --backend check: one of names, remote:HOST:PORT[,HOST:PORT...] (chips behind `deepblue chipd`) or
// serial:PATH[@BAUD] (a board, or `deepblue boardsim`, behind a serial port).
CLI::Validator backend_validator(const std::vector<std::string>& names);
// --trace, --trace-from, --trace-to, --link-timeout, --bus-record (the caller adds --backend).
void add_chip_options(CLI::App* cmd, ChipOptions& opt, const std::string& default_backend);
// A client on the chosen backend.
chip::ChipClient make_chip_client(const ChipOptions& opt);
// The Micro Channel model's options (backend "mca"; docs/sim.md).
struct McaOptions {
  std::string chip = "model";     // the chips on the cards: model, rtl or cosim
  double host_overhead_us = 0.5;  // the host's I/O overhead per programmed access (not published)
  bool card_status = false;       // the host reads the cards' status ports instead of each chip's STATUS
  bool card_broadcast = false;    // the weights go to each card's chips in one broadcast
  bool card_bursts = false;       // jobs through the cards' job windows, results in one burst
  bool register_jobs = false;     // chip searches loaded register by register (before JOB), to compare
};
// The chips of one host as the software search's leaf searcher: `chips` clients on the backend,
// handed the nodes with at most `depth` plies left. Backend "mca": the chips sit on the cards of one
// Micro Channel node (sim/), at most 16, and the host's accesses take bus time; the process has one
// node, reused by later leaf searches with the same chips.
// Remote backends: a chip whose link fails (a reply not in link_timeout seconds, a damaged one, the
// server gone) is dropped and its work re-run (ChipLeafSearch).
std::unique_ptr<search::ChipLeafSearch> make_leaf_search(const std::string& backend, int chips, int depth,
                                                         const chip::SearchParams& params = {},
                                                         const McaOptions& mca = {}, double link_timeout = 10);

// --backend, --chips, --chip-depth of the commands that run the software search.
struct LeafOptions {
  std::string backend = "model";
  int chips = 1;
  int chip_depth = 0;  // 0: software leaves
  // The defaults are the ones that solved the most of WAC in fixed simulated time (docs/search.md):
  int chip_checks = 1;                           // mating and singular checks per side in the chips' quiescence search
  bool chip_offsets = true;                      // singular and binary tests at the chips' roots (one ply shallower)
  bool chip_rep_bound = false;                   // the chips' repeating-move bound (SEARCH_CTRL[20])
  bool chip_extensions = false;                  // the chips' quiescence extensions (AIJ 5, flags 9-12)
  int workers = 1;                               // software workers sharing the chips (AIJ 6; SearchOptions::workers)
  bool overlap_iterations = false;               // SearchOptions::overlap_iterations
  McaOptions mca;                                // --backend mca: --mca-chip, --host-overhead-us
  double link_timeout = 10;                      // remote backends: --link-timeout
  int threads = 0;                               // OS threads clocking in-process chips; 0: the machine's cores
  double host_node_us = 0;                       // the host's software time per node (cost model); 0: free
  std::uint32_t chip_node_limit = 0;             // hardware searches stopped and split in software beyond it; 0: none
  std::string evaluation = "chip";               // the software's own leaves: "chip" (Deep Blue's) or "interim"
  int lazy_margin = search::kDefaultLazyMargin;  // the chip evaluation's lazy stand pat (0: off)
  // --eval-params: the evaluation generator's parameters of every weight set the search generates
  // (the chips' and the chip evaluation's): "default", "hand" or a JSON file; resolved when parsed.
  std::string eval_params = "default";
  std::shared_ptr<const chip::GeneratorParams> generator_params;  // nullptr: GeneratorParams::defaults()
};
// --eval-params FILE|hand|default: sets spec and params (GeneratorParams::from_spec) when parsed; a
// file that cannot be read or holds bad values is an error naming it.
void add_eval_params_option(CLI::App* cmd, std::string& spec, std::shared_ptr<const chip::GeneratorParams>& params);
// *params, or GeneratorParams::defaults() for nullptr.
const chip::GeneratorParams& generator_params_or_defaults(const std::shared_ptr<const chip::GeneratorParams>& params);
void add_leaf_options(CLI::App* cmd, LeafOptions& opt, int default_chip_depth);
// The search options that follow from opt: the workers and the evaluation of the software's leaves.
void apply_leaf_options(const LeafOptions& opt, search::SearchOptions& so);
// nullptr for chip depth 0; the chips get the hardware search parameters of opt.
std::unique_ptr<search::ChipLeafSearch> make_leaf_search(const LeafOptions& opt);
// The machine's cores (at least 1): the default of --threads and of UCI's Threads.
int default_threads();
// The same with the default hardware search parameters (the UCI engine's chips).
// generator_params: the evaluation generator's parameters (nullptr: the defaults).
std::unique_ptr<search::ChipLeafSearch> make_default_leaf_search(
    const std::string& backend, int chips, int depth,
    std::shared_ptr<const chip::GeneratorParams> generator_params = nullptr);
// The chips' statistics as JSON, with the simulated time at the chip's 24 MHz.
nlohmann::json leaf_stats_json(const search::LeafStats& st);
// The same for a leaf searcher (nullptr: none); on the Micro Channel model with the bus figures.
nlohmann::json leaf_stats_json(const search::ChipLeafSearch* chips);

}  // namespace db::cli
