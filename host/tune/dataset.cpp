#include "tune/dataset.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <stdexcept>

#include "chip/eval_generator.h"

namespace db::tune {

namespace {

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = line.find(sep, start);
    out.push_back(line.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

template <typename T>
T number(const std::string& text, const std::string& where) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) throw std::invalid_argument(where + ": '" + text + "' is not a number");
  return value;
}

}  // namespace

Dataset load_dataset(const std::string& path, int test_every, std::size_t limit) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read positions file '" + path + "'");
  Dataset data;
  std::set<long> games;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty() || line[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(line_no);
    const std::vector<std::string> f = split(line, ';');
    if (f.size() != 4) {
      throw std::invalid_argument(where + ": expected 4 fields 'fen;score;result;game', got " +
                                  std::to_string(f.size()));
    }
    Position pos;
    try {
      pos = Position::from_fen(f[0]);
    } catch (const std::exception& e) {
      throw std::invalid_argument(where + ": FEN: " + e.what());
    }
    const int score = number<int>(f[1], where + ": score");
    if (score < -32000 || score > 32000) throw std::invalid_argument(where + ": score " + f[1] + " out of range");
    double result_white = 0;
    if (f[2] == "1")
      result_white = 1;
    else if (f[2] == "0.5" || f[2] == "1/2")
      result_white = 0.5;
    else if (f[2] != "0")
      throw std::invalid_argument(where + ": result '" + f[2] + "' is not 1, 0.5 or 0");
    const long game = number<long>(f[3], where + ": game id");
    Sample s;
    s.trace = chip::ChipEvaluator::trace(pos);
    s.score = std::int16_t(score);
    s.result = float(pos.side_to_move() == WHITE ? result_white : 1 - result_white);
    s.stage = std::uint8_t(chip::game_stage(pos));
    s.fullmove = std::uint16_t(std::min(pos.fullmove_number(), 65535));
    games.insert(game);
    (test_every > 0 && game % test_every == 0 ? data.test : data.train).push_back(s);
    if (++data.lines == limit) break;
  }
  data.games = games.size();
  if (data.lines == 0) throw std::invalid_argument("positions file '" + path + "' holds no positions");
  return data;
}

}  // namespace db::tune
