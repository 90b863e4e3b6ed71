// See chip_options.h.
#include "chip_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <thread>

#include "chip/bus_recorder.h"
#include "chip/remote_chip.h"
#include "chip/rtl_backend.h"
#include "mca_node.h"
#include "mca_timeline.h"
#include "search/chip_evaluation.h"

namespace db::cli {

namespace {

constexpr int kMcaMostChips = 24;

// The process's one Micro Channel node (SystemC elaborates once per process).
std::shared_ptr<sim::McaNode> mca_node(int chips, const McaOptions& mca) {
  static std::shared_ptr<sim::McaNode> node;
  static std::string chip_backend;
  if (!(mca.host_overhead_us >= 0 && mca.host_overhead_us <= 100)) {
    throw std::invalid_argument(fmt::format("--host-overhead-us {} out of range 0-100", mca.host_overhead_us));
  }
  if (!node) {
    sim::McaNodeOptions o;
    o.chips = chips;
    // Deep Blue's nodes: 16 chips on two cards (AIJ section 6); the single-node Deep Blue Jr. of
    // AIJ 6.3's measurements had 24, a third card here.
    o.cards = std::max(2, (chips + sim::kChipsPerCard - 1) / sim::kChipsPerCard);
    o.chip_backend = mca.chip;
    node = std::make_shared<sim::McaNode>("node", o);
    chip_backend = mca.chip;
    node->start();
  } else if (node->chips() != chips || chip_backend != mca.chip) {
    throw std::invalid_argument(
        fmt::format("backend mca: this process's Micro Channel node has {} {} chips, not {} {} (one node per process)",
                    node->chips(), chip_backend, chips, mca.chip));
  }
  node->host().set_overhead(sc_core::sc_time(mca.host_overhead_us * 1e6, sc_core::SC_PS));
  return node;
}

void add_link_timeout_option(CLI::App* cmd, double& seconds) {
  cmd->add_option(
         "--link-timeout", seconds,
         "With --backend remote:... or serial:...: seconds a chip server or board may take to answer before its "
         "link is given up")
      ->check(CLI::Range(0.05, 3600.0))
      ->capture_default_str();
}

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
}

// The backend behind a BusRecorder when --bus-record asks for one.
std::unique_ptr<chip::ChipBackend> record(const ChipOptions& opt, std::unique_ptr<chip::ChipBackend> backend) {
  if (opt.bus_record.empty()) return backend;
  return std::make_unique<chip::BusRecorder>(std::move(backend), opt.bus_record);
}

}  // namespace

CLI::Validator backend_validator(const std::vector<std::string>& names) {
  return CLI::Validator(
      [names](std::string& value) -> std::string {
        if (std::find(names.begin(), names.end(), value) != names.end()) return {};
        if (chip::is_link_backend(value)) {
          try {
            if (chip::is_serial_backend(value)) {
              chip::parse_serial_backend(value);
            } else {
              chip::parse_remote_backend(value);
            }
            return {};
          } catch (const std::invalid_argument& e) {
            return e.what();
          }
        }
        return fmt::format("backend '{}' is not one of {}, remote:HOST:PORT[,HOST:PORT...] or serial:PATH[@BAUD]",
                           value, fmt::join(names, ", "));
      },
      "", "chip backend");
}

void add_chip_options(CLI::App* cmd, ChipOptions& opt, const std::string& default_backend) {
  opt.backend = default_backend;
  cmd->add_option("--trace", opt.trace, "Write an FST waveform of the RTL (needs -DDB_RTL_TRACE=ON)");
  cmd->add_option("--trace-from", opt.trace_from, "First clock to trace");
  cmd->add_option("--trace-to", opt.trace_to, "Last clock to trace");
  cmd->add_option("--bus-record", opt.bus_record,
                  "Write every bus access with the chip's answer, and the idle clocks, to FILE "
                  "(the workload of scripts/fpga gatesim)");
  add_link_timeout_option(cmd, opt.link_timeout);
}

chip::ChipClient make_chip_client(const ChipOptions& opt) {
  chip::RtlOptions h;
  h.trace_path = opt.trace;
  h.trace_from = opt.trace_from;
  h.trace_to = opt.trace_to;
  if (!opt.trace.empty() && (opt.backend == "model" || chip::is_link_backend(opt.backend))) {
    throw std::invalid_argument("--trace needs the rtl or cosim backend");
  }
  if (chip::is_link_backend(opt.backend)) {
    const chip::RemoteChip remote = chip::claim_remote_chips(opt.backend, 1, millis(opt.link_timeout)).front();
    return chip::ChipClient(record(opt, std::make_unique<chip::RemoteBackend>(remote.link, remote.chip)));
  }
  return chip::ChipClient(record(opt, chip::make_backend(opt.backend, h)));
}

std::unique_ptr<search::ChipLeafSearch> make_leaf_search(const std::string& backend, int chips, int depth,
                                                         const chip::SearchParams& params, const McaOptions& mca,
                                                         double link_timeout) {
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  if (backend == "mca") {
    if (chips > kMcaMostChips) {
      throw std::invalid_argument(
          fmt::format("--backend mca: a node drives at most {} chips (three cards of eight, as Deep Blue Jr.), not {}",
                      kMcaMostChips, chips));
    }
    const std::shared_ptr<sim::McaNode> node = mca_node(chips, mca);
    std::vector<std::unique_ptr<chip::SearchChip>> on_cards;
    for (int i = 0; i < chips; ++i) {
      on_cards.push_back(std::make_unique<chip::LocalSearchChip>(
          std::make_unique<chip::ChipClient>(node->backend(i, mca.card_bursts)),
          mca.register_jobs ? chip::JobLoad::kRegisters : chip::JobLoad::kPacked));
    }
    return std::make_unique<search::ChipLeafSearch>(
        std::move(on_cards), depth, params,
        std::make_shared<sim::McaTimeline>(node, sim::McaTimeline::Cards{mca.card_status, mca.card_broadcast}));
  }
  if (chip::is_link_backend(backend)) {
    std::vector<std::unique_ptr<chip::SearchChip>> remote;
    for (const chip::RemoteChip& c : chip::claim_remote_chips(backend, chips, millis(link_timeout))) {
      remote.push_back(std::make_unique<chip::RemoteSearchChip>(c.link, c.chip));
    }
    return std::make_unique<search::ChipLeafSearch>(std::move(remote), depth, params);
  }
  for (int i = 0; i < chips; ++i) clients.push_back(std::make_unique<chip::ChipClient>(chip::make_backend(backend)));
  return std::make_unique<search::ChipLeafSearch>(std::move(clients), depth, params);
}

void apply_leaf_options(const LeafOptions& opt, search::SearchOptions& so) {
  so.workers = opt.workers;
  so.overlap_iterations = opt.overlap_iterations;
  so.evaluator = search::evaluator_factory(search::parse_evaluation(opt.evaluation), opt.generator_params);
  so.lazy_margin = opt.lazy_margin;
}

void add_eval_params_option(CLI::App* cmd, std::string& spec, std::shared_ptr<const chip::GeneratorParams>& params) {
  cmd->add_option(
         "--eval-params", spec,
         "The evaluation generator's parameters (docs/evaluation.md): default (the hand-set values with the "
         "embedded tuned ones), hand (the hand-set values only) or a JSON file {\"name\": value, ...} (names it "
         "leaves out keep their defaults)")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            try {
              chip::GeneratorParams::from_spec(value);
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
            return {};
          },
          "FILE|hand|default"))
      ->each([&params](const std::string& value) { params = chip::GeneratorParams::from_spec(value); })
      ->capture_default_str();
}

const chip::GeneratorParams& generator_params_or_defaults(const std::shared_ptr<const chip::GeneratorParams>& params) {
  return params ? *params : chip::GeneratorParams::defaults();
}

void add_leaf_options(CLI::App* cmd, LeafOptions& opt, int default_chip_depth) {
  opt.chip_depth = default_chip_depth;
  cmd->add_option("--backend", opt.backend, "Chip backend")
      ->check(backend_validator({"model", "rtl", "cosim", "mca"}))
      ->capture_default_str();
  cmd->add_option("--mca-chip", opt.mca.chip, "With --backend mca: the chips on the Micro Channel cards")
      ->check(CLI::IsMember({"model", "rtl", "cosim"}))
      ->capture_default_str();
  cmd->add_option(
         "--host-overhead-us", opt.mca.host_overhead_us,
         "With --backend mca: the host's I/O overhead per programmed access, microseconds (not published; 0.3-0.7)")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_flag("--card-status", opt.mca.card_status,
                "With --backend mca: the host learns which chips are done from each card's status port (one read for "
                "eight chips) instead of polling every running chip's STATUS register (docs/sim.md)");
  cmd->add_flag("--card-broadcast", opt.mca.card_broadcast,
                "With --backend mca: the evaluation weights are written once per card, to all its chips at once, "
                "instead of once per chip (docs/sim.md)");
  cmd->add_flag("--card-bursts", opt.mca.card_bursts,
                "With --backend mca: each chip search's changed staging words and its command go to the chip in one "
                "streaming-data burst through its card's job window, and its result comes back in one burst, instead "
                "of one programmed access a word (docs/sim.md)");
  cmd->add_flag("--register-jobs", opt.mca.register_jobs,
                "With --backend mca: load each chip search register by register as before the JOB command (the "
                "board square by square, EVAL_INIT, MAKE after MAKE, the parameters, SEARCH: about 85 accesses) "
                "instead of one JOB (about 20); the same search, for comparison (docs/chip.md)");
  cmd->add_option("--chips", opt.chips, "Chips per host")->check(CLI::Range(1, 480))->capture_default_str();
  cmd->add_option("--evaluation", opt.evaluation,
                  "What scores the software's own leaves: chip (Deep Blue's: the chip's evaluation computed directly, "
                  "with the weights generated for the root) or interim (the software's own evaluation)")
      ->check(CLI::IsMember({"chip", "interim"}))
      ->capture_default_str();
  cmd->add_option("--lazy-margin", opt.lazy_margin,
                  "With --evaluation chip: the quiescence search's stand pat is the fast evaluation plus a running "
                  "estimate of the slow one when that clears the window by this margin, as the chip's lazy "
                  "evaluation decides (docs/evaluation.md); 0: every stand pat evaluated in full")
      ->check(CLI::Range(0, 2000))
      ->capture_default_str();
  add_eval_params_option(cmd, opt.eval_params, opt.generator_params);
  cmd->add_option("--chip-depth", opt.chip_depth,
                  "Plies left at which the software hands a node to the chips (AIJ: 4); 0: software leaves (quiescence "
                  "on --evaluation)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_option("--chip-checks", opt.chip_checks,
                  "Mating and singular checks each side may play in the chips' quiescence search (AIJ 5; 0-3)")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  cmd->add_flag(
         "--chip-offsets,!--no-chip-offsets", opt.chip_offsets,
         "Singular and binary offset tests at each chip search's root, extending the fail-high move a ply (AIJ 5)")
      ->capture_default_str();
  cmd->add_flag("--chip-rep-bound", opt.chip_rep_bound,
                "The chips' repeating-move bound: a node that can move a piece back to a repetition tries it first, "
                "scored as the draw (the Micro paper's smart move stack)");
  cmd->add_flag(
      "--chip-extensions", opt.chip_extensions,
      "The chips' quiescence extensions (AIJ 5, flags 9-12): a pawn to the 7th (or a passed pawn to the 6th), "
      "hung pieces of the side to move (flags 10-11) or of the other side (flag 12); docs/chip.md");
  cmd->add_option("--workers", opt.workers,
                  "Software workers sharing the root's moves and the chips, scheduled in simulated time (AIJ 6; at "
                  "most one per chip; 1: sequential)")
      ->check(CLI::Range(1, 480))
      ->capture_default_str();
  cmd->add_flag("--overlap-iterations", opt.overlap_iterations,
                "With --workers: a free worker searches the next iteration's first move while the last moves of "
                "this one finish, instead of each iteration starting when the last has ended (docs/search.md)");
  add_link_timeout_option(cmd, opt.link_timeout);
  cmd->add_option("--threads", opt.threads,
                  "OS threads clocking the in-process chips while the search waits (same answers for any number; "
                  "0: the machine's cores)")
      ->check(CLI::Range(0, 512))
      ->capture_default_str();
  cmd->add_option("--host-node-us", opt.host_node_us,
                  "The host's cost model: microseconds of simulated host time per software node, during which the "
                  "running chips search on (0: the host's software is free; docs/search.md)")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  cmd->add_option("--chip-node-limit", opt.chip_node_limit,
                  "AIJ 6.1's abort and re-split: a hardware search of two plies or more stops after this many "
                  "nodes and the software searches its node one ply deeper, the children on the chips in parallel "
                  "(Deep Blue: 8000; 0: no limit)")
      ->check(CLI::Range(0u, 100000000u))
      ->capture_default_str();
}

int default_threads() { return std::max(1, int(std::thread::hardware_concurrency())); }

std::unique_ptr<search::ChipLeafSearch> make_leaf_search(const LeafOptions& opt) {
  if (opt.chip_depth == 0) return nullptr;
  chip::SearchParams params;
  params.mating_checks = params.singular_checks = opt.chip_checks;
  params.offset_singular = params.offset_binary = opt.chip_offsets;
  params.repetition_bound = opt.chip_rep_bound;
  params.extend_pawn_on_7th = params.extend_pawn_on_6th = params.extend_hung_pieces = params.extend_hung_twice =
      params.extend_opp_hung = opt.chip_extensions;
  auto leaf = make_leaf_search(opt.backend, opt.chips, opt.chip_depth, params, opt.mca, opt.link_timeout);
  leaf->set_threads(opt.threads > 0 ? opt.threads : default_threads());
  leaf->set_host_node_ns(std::uint32_t(opt.host_node_us * 1000 + 0.5));
  leaf->set_node_limit(opt.chip_node_limit);
  leaf->set_generator_params(opt.generator_params);
  return leaf;
}

std::unique_ptr<search::ChipLeafSearch> make_default_leaf_search(
    const std::string& backend, int chips, int depth, std::shared_ptr<const chip::GeneratorParams> generator_params) {
  LeafOptions opt;
  opt.generator_params = std::move(generator_params);
  opt.backend = backend;
  opt.chips = chips;
  opt.chip_depth = depth;
  return make_leaf_search(opt);
}

nlohmann::json leaf_stats_json(const search::LeafStats& st) {
  return nlohmann::json{
      {"searches", st.searches},
      {"nodes", st.nodes},
      {"wasted_searches", st.wasted_searches},
      {"wasted_nodes", st.wasted_nodes},
      {"busy_clocks", st.busy_clocks},
      {"parallel_clocks", st.parallel_clocks},
      {"simulated_seconds", double(st.parallel_clocks) / search::kChipClockHz},
      {"chips_busy", st.parallel_clocks ? double(st.busy_clocks) / double(st.parallel_clocks) : 0.0},
      {"host_software_nodes", st.software_nodes},
      {"host_software_clocks", st.host_clocks},
      {"host_software_share", st.parallel_clocks ? double(st.host_clocks) / double(st.parallel_clocks) : 0.0},
      {"chips_lost", st.chips_lost},
      {"reruns", st.reruns},
      {"overflows", st.overflows}};
}

nlohmann::json leaf_stats_json(const search::ChipLeafSearch* chips) {
  nlohmann::json j = leaf_stats_json(chips ? chips->stats() : search::LeafStats{});
  if (const auto* mca = chips ? dynamic_cast<sim::McaTimeline*>(chips->timeline()) : nullptr) {
    const sim::McaTimeline::Figures f = mca->figures();
    j["bus"] = nlohmann::json{
        {"accesses", f.accesses},
        {"words", f.words},
        {"bus_busy_seconds", f.bus_busy_seconds},
        {"host_overhead_seconds", f.host_overhead_seconds},
        {"host_io_seconds", f.host_io_seconds},
        {"simulated_seconds", f.simulated_seconds},
        {"bus_share", f.simulated_seconds > 0 ? f.bus_busy_seconds / f.simulated_seconds : 0.0},
        {"host_io_share", f.simulated_seconds > 0 ? f.host_io_seconds / f.simulated_seconds : 0.0},
        {"status_polls", f.status_polls},
        {"host_poll_seconds", f.host_poll_seconds},
        // The host's I/O for work (positions, parameters, commands, results), not polls.
        {"host_work_share",
         f.simulated_seconds > 0 ? (f.host_io_seconds - f.host_poll_seconds) / f.simulated_seconds : 0.0},
        {"download_seconds", f.download_seconds},
        {"host_software_seconds", f.host_software_seconds},
        {"host_overhead_us", double(mca->node().host().overhead().value()) / 1e6}};
  }
  // Chips behind links: the links' traffic (each server's connection once).
  std::set<const link::Connection*> links;
  for (const chip::SearchChip* c : chips ? chips->all_chips() : std::vector<const chip::SearchChip*>{}) {
    if (const auto* remote = dynamic_cast<const chip::RemoteSearchChip*>(c)) links.insert(remote->link().get());
  }
  if (!links.empty()) {
    link::ConnectionStats sum;
    for (const link::Connection* l : links) {
      sum.frames_sent += l->stats().frames_sent;
      sum.frames_received += l->stats().frames_received;
      sum.bytes_sent += l->stats().bytes_sent;
      sum.bytes_received += l->stats().bytes_received;
      sum.round_trips += l->stats().round_trips;
      sum.resends += l->stats().resends;
      sum.late_replies += l->stats().late_replies;
      sum.damaged_frames += l->stats().damaged_frames;
    }
    const double jobs = double(chips->stats().searches + chips->stats().wasted_searches);
    j["link"] =
        nlohmann::json{{"servers", links.size()},
                       {"frames_sent", sum.frames_sent},
                       {"frames_received", sum.frames_received},
                       {"bytes_sent", sum.bytes_sent},
                       {"bytes_received", sum.bytes_received},
                       {"round_trips", sum.round_trips},
                       // serial links only (docs/link.md "Serial links"); 0 over TCP
                       {"resends", sum.resends},
                       {"late_replies", sum.late_replies},
                       {"damaged_frames", sum.damaged_frames},
                       {"round_trips_per_chip_search", jobs > 0 ? double(sum.round_trips) / jobs : 0.0},
                       {"bytes_per_chip_search", jobs > 0 ? double(sum.bytes_sent + sum.bytes_received) / jobs : 0.0}};
  }
  return j;
}

}  // namespace db::cli
