// Retrograde consistency of a database, checked through the chess core rather than the
// generator's own move code: every position's value must be what its legal moves (the core's
// generate_legal) give from the databases' values of the positions after them, and mate and
// stalemate must be where the core sees them.
#pragma once

#include <cstdint>
#include <string>

#include "egtb/tablebases.h"

namespace db::egtb {

struct VerifyStats {
  std::uint64_t positions = 0;   // positions checked
  std::uint64_t mismatches = 0;  // positions whose value is not their moves' best
  std::string first_mismatch;    // FEN, stored and expected values of the first
};

std::string board_fen(const Board& b);  // "- - 0 1" for castling, en passant and the counters

// Checks every stride-th index of the table of m (a canonical material in tbs).
VerifyStats verify_table(const Tablebases& tbs, const Material& m, std::uint64_t stride = 1);

}  // namespace db::egtb
