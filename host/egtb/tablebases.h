// The set of endgame databases a program uses: tables made in memory or read from a directory on
// first use (<dir>/<material>.dbtb). Probing is thread-safe (the search's workers share one set).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "egtb/board.h"
#include "egtb/table.h"
#include "egtb/value.h"

namespace db::egtb {

class Tablebases {
 public:
  Tablebases() = default;
  // Tables are read from dir when first needed; a missing file means "not in the databases".
  explicit Tablebases(std::string dir);
  const std::string& dir() const { return dir_; }

  void add(Table table);  // a table made in memory (it replaces a file of the same material)
  // The first error reading a file (find() throws it once, then treats the table as missing).
  std::string error() const;
  // The table of a canonical material, or nullptr when there is none.
  const Table* find(const Material& canonical) const;
  // The largest piece count (kings included) of any table present (files or added).
  int max_pieces() const;
  // The materials with a table (files or added), canonical.
  std::vector<Material> available() const;

  // The value of b for its side to move, from the table (b.ep is ignored); nullopt without one.
  // A bare pair of kings is a draw without a table.
  std::optional<Value> probe(const Board& b) const;
  // A position of the game: nullopt when it has castling rights, too many pieces or no table.
  // A position with a capturable en passant square is answered from its moves (the tables hold
  // positions without one). Checkmate and stalemate need no table.
  std::optional<Value> probe(const Position& pos) const;

  // The best move by the databases (the quickest mate when winning, the longest defence when
  // losing, a move keeping the draw when drawn) and its value for the side to move; none when
  // the position is not in the databases or has no moves.
  struct Choice {
    Move move = Move::none();
    Value value;
  };
  std::optional<Choice> best_move(const Position& pos) const;

 private:
  std::string dir_;
  mutable std::atomic<int> max_pieces_{-1};  // cached by max_pieces(); add() resets it
  mutable std::string error_;                // the first file that could not be read
  mutable std::mutex mutex_;
  mutable std::map<std::uint32_t, std::unique_ptr<Table>> tables_;  // by material key; nullptr: no file
};

}  // namespace db::egtb
