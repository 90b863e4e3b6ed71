#include "chess/epd.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace db {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

const std::string* EpdRecord::find(std::string_view name) const {
  for (const auto& [key, value] : opcodes)
    if (key == name) return &value;
  return nullptr;
}

std::string EpdRecord::to_string() const {
  // EPD writes the position without the counters; they travel as hmvc/fmvn opcodes if at all.
  std::string fen = position.fen();
  for (int spaces = 0, i = 0; i < int(fen.size()); ++i)
    if (fen[i] == ' ' && ++spaces == 4) {
      fen.resize(i);
      break;
    }
  std::string out = fen;
  for (const auto& [key, value] : opcodes) {
    out += ' ';
    out += key;
    if (!value.empty()) {
      const bool quote = key == "id" || key == "c0" || key == "c1" || value.find(';') != std::string::npos;
      out += ' ';
      out += quote ? "\"" + value + "\"" : value;
    }
    out += ';';
  }
  return out;
}

EpdRecord parse_epd(std::string_view line, FenMode mode) {
  // The position is the first four whitespace-separated fields; in the perft suite the FEN has six.
  size_t i = 0;
  std::vector<std::string_view> fields;
  while (fields.size() < 6) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size() || line[i] == ';') break;
    size_t j = i;
    while (j < line.size() && !is_space(line[j]) && line[j] != ';') ++j;
    fields.push_back(line.substr(i, j - i));
    i = j;
    // Fields 5 and 6 are FEN counters only if numeric; otherwise they start the opcodes.
    if (fields.size() == 4) {
      size_t k = i;
      while (k < line.size() && is_space(line[k])) ++k;
      if (k >= line.size() || !(line[k] >= '0' && line[k] <= '9')) break;
    }
    if (fields.size() == 5) {
      size_t k = i;
      while (k < line.size() && is_space(line[k])) ++k;
      if (k >= line.size() || !(line[k] >= '0' && line[k] <= '9')) {
        throw FenError("", "EPD record has a fifth numeric field without a sixth");
      }
    }
  }
  if (fields.size() < 4) throw FenError("", "EPD record has fewer than 4 position fields");
  EpdRecord rec;
  for (size_t f = 0; f < fields.size(); ++f) rec.position_fen += (f ? " " : "") + std::string(fields[f]);
  rec.position = Position::from_fen(rec.position_fen, mode);

  // Opcodes: "name operand operand;" with optional quoted strings; a leading ';' (perft style) is allowed.
  std::string rest(line.substr(i));
  size_t p = 0;
  while (p < rest.size()) {
    while (p < rest.size() && (is_space(rest[p]) || rest[p] == ';')) ++p;
    if (p >= rest.size()) break;
    size_t q = p;
    while (q < rest.size() && !is_space(rest[q]) && rest[q] != ';') ++q;
    std::string name = rest.substr(p, q - p);
    if (!std::isalpha(static_cast<unsigned char>(name[0])))
      throw std::invalid_argument("EPD opcode name '" + name + "' must start with a letter");
    for (char c : name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
        throw std::invalid_argument("EPD opcode name '" + name + "' has a character that is not a letter, digit or _");
    p = q;
    std::string operand;
    bool in_quote = false;
    while (p < rest.size() && (in_quote || rest[p] != ';')) {
      if (rest[p] == '"')
        in_quote = !in_quote;
      else
        operand += rest[p];
      ++p;
    }
    if (in_quote) throw std::invalid_argument("EPD opcode '" + name + "' has an unterminated string");
    while (!operand.empty() && is_space(operand.back())) operand.pop_back();
    size_t lead = 0;
    while (lead < operand.size() && is_space(operand[lead])) ++lead;
    rec.opcodes.emplace_back(name, operand.substr(lead));
  }
  return rec;
}

std::vector<EpdRecord> read_epd_file(const std::string& path, FenMode mode) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open EPD file '" + path + "'");
  std::vector<EpdRecord> records;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    size_t k = 0;
    while (k < line.size() && is_space(line[k])) ++k;
    if (k == line.size() || line[k] == '#') continue;
    try {
      records.push_back(parse_epd(line, mode));
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return records;
}

}  // namespace db
