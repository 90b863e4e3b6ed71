#include "chess/pgn.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace db {

const std::string* PgnGame::tag(const std::string& name) const {
  for (const auto& [key, value] : tags)
    if (key == name) return &value;
  return nullptr;
}

Position PgnGame::start_position() const {
  const std::string* fen = tag("FEN");
  return fen ? Position::from_fen(*fen) : Position();
}

namespace {

bool is_result(const std::string& t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

}  // namespace

std::vector<PgnGame> parse_pgn(const std::string& text) {
  std::vector<PgnGame> games;
  PgnGame game;
  bool in_game = false;
  int line = 1;
  auto fail = [&line](const std::string& why) {
    throw std::runtime_error("PGN line " + std::to_string(line) + ": " + why);
  };
  auto finish = [&] {
    if (in_game) games.push_back(std::move(game));
    game = PgnGame();
    in_game = false;
  };

  size_t i = 0;
  int variation_depth = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '{') {  // comment to the closing brace
      const size_t end = text.find('}', i);
      if (end == std::string::npos) fail("comment '{' is never closed");
      for (size_t k = i; k < end; ++k) line += text[k] == '\n';
      i = end + 1;
      continue;
    }
    if (c == ';' || (c == '%' && (i == 0 || text[i - 1] == '\n'))) {  // rest-of-line comment / escape
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '(') {
      ++variation_depth;
      ++i;
      continue;
    }
    if (c == ')') {
      if (variation_depth == 0) fail("')' without a matching '('");
      --variation_depth;
      ++i;
      continue;
    }
    if (c == '[' && variation_depth == 0) {
      if (in_game && !game.san_moves.empty()) finish();  // a tag after moves starts a new game
      const size_t end = text.find(']', i);
      if (end == std::string::npos) fail("tag '[' is never closed");
      const std::string body = text.substr(i + 1, end - i - 1);
      const size_t q1 = body.find('"'), q2 = body.rfind('"');
      if (q1 == std::string::npos || q2 == q1) fail("tag without a quoted value: [" + body + "]");
      std::string name = body.substr(0, q1);
      while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
      game.tags.emplace_back(name, body.substr(q1 + 1, q2 - q1 - 1));
      in_game = true;
      i = end + 1;
      continue;
    }
    // A token: move number, move, NAG or result.
    size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) && text[j] != '{' && text[j] != '(' &&
           text[j] != ')' && text[j] != ';')
      ++j;
    std::string token = text.substr(i, j - i);
    i = j;
    if (variation_depth > 0) continue;
    if (token[0] == '$') {
      // A NAG annotates the move before it; a malformed one is skipped like any unknown token.
      int nag = 0;
      bool ok = token.size() > 1 && token.size() <= 4;
      for (std::size_t d = 1; ok && d < token.size(); ++d) {
        ok = std::isdigit(static_cast<unsigned char>(token[d])) != 0;
        if (ok) nag = nag * 10 + (token[d] - '0');
      }
      if (ok && !game.san_moves.empty()) game.nags.emplace_back(game.san_moves.size() - 1, nag);
      continue;
    }
    in_game = true;
    if (is_result(token)) {
      game.result = token;
      finish();
      continue;
    }
    // Strip a leading move number "12." or "12...".
    size_t k = 0;
    while (k < token.size() && std::isdigit(static_cast<unsigned char>(token[k]))) ++k;
    if (k > 0 && k < token.size() && token[k] == '.') {
      while (k < token.size() && token[k] == '.') ++k;
      token = token.substr(k);
    } else if (k == token.size()) {
      continue;  // a bare number
    }
    if (!token.empty()) game.san_moves.push_back(token);
  }
  if (variation_depth != 0) fail("unclosed variation '('");
  finish();
  return games;
}

std::vector<PgnGame> read_pgn_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open PGN file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_pgn(buffer.str());
}

}  // namespace db
