// A database entry: one byte per position. 0 marks an index that is no position of the table (or
// not the canonical one of a symmetric pair), 1 a draw, 2 + n a position decided in n plies: the
// side to move mates in n plies when n is odd and is mated in n plies when n is even (0: mated).
// Distances count to mate; the fifty-move rule is ignored (as in the Gaviota and Nalimov tables):
// a "win" may need more than fifty moves without a capture or a pawn move.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace db::egtb {

// Bad input to the databases (a file, a material, a position they cannot answer): the message
// names what is wrong.
class EgtbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr std::uint8_t kInvalid = 0;
constexpr std::uint8_t kDrawCode = 1;
constexpr int kMaxPlies = 252;
constexpr std::uint8_t kUnknown = 255;  // during generation only

enum class Wdl : std::int8_t { Loss = -1, Draw = 0, Win = 1 };

// The value of a position for the side to move.
struct Value {
  Wdl wdl = Wdl::Draw;
  int plies = 0;  // to mate (wins and losses); 0 for a draw

  static Value from_code(std::uint8_t code) {
    if (code < 2 || code == kUnknown) return {};
    const int n = code - 2;
    return {n % 2 ? Wdl::Win : Wdl::Loss, n};
  }
  std::uint8_t code() const { return wdl == Wdl::Draw ? kDrawCode : std::uint8_t(2 + plies); }
  // The value one ply up, for the side that made the move leading here.
  Value parent() const {
    if (wdl == Wdl::Draw) return {};
    return {wdl == Wdl::Win ? Wdl::Loss : Wdl::Win, plies + 1};
  }
  // Larger is better for the side to move: sooner wins, later losses.
  int rank() const { return wdl == Wdl::Win ? 1000 - plies : wdl == Wdl::Loss ? -1000 + plies : 0; }
  int moves() const { return (plies + 1) / 2; }  // mate in this many moves (of the winner)
  bool operator==(const Value& o) const { return wdl == o.wdl && plies == o.plies; }
};

inline const char* wdl_name(Wdl w) { return w == Wdl::Win ? "win" : w == Wdl::Loss ? "loss" : "draw"; }

}  // namespace db::egtb
