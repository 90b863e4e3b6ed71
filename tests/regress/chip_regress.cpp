// chip_regress: runs one RTL regression job and prints one JSON line (scripts/regress runs many
// of them in parallel). Every job is deterministic in its arguments, so the command line that
// scripts/regress prints for a failure reproduces it.
//
//   chip_regress movegen --fen FEN            every generator mode, RTL and model in lock-step,
//                                             and the moves against the chess core
//   chip_regress perft --fen FEN --depth D --expect N [--backend rtl|cosim]
//   chip_regress game --seed S --plies P      a random legal game played on the chip (MAKE), every
//                                             mode checked at every position, then unmade
//   chip_regress search --fen FEN --depth D   hardware searches to depths 1..D with the generator's
//                                             weights and most search features on, RTL and model in
//                                             lock-step (in the second configuration the RTL's
//                                             assertions on the search are checked too)
// Options for all: --trace FILE --trace-from C --trace-to C (traced builds), --coverage FILE
// (coverage builds).
#include <chrono>
#include <iostream>
#include <random>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "chess/position.h"
#include "chip/chip_client.h"
#include "chip/chip_regs.h"
#include "chip/eval_generator.h"
#include "chip/rtl_backend.h"
#include "support/core_reference.h"

namespace {

using db::Position;
using namespace db::chip;

struct Options {
  std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  int depth = 1;
  std::uint64_t expect = 0;
  std::string backend = "cosim";
  unsigned seed = 1;
  int plies = 60;
  RtlOptions harness;
};

struct Tally {
  std::uint64_t command_clocks = 0;
  std::uint64_t nodes = 0;  // perft leaves, or moves listed
  std::uint64_t positions = 0;
};

// Fails with a message naming the position and what differed.
void check(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error(what);
}

void check_position(ChipClient& chip, const Position& pos, Tally& t) {
  const std::string fen = pos.fen();
  for (GenMode mode : {GenMode::ALL, GenMode::CAPTURES, GenMode::CHECKS, GenMode::EVASIONS, GenMode::ATTACKS}) {
    CommandStats s;
    std::vector<std::uint16_t> got = chip.generate(mode, &s);
    t.command_clocks += s.cycles;
    t.nodes += got.size();
    std::sort(got.begin(), got.end());
    check(got == reference::expected_moves(pos, mode),
          std::string("mode ") + gen_mode_name(mode) + ": the chip's moves differ from the chess core's in " + fen);
  }
  check(chip.in_check() == pos.in_check(), "in-check flag differs from the chess core in " + fen);
  check(chip.hung() == reference::expected_hung(pos), "hung pieces differ from the chess core in " + fen);
  ++t.positions;
}

void run_movegen(const Options& o, ChipClient& chip, Tally& t) {
  const Position pos = Position::from_fen(o.fen);
  chip.load(pos);
  check_position(chip, pos, t);
}

void run_perft(const Options& o, ChipClient& chip, Tally& t) {
  chip.load(Position::from_fen(o.fen));
  CommandStats s;
  t.nodes = chip.perft(o.depth, &s);
  t.command_clocks = s.cycles;
  check(t.nodes == o.expect, "perft " + std::to_string(o.depth) + " counted " + std::to_string(t.nodes) +
                                 ", published " + std::to_string(o.expect) + " for " + o.fen);
}

void run_game(const Options& o, ChipClient& chip, Tally& t) {
  Position pos = Position::from_fen(o.fen);
  chip.load(pos);
  std::mt19937 rng(o.seed);
  int made = 0;
  for (; made < o.plies && made < int(STACK_DEPTH); ++made) {
    check_position(chip, pos, t);
    const std::vector<std::uint16_t> moves = chip.generate(GenMode::ALL);
    if (moves.empty()) break;
    const std::uint16_t m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
    chip.make(m);
    pos.make_move(from_chip_move(pos, m));
  }
  const Position start = Position::from_fen(o.fen);
  for (; made > 0; --made) chip.unmake();
  for (int s = 0; s < 64; ++s) {
    check(chip.read(reg::BOARD_BASE + std::uint32_t(s)) == to_chip_piece(start.piece_on(s)),
          "unmaking the whole game did not restore the board");
  }
}

// Searches with test values around the root's evaluation, quiescence checks, extensions,
// repetitions and the offset tests on, so that every part of the search's datapath runs; half of
// them as JOBs.
void run_search(const Options& o, ChipClient& chip, Tally& t) {
  const Position pos = Position::from_fen(o.fen);
  chip.load(pos);
  download(chip, generate_weights(pos));
  chip.eval_init();
  const int fast = chip.fast_eval();
  for (int depth = 1; depth <= o.depth; ++depth) {
    for (int offset : {-60, 60}) {
      SearchParams p;
      p.depth = depth;
      p.test_value = std::clamp(fast + offset, -32767, 32767);
      p.quiescence_depth = 4;  // keeps the trees small enough for the quick suite
      p.mating_checks = 1;
      p.singular_checks = 1;
      p.extend_pawn_on_7th = p.extend_hung_pieces = p.extend_hung_twice = p.extend_pawn_on_6th = true;
      p.repetition_bound = true;
      p.offset_singular = true;
      p.offset_depth = depth;
      // The searches above the evaluation as JOBs (the same search, the position reloaded by the
      // chip): the job's load and steps run in the regression too, under the second
      // configuration's assertions.
      SearchResult r;
      if (offset > 0) {
        chip.start_job(ChipPosition::of(pos), {}, p);
        while (chip.busy()) chip.backend().tick(1);
        r = chip.search_result();
      } else {
        r = chip.search(p);
      }
      check(r.finished, "the search at depth " + std::to_string(depth) + " did not finish in " + o.fen);
      t.nodes += r.nodes;
      t.command_clocks += r.cycles;
    }
  }
  ++t.positions;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs one chip regression job (see scripts/regress)"};
  app.require_subcommand(1);
  Options o;
  auto common = [&o](CLI::App* c) {
    c->add_option("--backend", o.backend, "rtl or cosim")->check(CLI::IsMember({"rtl", "cosim"}));
    c->add_option("--trace", o.harness.trace_path, "FST waveform file (traced builds)");
    c->add_option("--trace-from", o.harness.trace_from, "first clock to trace");
    c->add_option("--trace-to", o.harness.trace_to, "last clock to trace");
    c->add_option("--coverage", o.harness.coverage_path, "coverage data file (coverage builds)");
  };
  CLI::App* movegen = app.add_subcommand("movegen", "every generator mode on one position");
  movegen->add_option("--fen", o.fen, "position")->required();
  CLI::App* perft = app.add_subcommand("perft", "hardware perft against a published count");
  perft->add_option("--fen", o.fen, "position")->required();
  perft->add_option("--depth", o.depth, "depth")->check(CLI::Range(1, 31))->required();
  perft->add_option("--expect", o.expect, "published count")->required();
  CLI::App* game = app.add_subcommand("game", "a random legal game played on the chip");
  game->add_option("--seed", o.seed, "random seed")->required();
  game->add_option("--plies", o.plies, "plies to play (at most 32)")->check(CLI::Range(1, 32));
  game->add_option("--fen", o.fen, "start position");
  CLI::App* search = app.add_subcommand("search", "hardware searches to depths 1..D");
  search->add_option("--fen", o.fen, "position")->required();
  search->add_option("--depth", o.depth, "deepest search")->check(CLI::Range(1, 8))->required();
  for (CLI::App* c : {movegen, perft, game, search}) common(c);
  CLI11_PARSE(app, argc, argv);

  const std::string job = app.get_subcommands().front()->get_name();
  nlohmann::json out = {{"job", job}, {"backend", o.backend}};
  Tally t;
  const auto start = std::chrono::steady_clock::now();
  int rc = 0;
  try {
    ChipClient chip(make_backend(o.backend, o.harness));
    try {
      if (job == "movegen")
        run_movegen(o, chip, t);
      else if (job == "perft")
        run_perft(o, chip, t);
      else if (job == "search")
        run_search(o, chip, t);
      else
        run_game(o, chip, t);
      out["pass"] = true;
    } catch (const CosimMismatch& e) {
      out["pass"] = false;
      out["error"] = e.what();
      out["mismatch_clock"] = e.clock();
      rc = 1;
    }
    out["clocks"] = chip.backend().clock();
  } catch (const std::exception& e) {
    out["pass"] = false;
    out["error"] = e.what();
    rc = 1;
  }
  out["command_clocks"] = t.command_clocks;
  out["nodes"] = t.nodes;
  out["positions"] = t.positions;
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (job == "perft") out["depth"] = o.depth;
  std::cout << out.dump() << std::endl;
  return rc;
}
