// deepblue egtb: endgame databases (AIJ 8.3). `build` makes every table up to a piece count by
// retrograde analysis (host/egtb/generator.h) into a directory; `probe` gives a position's value
// for the side to move (win, draw or loss, and the distance to mate) and the databases' best move;
// `verify` checks the files' retrograde consistency; `sample` lists random positions with values.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "chess/notation.h"
#include "cli_common.h"
#include "commands.h"
#include "egtb/generator.h"
#include "egtb/tablebases.h"
#include "egtb/verify.h"

namespace db::cli {

namespace {

struct EgtbBuildOptions {
  std::string dir = DB_DEFAULT_EGTB;
  int pieces = 4;
  bool force = false;
  bool json = false;
};

struct EgtbSampleOptions {
  std::string dir = DB_DEFAULT_EGTB;
  std::vector<std::string> materials;  // empty: every table with --pieces pieces
  int pieces = 4;
  int count = 10;  // per table
  std::uint64_t seed = 1;
  bool json = false;
};

struct EgtbVerifyOptions {
  std::string dir = DB_DEFAULT_EGTB;
  int pieces = 3;
  std::uint64_t stride = 1;
  bool json = false;
};

struct EgtbProbeOptions {
  std::string fen;
  std::string dir = DB_DEFAULT_EGTB;
  bool json = false;
};

void run_build(const EgtbBuildOptions& opt) {
  std::filesystem::create_directories(opt.dir);
  egtb::Tablebases tbs(opt.dir);
  nlohmann::json tables = nlohmann::json::array();
  double total_seconds = 0;
  std::uintmax_t total_bytes = 0;
  for (const egtb::Material& m : egtb::all_materials(opt.pieces)) {
    const std::string path = opt.dir + "/" + egtb::table_file_name(m);
    if (!opt.force && std::filesystem::exists(path)) {
      total_bytes += std::filesystem::file_size(path);
      tables.push_back({{"material", m.name()}, {"skipped", "exists"}});
      continue;
    }
    egtb::GenerationStats st;
    egtb::Table t = egtb::generate(m, tbs, &st);
    egtb::write_table(path, t);
    const std::uintmax_t bytes = std::filesystem::file_size(path);
    total_bytes += bytes;
    total_seconds += st.seconds;
    tbs.add(std::move(t));
    nlohmann::json j = {
        {"material", m.name()}, {"positions", st.positions},         {"wins", st.wins},     {"draws", st.draws},
        {"losses", st.losses},  {"longest_plies", st.longest_plies}, {"passes", st.passes}, {"seconds", st.seconds},
        {"file_bytes", bytes},  {"evaluations", st.evaluations}};
    tables.push_back(j);
    if (!opt.json)
      std::cout << fmt::format(
                       "{:8} {:>10} positions  win {:>9} draw {:>9} loss {:>9}  longest {:>3} plies  {:6.1f} s  "
                       "{:>9} bytes\n",
                       m.name(), st.positions, st.wins, st.draws, st.losses, st.longest_plies, st.seconds, bytes)
                << std::flush;
  }
  if (opt.json) {
    print_json({{"dir", opt.dir},
                {"pieces", opt.pieces},
                {"tables", tables},
                {"seconds", total_seconds},
                {"file_bytes", total_bytes}});
    return;
  }
  std::cout << fmt::format("{} tables in {}: {} bytes, {:.1f} s\n", tables.size(), opt.dir, total_bytes, total_seconds);
}

void run_probe(const EgtbProbeOptions& opt) {
  const Position pos = parse_position_arg(opt.fen);
  const egtb::Tablebases tbs(opt.dir);
  const std::optional<egtb::Value> v = tbs.probe(pos);
  const std::string material = egtb::Material::of(pos).name();
  if (!v) {
    const std::string why =
        pos.castling_rights() != NO_CASTLING ? "the position has castling rights"
        : popcount(pos.pieces()) > egtb::kMaxPieces
            ? fmt::format("{} pieces, more than any database holds", popcount(pos.pieces()))
            : fmt::format("no database {} in {}", egtb::table_file_name(egtb::Material::of(pos).canonical()), opt.dir);
    throw egtb::EgtbError("egtb probe: " + why);
  }
  const auto choice = tbs.best_move(pos);
  const std::string best = choice ? move_to_uci(choice->move) : "";
  if (opt.json) {
    nlohmann::json j = {{"fen", pos.fen()},
                        {"material", material},
                        {"result", egtb::wdl_name(v->wdl)},
                        {"dtm_plies", v->plies},
                        {"distance", v->wdl == egtb::Wdl::Draw ? 0 : v->moves()}};
    j["best_move"] = best.empty() ? nlohmann::json() : nlohmann::json(best);
    print_json(j);
    return;
  }
  if (v->wdl == egtb::Wdl::Draw)
    std::cout << fmt::format("{}: draw", material);
  else
    std::cout << fmt::format("{}: {} for the side to move, {} in {} moves ({} plies)", material, egtb::wdl_name(v->wdl),
                             v->wdl == egtb::Wdl::Win ? "mates" : "mated", v->moves(), v->plies);
  std::cout << (best.empty() ? std::string("\n") : fmt::format("; best move {}\n", best));
}

// Random positions of the tables with their values (to compare with another program).
void run_sample(const EgtbSampleOptions& opt) {
  const egtb::Tablebases tbs(opt.dir);
  std::vector<egtb::Material> materials;
  if (opt.materials.empty()) {
    for (const egtb::Material& m : egtb::all_materials(opt.pieces))
      if (m.pieces() == opt.pieces) materials.push_back(m);
  } else {
    for (const std::string& name : opt.materials) materials.push_back(egtb::Material::parse(name).canonical());
  }
  std::mt19937_64 rng(opt.seed);
  nlohmann::json out = nlohmann::json::array();
  for (const egtb::Material& m : materials) {
    const egtb::Table* t = tbs.find(m);
    if (!t) throw egtb::EgtbError("egtb sample: no database " + egtb::table_file_name(m) + " in " + opt.dir);
    egtb::Board b;
    for (int found = 0; found < opt.count;) {
      const std::uint64_t i = rng() % t->layout.size();
      if (!t->layout.decode(i, b)) continue;
      ++found;
      const egtb::Value v = egtb::Value::from_code(t->entries[i]);
      out.push_back({{"material", m.name()},
                     {"fen", egtb::board_fen(b)},
                     {"result", egtb::wdl_name(v.wdl)},
                     {"dtm_plies", v.plies},
                     {"distance", v.wdl == egtb::Wdl::Draw ? 0 : v.moves()}});
    }
  }
  if (opt.json) {
    print_json({{"dir", opt.dir}, {"seed", opt.seed}, {"positions", out}});
    return;
  }
  for (const auto& p : out)
    std::cout << fmt::format("{:8} {:40} {:4} {:3}\n", p["material"].get<std::string>(), p["fen"].get<std::string>(),
                             p["result"].get<std::string>(), p["distance"].get<int>());
}

// Retrograde consistency of the files through the chess core (egtb/verify.h).
void run_verify(const EgtbVerifyOptions& opt) {
  const egtb::Tablebases tbs(opt.dir);
  nlohmann::json tables = nlohmann::json::array();
  std::uint64_t positions = 0, mismatches = 0;
  for (const egtb::Material& m : egtb::all_materials(opt.pieces)) {
    if (!tbs.find(m)) throw egtb::EgtbError("egtb verify: no database " + egtb::table_file_name(m) + " in " + opt.dir);
    const auto start = std::chrono::steady_clock::now();
    const egtb::VerifyStats st = egtb::verify_table(tbs, m, opt.stride);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    positions += st.positions;
    mismatches += st.mismatches;
    tables.push_back({{"material", m.name()},
                      {"positions", st.positions},
                      {"mismatches", st.mismatches},
                      {"first_mismatch", st.first_mismatch},
                      {"seconds", seconds}});
    if (!opt.json)
      std::cout << fmt::format("{:8} {:>10} positions checked, {} mismatches {}({:.1f} s)\n", m.name(), st.positions,
                               st.mismatches, st.first_mismatch.empty() ? "" : st.first_mismatch + " ", seconds)
                << std::flush;
  }
  if (opt.json)
    print_json({{"dir", opt.dir},
                {"stride", opt.stride},
                {"positions", positions},
                {"mismatches", mismatches},
                {"tables", tables}});
  if (mismatches) throw egtb::EgtbError("egtb verify: " + std::to_string(mismatches) + " positions inconsistent");
}

}  // namespace

void add_egtb_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("egtb", "Endgame databases: build them, probe a position");
  cmd->require_subcommand(1);

  auto build = std::make_shared<EgtbBuildOptions>();
  CLI::App* b = cmd->add_subcommand("build", "Make every database up to --pieces pieces by retrograde analysis");
  b->add_option("--dir", build->dir, "Directory of the database files")->capture_default_str();
  b->add_option("--pieces", build->pieces, "Pieces, kings included: 3, 4 or 5")
      ->check(CLI::Range(3, egtb::kMaxPieces))
      ->capture_default_str();
  b->add_flag("--force", build->force, "Make tables whose file exists again");
  b->add_flag("--json", build->json, "Print one JSON object");
  b->callback([build] { run_build(*build); });

  auto sample = std::make_shared<EgtbSampleOptions>();
  CLI::App* sm = cmd->add_subcommand("sample", "Random positions of the databases with their values");
  sm->add_option("--dir", sample->dir, "Directory of the database files")->capture_default_str();
  sm->add_option("--material", sample->materials, "Tables to sample (e.g. KQvKR); default: every one of --pieces");
  sm->add_option("--pieces", sample->pieces, "Pieces of the tables sampled without --material")
      ->check(CLI::Range(3, egtb::kMaxPieces))
      ->capture_default_str();
  sm->add_option("--count", sample->count, "Positions per table")->check(CLI::Range(1, 1000000))->capture_default_str();
  sm->add_option("--seed", sample->seed, "Random seed")->capture_default_str();
  sm->add_flag("--json", sample->json, "Print one JSON object");
  sm->callback([sample] { run_sample(*sample); });

  auto verify = std::make_shared<EgtbVerifyOptions>();
  CLI::App* v = cmd->add_subcommand("verify", "Check every position's value against its moves (chess core)");
  v->add_option("--dir", verify->dir, "Directory of the database files")->capture_default_str();
  v->add_option("--pieces", verify->pieces, "Check every table up to this many pieces")
      ->check(CLI::Range(3, egtb::kMaxPieces))
      ->capture_default_str();
  v->add_option("--stride", verify->stride, "Check every n-th index only")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40))
      ->capture_default_str();
  v->add_flag("--json", verify->json, "Print one JSON object");
  v->callback([verify] { run_verify(*verify); });

  auto probe = std::make_shared<EgtbProbeOptions>();
  CLI::App* p = cmd->add_subcommand("probe", "A position's value for the side to move and the databases' move");
  p->add_option("--fen", probe->fen, "Position as FEN")->required();
  p->add_option("--dir", probe->dir, "Directory of the database files")->capture_default_str();
  p->add_flag("--json", probe->json, "Print one JSON object");
  p->callback([probe] { run_probe(*probe); });

  add_egtb_chip_command(*cmd);
}

}  // namespace db::cli
