// EPD records: the four position fields of a FEN followed by opcodes ("bm Nf3; id \"WAC.001\";").
// The perft suite's ";D1 20 ;D2 400" form is read too: each "Dn count" becomes an opcode "Dn".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/position.h"

namespace db {

struct EpdRecord {
  Position position;
  std::string position_fen;  // the position fields as given (4 or 6 fields)
  // Opcodes in file order: name and operand text (quotes removed).
  std::vector<std::pair<std::string, std::string>> opcodes;

  const std::string* find(std::string_view name) const;
  std::string to_string() const;  // EPD: position fields and opcodes
};

// Throws FenError (position) or std::invalid_argument (opcodes) naming the problem.
EpdRecord parse_epd(std::string_view line, FenMode mode = FenMode::Strict);
// All records of a file; blank lines and lines starting with '#' are skipped. Errors name the line.
std::vector<EpdRecord> read_epd_file(const std::string& path, FenMode mode = FenMode::Strict);

}  // namespace db
