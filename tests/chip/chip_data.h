// Test data for the chip: positions and published perft counts from ../shared/data, and
// positions along random games, shared by the model, RTL and co-simulation tests.
#pragma once

#include <cctype>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "chess/epd.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "chess/position.h"

namespace db::chip::testdata {

struct PerftPosition {
  int line = 0;
  std::string fen;
  std::vector<std::uint64_t> counts;  // counts[d-1] = published leaves at depth d
};

// Positions our strict FEN parser accepts (perft.epd line 155 is refused on purpose; see
// tests/chess/test_perft.cpp), with their published counts.
inline std::vector<PerftPosition> load_perft_file(const std::string& name) {
  std::vector<PerftPosition> out;
  std::ifstream in(std::string(DB_SHARED_DATA_DIR) + "/" + name);
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty()) continue;
    try {
      const EpdRecord rec = parse_epd(text);
      PerftPosition p;
      p.line = line;
      p.fen = rec.position.fen();
      for (const auto& [op, value] : rec.opcodes) {
        if (op.size() < 2 || op[0] != 'D') continue;
        const std::size_t depth = std::stoul(op.substr(1));
        if (p.counts.size() < depth) p.counts.resize(depth);
        p.counts[depth - 1] = std::stoull(value);
      }
      out.push_back(p);
    } catch (const FenError&) {
      continue;
    }
  }
  return out;
}

// The 1997 Kasparov-Deep Blue games (../shared/data), each as the positions along it and the moves
// between them: line[k] is the position after k plies, moves[k] the move from line[k].
struct GameLine {
  std::vector<Position> line;
  std::vector<Move> moves;
  std::string round;  // the PGN's Round tag ("" without one)
};
inline std::vector<GameLine> games_1997() {
  std::vector<GameLine> out;
  for (const PgnGame& game : read_pgn_file(std::string(DB_SHARED_DATA_DIR) + "/kasparov-deepblue-1997.pgn")) {
    GameLine g;
    if (const std::string* round = game.tag("Round")) g.round = *round;
    g.line.push_back(game.start_position());
    for (const std::string& san : game.san_moves) {
      Position next = g.line.back();
      g.moves.push_back(parse_san(next, san));
      next.make_move(g.moves.back());
      g.line.push_back(next);
    }
    out.push_back(std::move(g));
  }
  return out;
}

// Positions reached along random legal games from the start position (deterministic seed).
inline std::vector<std::string> random_game_positions(unsigned seed, int games, int plies) {
  std::vector<std::string> out;
  std::mt19937 rng(seed);
  for (int g = 0; g < games; ++g) {
    Position pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (int ply = 0; ply < plies; ++ply) {
      MoveList list;
      generate_legal(pos, list);
      if (list.size() == 0) break;
      pos.make_move(list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)]);
      out.push_back(pos.fen());
    }
  }
  return out;
}

// Colours and ranks swapped: the same position seen from the other side (castling rights
// swapped, en passant dropped: the evaluation does not use it).
inline std::string mirror_fen(const Position& pos) {
  const std::string fen = pos.fen();
  std::vector<std::string> ranks;
  std::string row, placement;
  for (char ch : fen.substr(0, fen.find(' '))) {
    if (ch == '/') {
      ranks.push_back(row);
      row.clear();
    } else {
      row += char(std::isalpha(ch) ? (std::isupper(ch) ? std::tolower(ch) : std::toupper(ch)) : ch);
    }
  }
  ranks.push_back(row);
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) placement += (placement.empty() ? "" : "/") + *it;
  // Castling rights change colour too (the evaluation's development term reads them).
  std::string castling;
  const std::uint8_t rights = pos.castling_rights();
  if (rights & 4) castling += 'K';
  if (rights & 8) castling += 'Q';
  if (rights & 1) castling += 'k';
  if (rights & 2) castling += 'q';
  if (castling.empty()) castling = "-";
  return placement + (pos.side_to_move() == WHITE ? " b " : " w ") + castling + " - 0 1";
}

// The positions of the Win at Chess suite (../shared/data/wac.epd).
inline std::vector<std::string> wac_positions() {
  std::vector<std::string> out;
  std::ifstream in(std::string(DB_SHARED_DATA_DIR) + "/wac.epd");
  std::string text;
  while (std::getline(in, text)) {
    if (!text.empty()) out.push_back(parse_epd(text).position.fen());
  }
  return out;
}

// Every position of the six games of the 1997 match (../shared/data/kasparov-deepblue-1997.pgn).
inline std::vector<std::string> match_1997_positions() {
  std::vector<std::string> out;
  for (const PgnGame& game : read_pgn_file(std::string(DB_SHARED_DATA_DIR) + "/kasparov-deepblue-1997.pgn")) {
    Position pos = game.start_position();
    for (const std::string& san : game.san_moves) {
      pos.make_move(parse_san(pos, san));
      out.push_back(pos.fen());
    }
  }
  return out;
}

// The opening positions of the match suite (../shared/data/openings-fastchess-99.epd).
inline std::vector<std::string> opening_positions() {
  std::vector<std::string> out;
  std::ifstream in(std::string(DB_SHARED_DATA_DIR) + "/openings-fastchess-99.epd");
  std::string text;
  while (std::getline(in, text)) {
    if (!text.empty()) out.push_back(parse_epd(text).position.fen());
  }
  return out;
}

// Every position of the shared data files (perft suites, WAC, the match openings, the 1997 games),
// or every stride-th of each file.
inline std::vector<std::string> shared_positions(std::size_t stride = 1) {
  std::vector<std::string> out;
  const auto every = [&](const std::vector<std::string>& fens) {
    for (std::size_t i = 0; i < fens.size(); i += stride) out.push_back(fens[i]);
  };
  for (const char* file : {"perft.epd", "perft-sf15-d1-d4.epd"}) {
    std::vector<std::string> fens;
    for (const PerftPosition& p : load_perft_file(file)) fens.push_back(p.fen);
    every(fens);
  }
  every(wac_positions());
  every(opening_positions());
  every(match_1997_positions());
  return out;
}

}  // namespace db::chip::testdata
