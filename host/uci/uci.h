// The UCI protocol (the language of chess GUIs and match tools) over any pair of streams.
// Garbage, unknown commands and illegal moves get an "info string error ..." line; the engine lives on.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "book/extended_book.h"
#include "book/polyglot_book.h"
#include "chess/position.h"
#include "egtb/tablebases.h"
#include "search/leaf_search.h"
#include "search/search.h"
#include "search/tt.h"

namespace db::uci {

struct EngineOptions {
  std::size_t hash_mib = 16;
  int chips = 1;
  std::string backend = "model";
  // HOST:PORT[,HOST:PORT...] (chips behind `deepblue chipd`) or serial:PATH[@BAUD] (a board), instead of Backend
  std::string remote_chips;
  int chip_depth = 0;  // 0: software leaves; else plies left at which nodes go to the chips
  int threads = 0;     // OS threads clocking the chips (Workers are software searchers); 0: the cores
  std::int64_t move_overhead_ms = 30;
  int multipv = 1;
  bool own_book = true;                            // answer go from the book while the position is in it
  std::string book_file = book::kDefaultBookPath;  // empty: no book
  std::string extended_book;                       // AIJ 8.2 (book/extended_book.h); empty: none
  std::string evaluation = "chip";  // the software's leaves: "chip" (Deep Blue's; "interim" without it) or "interim"
  int lazy_margin = search::kDefaultLazyMargin;  // LazyMargin: the chip evaluation's lazy stand pat
  std::string egtb_path;                         // endgame databases' directory; empty: none
  std::string eval_params;                       // EvalParams: "" (the defaults), "hand" or a JSON file
};

// Makes the chips of the host (the UCI library does not depend on the chip backends).
using LeafFactory =
    std::function<std::unique_ptr<search::LeafSearch>(const std::string& backend, int chips, int depth)>;

// Applies the option EvalParams (the chip evaluation generator's parameters, which this library does
// not know): "" or "default" for the built-in defaults, "hand" for the hand-set values, else a JSON
// file. Returns the chip evaluation (Evaluation chip) with those parameters; the host's LeafFactory
// must make chips with them from now on. Throws std::invalid_argument with a message for a bad value.
using EvalParamsHandler = std::function<search::EvaluatorFactory(const std::string& value)>;

class UciEngine {
 public:
  // Without a factory the engine searches with software leaves only (ChipDepth must stay 0).
  // chip_evaluation: Deep Blue's evaluation for the software's leaves (Evaluation chip); without it
  // only the interim evaluation is offered.
  UciEngine(std::istream& in, std::ostream& out, LeafFactory make_leaf_search = {},
            search::EvaluatorFactory chip_evaluation = {});
  ~UciEngine();
  // Reads commands until "quit" or end of input.
  void loop();
  // Handles one command line; returns false on "quit".
  bool handle(const std::string& line);
  // Waits until a running search ends by itself (a depth, node or time limit), as a GUI waits for
  // "bestmove"; for scripts and tests. Never returns during "go infinite" or "go ponder".
  void wait_for_search();
  // Runs every search through runner instead of the engine's Searcher::run (a cluster's master,
  // which sets the leaves itself: Chips, ChipDepth, Backend and RemoteChips then do not apply).
  using SearchRunner = std::function<search::SearchResult(search::Searcher&, const Position&, const search::Limits&,
                                                          const search::Searcher::IterationCallback&)>;
  void set_search_runner(SearchRunner runner) { runner_ = std::move(runner); }
  search::TranspositionTable& table() { return tt_; }  // the engine's (Hash resizes it in place)
  // The endgame databases (EgtbPath): a directory of deepblue egtb build's files, or empty for none.
  // Throws std::invalid_argument when it is not a directory.
  void set_egtb_path(const std::string& dir);
  // Offers the option EvalParams (none without a handler).
  void set_eval_params_handler(EvalParamsHandler handler) { eval_params_handler_ = std::move(handler); }

 private:
  void send(const std::string& line);
  void error(const std::string& what);
  void cmd_uci();
  void cmd_setoption(const std::vector<std::string>& tokens);
  void cmd_position(const std::vector<std::string>& tokens);
  void cmd_go(const std::vector<std::string>& tokens);
  void stop_search();  // stops and joins a running search
  // The book (uci_book.cpp): loaded on first use and after BookFile or OwnBook change; a book that
  // cannot be read is reported once and the engine searches instead.
  void load_book();
  bool play_book_move();       // sends "bestmove" from the book and returns true, if the position is in it
  void prepare_leaf_search();  // (re)builds the chips after Chips, Backend or ChipDepth changed
  int threads() const;         // Threads, or the machine's cores

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  EngineOptions options_;
  search::TranspositionTable tt_;
  search::Searcher searcher_;
  LeafFactory make_leaf_search_;
  search::EvaluatorFactory chip_evaluation_;
  EvalParamsHandler eval_params_handler_;
  SearchRunner runner_;
  std::unique_ptr<search::LeafSearch> leaf_;
  bool leaf_stale_ = true;
  Position position_;
  std::thread search_thread_;
  enum class BookState { Unloaded, Loaded, Failed } book_state_ = BookState::Unloaded;
  std::unique_ptr<egtb::Tablebases> tablebases_;
  book::PolyglotBook book_;
  // The extended book (ExtendedBook): loaded when set; a bad file is reported and left out.
  std::optional<book::ExtendedBook> extended_book_;
  // Before a search: the extended book's immediate move (played, true) or its root bonuses.
  bool use_extended_book(search::Limits& limits);
  std::mt19937_64 book_rng_{std::random_device{}()};  // a new game, a new line of the book
};

}  // namespace db::uci
