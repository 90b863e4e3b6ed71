// The host's view of one chip: typed operations (load a position, generate moves, make/unmake,
// perft) on top of the register interface, for any backend (model, rtl, cosim).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chip/bus.h"
#include "chip/slow_eval.h"

namespace db::chip {

// The position registers of the chip (what ChipClient::load writes): the form in which a host
// sends a position to a chip in this process or behind a link.
struct ChipPosition {
  std::array<std::uint8_t, 64> board{};  // chip piece codes
  bool black_to_move = false;
  std::uint8_t castling = 0;
  std::uint32_t ep = 0;  // EP register: 0x40 | square, or 0
  std::uint16_t halfmove = 0, fullmove = 1;
  static ChipPosition of(const Position& pos);
};

enum class GenMode : std::uint32_t { ALL = 0, CAPTURES = 1, CHECKS = 2, EVASIONS = 3, ATTACKS = 4 };
GenMode parse_gen_mode(const std::string& name);  // throws std::invalid_argument naming the mode
const char* gen_mode_name(GenMode mode);

// A chip error: the bus flagged a request, or a command ended with an error code.
class ChipError : public std::runtime_error {
 public:
  ChipError(std::uint32_t code, std::uint32_t addr, const std::string& what)
      : std::runtime_error(what), code_(code), addr_(addr) {}
  std::uint32_t code() const { return code_; }
  std::uint32_t addr() const { return addr_; }

 private:
  std::uint32_t code_;
  std::uint32_t addr_;
};
const char* error_name(std::uint32_t code);

// Piece and move encodings between the chess core and the chip (docs/chip.md).
std::uint8_t to_chip_piece(Piece p);
Piece from_chip_piece(std::uint8_t code);
std::uint16_t to_chip_move(Move m);
// The core move for a chip move word in this position (Move::none() if it is not legal here).
Move from_chip_move(const Position& pos, std::uint16_t word);
std::string chip_move_to_string(std::uint16_t word);  // "e2e4", "e7e8q", "none"

// Parameters of a hardware search (SEARCH command; AIJ section 5, docs/chip.md).
struct SearchParams {
  int depth = 3;       // full-width plies (1-31, with the moves already on the stack)
  int test_value = 0;  // the null window: is the root's (score, tie) >= (test_value, test_tie)?
  int test_tie = 0;
  bool quiescence = true;         // captures after the full-width depth
  bool evasions = true;           // a side in check in the quiescence search searches all its moves
  bool repetition = true;         // repetitions of earlier positions on the stack score as draws
  bool no_progress = false;       // AIJ 4.3 "no progress" pruning (off: see docs/chip.md)
  bool ignore_stalemate = false;  // a stalemate one ply above quiescence is not scored (the node fails)
  // Repetitions (AIJ 4.3; docs/chip.md): a repetition draw's tie-breaker "moves until repetition",
  // base - p for a repetition p plies below the root, positive from the root side's view when it
  // strives for the draw, negative when it avoids it (0 when off). A host that counts the moves
  // from its own root sets the base to its count at the chip's root (0-127).
  bool repetition_tie = false;
  bool strive_for_draw = false;
  int repetition_tie_base = 33;
  // A node with one piece of the side to move displaced from an earlier position first tries the
  // move back, scored as the repetition draw when legal (needs repetition).
  bool repetition_bound = false;
  // Quiescence extensions (AIJ 5, flags 9-11): search the node full width once per path when
  bool extend_pawn_on_7th = false;  // the move just made put a pawn on the 7th rank
  bool extend_hung_pieces = false;  // (flag 10) two or more hung pieces, or a hung piece that is pinned
  bool extend_hung_twice = false;   // the side to move has one hung piece, as at its previous turn
  bool extend_opp_hung = false;     // (flag 12) the other side has a hung piece
  bool extend_pawn_on_6th = false;  // (flag 9, "in some cases") a passed pawn reached the 6th, the square ahead empty
  // Checking non-captures each side may play in the quiescence search (AIJ 5, parameters 5-6), 0-3:
  int mating_checks = 0;         // no escape square for the king, or a queen contact check
  int singular_checks = 0;       // one escape square, a rook contact check, or the checked side has a hung piece
  int quiescence_depth = 16;     // plies beyond the full-width depth (0-31)
  std::uint32_t node_limit = 0;  // 0 = none
  // Offset searches at the root (AIJ 5, parameters 2 and 7; OFFSET_CTRL): after a fail high, the
  // other root moves are searched to offset_depth against test_value - offset_margin; the
  // fail-high move is searched one ply deeper, and decides, when none (singular), one (binary) or
  // two (trinary) of them reach it.
  bool offset_singular = false, offset_binary = false, offset_trinary = false;
  int offset_depth = 0;    // 1..depth when a test is on
  int offset_margin = 50;  // 0-65535
  // The lazy evaluation's low-pass filter moves with every slow evaluation; a search starts it
  // here (white's view) so that the same search gives the same tree, unless keep_slow_estimate.
  int slow_estimate = 0;
  bool keep_slow_estimate = false;
  std::uint32_t control_word() const;  // SEARCH_CTRL; throws std::invalid_argument on a bad field
  std::uint32_t offset_word() const;   // OFFSET_CTRL; the same
  bool offset_tests() const { return offset_singular || offset_binary || offset_trinary; }
};

struct SearchResult {
  bool finished = false;   // a bound was found (not stopped by the node limit or an abort)
  bool fail_high = false;  // root value >= test value
  bool node_limit = false;
  bool aborted = false;
  bool no_legal_move = false;   // the root is mate or stalemate
  bool offset_ran = false;      // the offset searches ran (a test was on and the search failed high)
  int alternatives = 0;         // other root moves that reached the offset test value (saturating)
  bool extended = false;        // the fail-high move was searched one ply deeper and decided
  std::uint16_t best_move = 0;  // the move that failed high (chip encoding), else 0
  std::uint64_t nodes = 0;
  std::uint64_t cycles = 0;
};

// The registers a search's result is read from (once the chip is idle), in this order, and the
// result they give: a host reading them through a link (ChipClient::search_result reads the packed
// JOB_RESULT and JOB_COUNTS instead: search_result_of_packed).
constexpr std::array<std::uint32_t, 7> kSearchResultRegisters = {
    reg::RESULT, reg::STATUS, reg::BEST_MOVE, reg::COUNT_LO, reg::COUNT_HI, reg::CYCLES_LO, reg::CYCLES_HI};
SearchResult search_result_of(const std::array<std::uint32_t, 7>& words);
// The result from JOB_RESULT and the node and clock counts (from JOB_COUNTS, or from the four count
// registers when JOB_RESULT says they do not fit it).
SearchResult search_result_of_packed(std::uint32_t job_result, std::uint64_t nodes, std::uint64_t cycles);

// A register write (one bus access).
struct RegWrite {
  std::uint32_t addr = 0;
  std::uint32_t data = 0;
};

// A hardware search as one JOB (interface version 2, docs/chip.md "Search jobs"): the writes that
// stage the position (BOARD_PACK, JOB_POS), the history (JOB_HISTORY, two moves a word), the
// parameters (SEARCH_CTRL, OFFSET_CTRL, TEST_PAIR, NODE_LIMIT, SLOW_EST unless kept) and the JOB
// command, in that order: 8 + 1 + ceil(moves / 2) + 5 + 1 accesses where the register path took
// about 85. The chip loads the board, runs EVAL_INIT, makes the moves and starts the SEARCH
// itself. Throws std::invalid_argument on a parameter out of range, or a history too long for the
// stack (moves + depth > STACK_DEPTH).
std::vector<RegWrite> search_job_writes(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                                        const SearchParams& params);

// What a chip's job registers hold, as far as one host has written them: BOARD_PACK, JOB_POS,
// JOB_HISTORY, SEARCH_CTRL, OFFSET_CTRL, TEST_PAIR and NODE_LIMIT keep their values until the host
// writes them again (the chip never writes them; SLOW_EST moves with every slow evaluation and is
// not kept here). A host sends a chip's jobs one after another, mostly positions near each other in
// the tree with the same parameters, so most of a job's words are already in its chip: writes()
// gives only the writes of search_job_writes() whose register does not hold the value (always the
// SLOW_EST write and the JOB command). Whoever writes one of these registers another way calls
// forget() (ChipClient::write does), and clear() when the chip may hold anything (a refused write).
//
// image() gives the whole job for a backend that writes several words per transfer (ChipBackend::
// write_job): every write of search_job_writes(), `needed` where writes() would give it, and the
// history words past the job's moves (not needed; right after JOB_POS).
class JobRegisters {
 public:
  std::vector<JobWord> image(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                             const SearchParams& params);
  std::vector<RegWrite> writes(const ChipPosition& start, const std::vector<std::uint16_t>& history,
                               const SearchParams& params);
  void forget(std::uint32_t addr);
  void clear() { known_ = 0; }

 private:
  // Slots: BOARD_PACK 0-7, JOB_HISTORY 8-23, JOB_POS, SEARCH_CTRL, OFFSET_CTRL, TEST_PAIR, NODE_LIMIT.
  static constexpr int kSlots = 29;
  static int slot(std::uint32_t addr);
  std::array<std::uint32_t, kSlots> value_{};
  std::uint32_t known_ = 0;  // bit i: slot i holds value_[i]
};

struct CommandStats {
  std::uint64_t cycles = 0;     // clocks the command ran
  std::uint64_t generated = 0;  // pseudo-legal moves produced by the generator
};

class ChipClient {
 public:
  explicit ChipClient(std::unique_ptr<ChipBackend> backend);

  ChipBackend& backend() { return *backend_; }

  std::uint32_t read(std::uint32_t addr);
  void write(std::uint32_t addr, std::uint32_t data);

  // Loads the position's board, side to move, castling, en passant and counters.
  void load(const Position& pos);
  void load(const ChipPosition& pos);
  // Leaf count of the legal move tree, computed by the chip alone.
  std::uint64_t perft(int depth, CommandStats* stats = nullptr);
  // The legal moves of the mode, in the chip's order (one GEN command per move).
  std::vector<std::uint16_t> generate(GenMode mode, CommandStats* stats = nullptr);
  void make(std::uint16_t move);
  void unmake();
  bool in_check();
  std::uint64_t hung();
  std::uint64_t pinned();  // PINNED_HI:LO: the side to move's men pinned to its king

  // Fast evaluation (part 2 so far: piece placement). Downloads the 512-word placement table.
  void load_placement(const std::array<std::int16_t, 512>& table);
  // Downloads the 1024-word game phase RAM.
  void load_phase(const std::array<std::uint16_t, 1024>& table);
  std::uint32_t phase();  // the PHASE register
  // Recomputes the placement sum and castling deltas (after loading a position or the table).
  void eval_init(CommandStats* stats = nullptr);
  int fast_eval();      // side to move's view
  int placement_sum();  // white's view

  // Slow evaluation: downloads every evaluation register and table entry (AIJ Tables 4 and 5).
  void load_slow_weights(const SlowEvalWeights& w);
  struct SlowEval {
    std::array<int, SLOW_GROUPS> group{};  // white's view
    int value = 0;                         // SLOW_EVAL, side to move's view
    int total = 0;                         // EVAL_TOTAL = FAST_EVAL + SLOW_EVAL
  };
  // Runs the SLOW_EVAL command (12 clocks) and reads the result registers.
  SlowEval slow_eval(CommandStats* stats = nullptr);

  // Hardware search. start_search() writes the parameters and the command and returns at once (the
  // chip runs on while the host works); busy() polls; search_result() reads the result registers;
  // abort() stops the chip at any clock (the host must then reload the position). search() does
  // all of it and waits.
  void start_search(const SearchParams& params);
  bool busy();
  SearchResult search_result();
  void abort();
  SearchResult search(const SearchParams& params);
  // The same search as load(start), eval_init(), make() of each move and start_search(params), as
  // one JOB (search_job_writes): returns at once; busy() and search_result() as above. A step the
  // chip refuses (a history move that is not legal, a bad argument) ends the job; search_result()
  // then throws its ChipError.
  // Writes only what the chip does not hold already (JobRegisters: writes to these registers
  // through write() are seen; raw backend accesses are not).
  void start_job(const ChipPosition& start, const std::vector<std::uint16_t>& history, const SearchParams& params);
  // Loads a game: the position at its start (e.g. the last irreversible move), the evaluation's
  // incremental state, then its moves made on the chip, so the repetition detector sees them.
  void load_game(const Position& start, const std::vector<Move>& moves);

  // Runs a command word and waits for it to finish; throws ChipError on an error code.
  void run(std::uint32_t cmd, CommandStats* stats = nullptr);

  // Longest wait (clocks) between status polls while a command runs.
  void set_poll_interval(std::uint64_t clocks) { poll_interval_ = clocks; }

 private:
  void store(std::uint32_t addr, std::uint32_t data);  // write() without forgetting job registers
  std::uint32_t take_error();                          // reads and clears ERROR (after a refused access)

  std::unique_ptr<ChipBackend> backend_;
  std::uint64_t poll_interval_ = 4096;
  JobRegisters job_registers_;
};

}  // namespace db::chip
