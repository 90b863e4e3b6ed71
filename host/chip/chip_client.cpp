// Typed host operations on the chip's register interface. See chip_client.h.
#include "chip/chip_client.h"

#include <fmt/format.h>

#include <algorithm>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chip/array_model.h"
#include "chip/chip_regs.h"

namespace db::chip {

namespace {

namespace st = field::status;

std::uint32_t command(std::uint32_t op, std::uint32_t mode = 0, std::uint32_t depth = 0) {
  return field::cmd::OP.put(op) | field::cmd::MODE.put(mode) | field::cmd::DEPTH.put(depth);
}

// A field's value, or std::invalid_argument naming the parameter and the field's range.
std::uint32_t checked(const field::Field& f, long long value, const char* what) {
  if (!f.fits(value)) throw std::invalid_argument(fmt::format("{} {} out of range 0-{}", what, value, f.mask()));
  return f.put(std::uint32_t(value));
}

}  // namespace

GenMode parse_gen_mode(const std::string& name) {
  if (name == "all") return GenMode::ALL;
  if (name == "captures") return GenMode::CAPTURES;
  if (name == "checks") return GenMode::CHECKS;
  if (name == "evasions") return GenMode::EVASIONS;
  if (name == "attacks") return GenMode::ATTACKS;
  throw std::invalid_argument("unknown move-generator mode '" + name +
                              "' (expected all, captures, checks, evasions or attacks)");
}

const char* gen_mode_name(GenMode mode) {
  static constexpr const char* NAMES[5] = {"all", "captures", "checks", "evasions", "attacks"};
  return NAMES[std::uint32_t(mode) % 5];
}

const char* error_name(std::uint32_t code) {
  switch (code) {
    case err::NONE:
      return "NONE";
    case err::BAD_ADDRESS:
      return "BAD_ADDRESS";
    case err::BUSY:
      return "BUSY";
    case err::BAD_COMMAND:
      return "BAD_COMMAND";
    case err::BAD_ARGUMENT:
      return "BAD_ARGUMENT";
    case err::BAD_MOVE:
      return "BAD_MOVE";
    case err::STACK:
      return "STACK";
    case err::READ_ONLY:
      return "READ_ONLY";
    default:
      return "UNKNOWN";
  }
}

std::uint8_t to_chip_piece(Piece p) {
  if (p == NO_PIECE) return CHIP_EMPTY;
  return std::uint8_t((color_of(p) == BLACK ? CHIP_BLACK : 0) | (type_of(p) + 1));
}

Piece from_chip_piece(std::uint8_t code) {
  const int t = code & 7;
  if (t == 0 || t == 7) return NO_PIECE;
  return make_piece((code & CHIP_BLACK) ? BLACK : WHITE, PieceType(t - 1));
}

std::uint16_t to_chip_move(Move m) {
  if (m.is_none()) return 0;
  std::uint16_t w = std::uint16_t(0x8000 | m.to() << 6 | m.from());
  if (m.is_promotion()) {
    static constexpr int IDX[PIECE_TYPE_NB] = {0, 3, 2, 1, 0, 0};  // N 3, B 2, R 1, Q 0
    w = std::uint16_t(w | 0x4000 | IDX[m.promotion()] << 12);
  }
  return w;
}

Move from_chip_move(const Position& pos, std::uint16_t word) {
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    if (to_chip_move(m) == word) return m;
  }
  return Move::none();
}

std::string chip_move_to_string(std::uint16_t word) {
  if (!(word & 0x8000)) return "none";
  static constexpr const char PROMO[4] = {'q', 'r', 'b', 'n'};
  std::string s;
  for (int sq : {word & 63, (word >> 6) & 63}) {
    s += char('a' + (sq & 7));
    s += char('1' + (sq >> 3));
  }
  if (word & 0x4000) s += PROMO[(word >> 12) & 3];
  return s;
}

ChipClient::ChipClient(std::unique_ptr<ChipBackend> backend) : backend_(std::move(backend)) {}

std::uint32_t ChipClient::read(std::uint32_t addr) {
  const BusResponse r = backend_->access(false, addr, 0);
  if (r.error) {
    backend_->access(true, reg::ERROR, 0);  // the error is reported here: clear the sticky copy
    throw ChipError(err::BAD_ADDRESS, addr, fmt::format("chip: read of unmapped address 0x{:05X}", addr));
  }
  return r.data;
}

void ChipClient::write(std::uint32_t addr, std::uint32_t data) {
  job_registers_.forget(addr);
  store(addr, data);
}

std::uint32_t ChipClient::take_error() {
  const std::uint32_t e = backend_->access(false, reg::ERROR, 0).data;
  backend_->access(true, reg::ERROR, 0);  // the error is reported by the caller: clear the sticky copy
  return e;
}

void ChipClient::store(std::uint32_t addr, std::uint32_t data) {
  const BusResponse r = backend_->access(true, addr, data);
  if (r.error) {
    const std::uint32_t e = take_error();
    const char* name = register_name(addr);
    const std::uint32_t code = field::error::CODE.get(e);
    throw ChipError(code, addr,
                    fmt::format("chip: write of 0x{:X} to {} (0x{:05X}) refused: {}", data,
                                *name ? name : "unmapped address", addr, error_name(code)));
  }
}

void ChipClient::run(std::uint32_t cmd, CommandStats* stats) {
  write(reg::CMD, cmd);
  std::uint32_t status = read(reg::STATUS);
  // Short commands (one GEN) take a few clocks, PERFT millions: poll at doubling intervals.
  std::uint64_t wait = 1;
  while (st::BUSY.get(status)) {
    backend_->tick(wait);
    wait = std::min(wait * 2, poll_interval_);
    status = read(reg::STATUS);
  }
  if (stats) {
    stats->cycles = std::uint64_t(read(reg::CYCLES_HI)) << 32 | read(reg::CYCLES_LO);
    stats->generated = read(reg::GENERATED);
  }
  const std::uint32_t code = st::ERR_CODE.get(status);
  if (code != err::NONE) {
    write(reg::ERROR, 0);
    throw ChipError(code, reg::CMD, fmt::format("chip: command 0x{:X} failed: {}", cmd, error_name(code)));
  }
}

ChipPosition ChipPosition::of(const Position& pos) {
  ChipPosition p;
  for (int s = 0; s < 64; ++s) p.board[std::size_t(s)] = to_chip_piece(pos.piece_on(s));
  p.black_to_move = pos.side_to_move() == BLACK;
  p.castling = std::uint8_t(pos.castling_rights());
  const Square ep = pos.ep_square();
  p.ep = ep == SQ_NONE ? 0 : (0x40 | std::uint32_t(ep));
  p.halfmove = std::uint16_t(pos.halfmove_clock() & 0xFFFF);
  p.fullmove = std::uint16_t(pos.fullmove_number() & 0xFFFF);
  return p;
}

void ChipClient::load(const Position& pos) { load(ChipPosition::of(pos)); }

void ChipClient::load(const ChipPosition& pos) {
  for (int s = 0; s < 64; ++s) write(reg::BOARD_BASE + std::uint32_t(s), pos.board[std::size_t(s)]);
  write(reg::STM, pos.black_to_move ? 1 : 0);
  write(reg::CASTLING, pos.castling);
  write(reg::EP, pos.ep);
  write(reg::HALFMOVE, pos.halfmove);
  write(reg::FULLMOVE, pos.fullmove);
}

std::uint64_t ChipClient::perft(int depth, CommandStats* stats) {
  run(command(op::PERFT, 0, std::uint32_t(depth)), stats);
  return std::uint64_t(read(reg::COUNT_HI)) << 32 | read(reg::COUNT_LO);
}

std::vector<std::uint16_t> ChipClient::generate(GenMode mode, CommandStats* stats) {
  std::vector<std::uint16_t> moves;
  std::uint16_t last = 0;
  for (;;) {
    write(reg::MOVE, last);
    CommandStats one;
    run(command(op::GEN, std::uint32_t(mode)), &one);
    if (stats) {
      stats->cycles += one.cycles;
      stats->generated += one.generated;
    }
    if (!st::MOVE_VALID.get(read(reg::STATUS))) break;
    last = std::uint16_t(read(reg::MOVE));
    moves.push_back(last);
  }
  return moves;
}

void ChipClient::make(std::uint16_t move) {
  write(reg::MOVE, move);
  run(command(op::MAKE));
}

void ChipClient::unmake() { run(command(op::UNMAKE)); }

bool ChipClient::in_check() { return st::IN_CHECK.get(read(reg::STATUS)) != 0; }

std::uint64_t ChipClient::hung() { return std::uint64_t(read(reg::HUNG_HI)) << 32 | read(reg::HUNG_LO); }
std::uint64_t ChipClient::pinned() { return std::uint64_t(read(reg::PINNED_HI)) << 32 | read(reg::PINNED_LO); }

}  // namespace db::chip

namespace db::chip {

void ChipClient::load_placement(const std::array<std::int16_t, 512>& table) {
  for (std::uint32_t i = 0; i < table.size(); ++i) write(reg::PST_BASE + i, std::uint16_t(table[i]));
}

void ChipClient::load_phase(const std::array<std::uint16_t, 1024>& table) {
  for (std::uint32_t i = 0; i < table.size(); ++i) write(reg::PHASE_RAM_BASE + i, table[i]);
}

std::uint32_t ChipClient::phase() { return read(reg::PHASE); }

void ChipClient::eval_init(CommandStats* stats) { run(op::EVAL_INIT, stats); }

int ChipClient::fast_eval() { return std::int16_t(read(reg::FAST_EVAL) & 0xFFFF); }

int ChipClient::placement_sum() { return std::int16_t(read(reg::PST_SUM) & 0xFFFF); }

void ChipClient::load_slow_weights(const SlowEvalWeights& w) {
  for (int i = 0; i < EVAL_REGS_COUNT; ++i) write(EVAL_REGS_BASE + std::uint32_t(i), w.regs[i]);
  for (int t = 0; t < EVAL_TABLES_COUNT; ++t) {
    for (int e = 0; e < EVAL_TABLE_ENTRIES[t]; ++e) {
      write(EVAL_TABLES_BASE + std::uint32_t(t) * EVAL_TABLES_WINDOW + std::uint32_t(e), w.tables[t][e]);
    }
  }
}

ChipClient::SlowEval ChipClient::slow_eval(CommandStats* stats) {
  run(op::SLOW_EVAL, stats);
  SlowEval out;
  for (int g = 0; g < SLOW_GROUPS; ++g)
    out.group[g] = std::int16_t(read(reg::SE_GROUP_BASE + std::uint32_t(g)) & 0xFFFF);
  out.value = std::int16_t(read(reg::SLOW_EVAL) & 0xFFFF);
  out.total = std::int16_t(read(reg::EVAL_TOTAL) & 0xFFFF);
  return out;
}

}  // namespace db::chip

namespace db::chip {

std::uint32_t SearchParams::control_word() const {
  namespace sc = field::search_ctrl;
  return sc::QUIESCENCE.put(quiescence) | sc::EVASIONS.put(evasions) | sc::REPETITION.put(repetition) |
         sc::NO_PROGRESS.put(no_progress) | checked(sc::MATING_CHECKS, mating_checks, "mating checks") |
         checked(sc::SINGULAR_CHECKS, singular_checks, "singular checks") |
         checked(sc::QS_DEPTH, quiescence_depth, "quiescence depth") | sc::IGNORE_STALEMATE.put(ignore_stalemate) |
         sc::EXT_PAWN7.put(extend_pawn_on_7th) | sc::EXT_HUNG2.put(extend_hung_pieces) |
         sc::EXT_HUNG1.put(extend_hung_twice) | sc::EXT_OPP_HUNG.put(extend_opp_hung) |
         sc::REP_TIE.put(repetition_tie) | sc::REP_STRIVE.put(strive_for_draw) | sc::REP_BOUND.put(repetition_bound) |
         sc::EXT_PAWN6.put(extend_pawn_on_6th) |
         checked(sc::REP_BASE, repetition_tie_base, "repetition tie-breaker base");
}

std::uint32_t SearchParams::offset_word() const {
  namespace oc = field::offset_ctrl;
  if (!oc::DEPTH.fits(offset_depth) || (offset_tests() && (offset_depth < 1 || offset_depth > depth))) {
    throw std::invalid_argument(
        fmt::format("offset depth {} out of range 1-{} (the search depth)", offset_depth, depth));
  }
  return oc::DEPTH.put(std::uint32_t(offset_depth)) | oc::SINGULAR.put(offset_singular) |
         oc::BINARY.put(offset_binary) | oc::TRINARY.put(offset_trinary) |
         checked(oc::MARGIN, offset_margin, "offset margin");
}

void ChipClient::start_search(const SearchParams& params) {
  if (params.depth < 1 || params.depth > 31) {
    throw std::invalid_argument(fmt::format("search depth {} out of range 1-31", params.depth));
  }
  for (int v : {params.test_value, params.test_tie, params.slow_estimate}) {
    if (v < -32767 || v > 32767) throw std::invalid_argument(fmt::format("test value {} out of range", v));
  }
  write(reg::SEARCH_CTRL, params.control_word());
  write(reg::OFFSET_CTRL, params.offset_word());
  write(reg::TEST_VALUE, std::uint16_t(params.test_value));
  write(reg::TEST_TIE, std::uint16_t(params.test_tie));
  write(reg::NODE_LIMIT, params.node_limit);
  if (!params.keep_slow_estimate) write(reg::SLOW_EST, std::uint16_t(params.slow_estimate));
  write(reg::CMD, command(op::SEARCH, 0, std::uint32_t(params.depth)));
  const std::uint32_t status = read(reg::STATUS);
  const std::uint32_t code = st::ERR_CODE.get(status);
  if (code != err::NONE) {
    write(reg::ERROR, 0);
    throw ChipError(code, reg::CMD, fmt::format("chip: SEARCH failed to start: {}", error_name(code)));
  }
}

bool ChipClient::busy() { return st::BUSY.get(read(reg::STATUS)); }

SearchResult search_result_of(const std::array<std::uint32_t, 7>& words) {
  SearchResult r;
  const std::uint32_t result = words[0];
  namespace rf = field::result;
  r.finished = rf::FINISHED.get(result);
  r.fail_high = rf::FAIL_HIGH.get(result);
  r.node_limit = rf::NODE_LIMIT.get(result);
  r.no_legal_move = rf::NO_MOVE.get(result);
  r.alternatives = int(rf::ALTERNATIVES.get(result));
  r.offset_ran = rf::OFFSET_RAN.get(result);
  r.extended = rf::EXTENDED.get(result);
  r.aborted = st::ABORTED.get(words[1]);
  r.best_move = std::uint16_t(words[2]);
  r.nodes = std::uint64_t(words[4]) << 32 | words[3];
  r.cycles = std::uint64_t(words[6]) << 32 | words[5];
  return r;
}

SearchResult search_result_of_packed(std::uint32_t job_result, std::uint64_t nodes, std::uint64_t cycles) {
  namespace jr = field::job_result;
  std::array<std::uint32_t, 7> words{};
  words[0] = jr::RESULT.get(job_result);
  words[1] = st::ABORTED.put(jr::ABORTED.get(job_result));
  words[2] = jr::BEST_MOVE.get(job_result);
  words[3] = std::uint32_t(nodes);
  words[4] = std::uint32_t(nodes >> 32);
  words[5] = std::uint32_t(cycles);
  words[6] = std::uint32_t(cycles >> 32);
  return search_result_of(words);
}

SearchResult ChipClient::search_result() {
  // Two reads where there were seven (RESULT, STATUS, BEST_MOVE and both halves of the counts):
  // JOB_RESULT and JOB_COUNTS, or the four count registers when JOB_RESULT says the counts do not
  // fit JOB_COUNTS (a search of 8192 nodes or more, or 2^19 clocks).
  namespace jr = field::job_result;
  // Where the bus moves several words a transfer, JOB_RESULT, TEST_PAIR and JOB_COUNTS in one.
  std::array<std::uint32_t, 3> block{};
  static_assert(reg::JOB_COUNTS == reg::JOB_RESULT + 2, "JOB_RESULT and JOB_COUNTS one word apart");
  const bool burst = backend_->bursts();
  if (burst && !backend_->read_block(reg::JOB_RESULT, block.data(), int(block.size()))) {
    const std::uint32_t e = take_error();
    const std::uint32_t addr = field::error::ADDR.get(e);
    throw ChipError(field::error::CODE.get(e), addr,
                    fmt::format("chip: the result registers' burst read refused at 0x{:05X}: {}", addr,
                                error_name(field::error::CODE.get(e))));
  }
  const std::uint32_t word = burst ? block[0] : read(reg::JOB_RESULT);
  if (jr::ERROR.get(word)) {
    // A JOB stopped at a refused step (its SEARCH did not run): report it as the command's error.
    const std::uint32_t e = read(reg::ERROR);
    write(reg::ERROR, 0);
    const std::uint32_t code = field::error::CODE.get(e);
    throw ChipError(code, field::error::ADDR.get(e),
                    fmt::format("chip: search job failed: {} (at {})", error_name(code),
                                *register_name(field::error::ADDR.get(e)) ? register_name(field::error::ADDR.get(e))
                                                                          : "an unmapped address"));
  }
  if (!jr::WIDE.get(word)) {
    const std::uint32_t counts = burst ? block[2] : read(reg::JOB_COUNTS);
    return search_result_of_packed(word, field::job_counts::NODES.get(counts), field::job_counts::CYCLES.get(counts));
  }
  const std::uint64_t nodes = read(reg::COUNT_LO) | std::uint64_t(read(reg::COUNT_HI)) << 32;
  const std::uint64_t cycles = read(reg::CYCLES_LO) | std::uint64_t(read(reg::CYCLES_HI)) << 32;
  return search_result_of_packed(word, nodes, cycles);
}

std::vector<RegWrite> search_job_writes(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                                        const SearchParams& params) {
  if (params.depth < 1 || params.depth > 31) {
    throw std::invalid_argument(fmt::format("search depth {} out of range 1-31", params.depth));
  }
  if (history.size() + std::size_t(params.depth) > STACK_DEPTH) {
    throw std::invalid_argument(fmt::format("a job of {} history moves and depth {} does not fit the chip's stack ({})",
                                            history.size(), params.depth, STACK_DEPTH));
  }
  for (int v : {params.test_value, params.test_tie, params.slow_estimate}) {
    if (v < -32767 || v > 32767) throw std::invalid_argument(fmt::format("test value {} out of range", v));
  }
  std::vector<RegWrite> w;
  w.reserve(8 + 1 + 16 + 6);
  for (std::uint32_t i = 0; i < reg::BOARD_PACK_COUNT; ++i) {
    std::uint32_t word = 0;
    for (std::uint32_t k = 0; k < 8; ++k) word |= std::uint32_t(start.board[8 * i + k] & 15) << (4 * k);
    w.push_back({reg::BOARD_PACK_BASE + i, word});
  }
  namespace jp = field::job_pos;
  w.push_back({reg::JOB_POS, jp::BLACK.put(start.black_to_move) | jp::CASTLING.put(start.castling) |
                                 jp::EP_SQUARE.put(field::ep::SQUARE.get(start.ep)) |
                                 jp::EP_VALID.put(field::ep::VALID.get(start.ep)) | jp::HALFMOVE.put(start.halfmove)});
  for (std::size_t m = 0; m < history.size(); m += 2) {
    const std::uint32_t second = m + 1 < history.size() ? history[m + 1] : 0;
    w.push_back({reg::JOB_HISTORY_BASE + std::uint32_t(m / 2), second << 16 | history[m]});
  }
  w.push_back({reg::SEARCH_CTRL, params.control_word()});
  w.push_back({reg::OFFSET_CTRL, params.offset_word()});
  w.push_back({reg::TEST_PAIR, std::uint32_t(std::uint16_t(params.test_tie)) << 16 | std::uint16_t(params.test_value)});
  w.push_back({reg::NODE_LIMIT, params.node_limit});
  if (!params.keep_slow_estimate) w.push_back({reg::SLOW_EST, std::uint16_t(params.slow_estimate)});
  w.push_back({reg::CMD, command(op::JOB, 0, std::uint32_t(params.depth)) |
                             field::cmd::HISTORY.put(std::uint32_t(history.size()))});
  return w;
}

void ChipClient::start_job(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                           const SearchParams& params) {
  const std::vector<JobWord> words = job_registers_.image(start, history, params);
  bool written = false;
  try {
    written = backend_->write_job(words);
  } catch (...) {
    job_registers_.clear();  // the link or bus failed part way: what the chip holds is not known
    throw;
  }
  if (written) return;
  job_registers_.clear();  // a refused write: what the chip holds is not known
  const std::uint32_t e = take_error();
  const std::uint32_t addr = field::error::ADDR.get(e);
  const char* name = register_name(addr);
  throw ChipError(field::error::CODE.get(e), addr,
                  fmt::format("chip: search job's write to {} (0x{:05X}) refused: {}",
                              *name ? name : "unmapped address", addr, error_name(field::error::CODE.get(e))));
}

int JobRegisters::slot(std::uint32_t addr) {
  if (addr >= reg::BOARD_PACK_BASE && addr < reg::BOARD_PACK_BASE + reg::BOARD_PACK_COUNT)
    return int(addr - reg::BOARD_PACK_BASE);
  if (addr >= reg::JOB_HISTORY_BASE && addr < reg::JOB_HISTORY_BASE + reg::JOB_HISTORY_COUNT)
    return 8 + int(addr - reg::JOB_HISTORY_BASE);
  switch (addr) {
    case reg::JOB_POS:
      return 24;
    case reg::SEARCH_CTRL:
      return 25;
    case reg::OFFSET_CTRL:
      return 26;
    case reg::TEST_PAIR:
    case reg::TEST_VALUE:  // halves of TEST_PAIR
    case reg::TEST_TIE:
      return 27;
    case reg::NODE_LIMIT:
      return 28;
    default:
      return -1;
  }
}

void JobRegisters::forget(std::uint32_t addr) {
  const int i = slot(addr);
  if (i >= 0) known_ &= ~(1u << i);
}

std::vector<JobWord> JobRegisters::image(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                                         const SearchParams& params) {
  std::vector<JobWord> out;
  const std::uint32_t history_words = std::uint32_t(history.size() + 1) / 2;
  for (const RegWrite& w : search_job_writes(start, history, params)) {
    const int i = slot(w.addr);  // -1 for SLOW_EST and CMD: always written
    const bool held = i >= 0 && (known_ >> i & 1) && value_[std::size_t(i)] == w.data;
    if (i >= 0) {
      value_[std::size_t(i)] = w.data;
      known_ |= 1u << i;
    }
    out.push_back({w.addr, w.data, !held});
    if (w.addr == reg::JOB_POS) {
      // The history words this job does not use, after its own: their value does not matter. One
      // the host knows is offered as it is; an unknown one as 0, and it stays unknown, since the
      // backend may or may not write it.
      for (std::uint32_t k = history_words; k < reg::JOB_HISTORY_COUNT; ++k) {
        const int h = slot(reg::JOB_HISTORY_BASE + k);
        out.push_back({reg::JOB_HISTORY_BASE + k, (known_ >> h & 1) ? value_[std::size_t(h)] : 0, false});
      }
    }
  }
  return out;
}

std::vector<RegWrite> JobRegisters::writes(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                                           const SearchParams& params) {
  std::vector<RegWrite> out;
  for (const JobWord& w : image(start, history, params)) {
    if (w.needed) out.push_back({w.addr, w.data});
  }
  return out;
}

void ChipClient::abort() { write(reg::ABORT, 1); }

SearchResult ChipClient::search(const SearchParams& params) {
  start_search(params);
  std::uint64_t wait = 1;
  while (busy()) {
    backend_->tick(wait);
    wait = std::min(wait * 2, poll_interval_);
  }
  return search_result();
}

void ChipClient::load_game(const Position& start, const std::vector<Move>& moves) {
  load(start);
  eval_init();
  for (Move m : moves) make(to_chip_move(m));
}

}  // namespace db::chip
