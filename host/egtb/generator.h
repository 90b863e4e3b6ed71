// Retrograde generation of one endgame database (distance to mate, the fifty-move rule ignored).
//
// Pass n decides exactly the positions mated or mating in n plies. Its candidates are the parents
// (by unmoves, for_each_parent) of the positions decided in pass n - 1, and the positions whose
// value through a capture or a promotion (into a smaller table, known in full) is n plies; each
// candidate is decided by its moves (forward), so the unmoves only need to find a superset of
// the parents. What is left undecided when no pass decides anything is a draw.
#pragma once

#include <cstdint>
#include <functional>

#include "egtb/tablebases.h"

namespace db::egtb {

struct GenerationStats {
  std::uint64_t positions = 0;                    // legal canonical positions
  std::uint64_t wins = 0, draws = 0, losses = 0;  // for the side to move
  int passes = 0;
  int longest_plies = 0;          // the longest mate
  std::uint64_t evaluations = 0;  // positions decided by their moves (all passes)
  double seconds = 0;
};

// Makes the table of a canonical material. Its captures and promotions are probed in `smaller`,
// which must hold those tables (all_materials() lists materials in an order that ensures it).
// Throws std::runtime_error when a needed table is missing or a mate is longer than kMaxPlies.
Table generate(const Material& canonical, const Tablebases& smaller, GenerationStats* stats = nullptr);

}  // namespace db::egtb
