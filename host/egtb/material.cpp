#include "egtb/material.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

#include "chess/bitboard.h"

namespace db::egtb {

namespace {

constexpr char kLetters[] = "PNBRQ";

std::string side_name(const std::array<std::uint8_t, 5>& c) {
  std::string s = "K";
  for (int t = QUEEN; t >= PAWN; --t) s.append(c[t], kLetters[t]);
  return s;
}

// Orders one side's set: more pieces first, then the more valuable pieces (Q > R > B > N > P).
std::array<int, 6> strength(const std::array<std::uint8_t, 5>& c) {
  return {c[0] + c[1] + c[2] + c[3] + c[4], c[QUEEN], c[ROOK], c[BISHOP], c[KNIGHT], c[PAWN]};
}

}  // namespace

int Material::pieces() const {
  int n = 2;
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < 5; ++t) n += counts[c][t];
  return n;
}

std::string Material::name() const { return side_name(counts[WHITE]) + "v" + side_name(counts[BLACK]); }

Material Material::flipped() const {
  Material m;
  m.counts[WHITE] = counts[BLACK];
  m.counts[BLACK] = counts[WHITE];
  return m;
}

bool Material::white_is_canonical() const { return strength(counts[WHITE]) >= strength(counts[BLACK]); }

std::uint32_t Material::key() const {
  std::uint32_t k = 0;
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < 5; ++t) k = k * 8 + counts[c][t];
  return k;
}

Material Material::of(const Position& pos) {
  Material m;
  for (int c = 0; c < 2; ++c)
    for (int t = PAWN; t <= QUEEN; ++t) m.counts[c][t] = std::uint8_t(popcount(pos.pieces(Color(c), PieceType(t))));
  return m;
}

Material Material::parse(std::string_view name) {
  const std::string text(name);
  auto fail = [&](const std::string& why) { throw EgtbError("material '" + text + "': " + why); };
  std::string s;
  for (char ch : name) s += char(std::toupper(static_cast<unsigned char>(ch)));
  std::size_t split = s.find('V');
  std::string white, black;
  if (split != std::string::npos) {
    white = s.substr(0, split);
    black = s.substr(split + 1);
  } else {
    split = s.find('K', 1);
    if (split == std::string::npos) fail("needs two kings, as in KQvK");
    white = s.substr(0, split);
    black = s.substr(split);
  }
  Material m;
  const std::string* sides[2] = {&white, &black};
  for (int c = 0; c < 2; ++c) {
    const std::string& side = *sides[c];
    if (side.empty() || side[0] != 'K') fail("each side starts with its king (K)");
    for (std::size_t i = 1; i < side.size(); ++i) {
      const char* p = std::strchr(kLetters, side[i]);
      if (!p || side[i] == 0) fail(std::string("unknown piece letter '") + side[i] + "'");
      ++m.counts[c][p - kLetters];
    }
  }
  if (m.pieces() > kMaxPieces) fail("more than " + std::to_string(kMaxPieces) + " pieces");
  return m;
}

std::vector<Material> all_materials(int max_pieces) {
  std::vector<Material> out;
  // Every split of up to max_pieces - 2 non-king pieces between the two sides.
  std::vector<std::array<std::uint8_t, 5>> sets;
  const int extra = std::min(max_pieces, kMaxPieces) - 2;
  std::array<std::uint8_t, 5> c{};
  auto add_sets = [&](auto&& self, int type, int left) -> void {
    if (type < 0) {
      sets.push_back(c);
      return;
    }
    for (int k = 0; k <= left; ++k) {
      c[type] = std::uint8_t(k);
      self(self, type - 1, left - k);
    }
    c[type] = 0;
  };
  add_sets(add_sets, QUEEN, extra);
  for (const auto& w : sets)
    for (const auto& b : sets) {
      Material m;
      m.counts[WHITE] = w;
      m.counts[BLACK] = b;
      const int n = m.pieces();
      if (n < 3 || n > max_pieces || !m.white_is_canonical()) continue;
      if (m.flipped().white_is_canonical() && m.flipped().key() < m.key()) continue;  // a symmetric pair once
      out.push_back(m);
    }
  // Captures lower the piece count; promotions keep it but lower the pawn count.
  std::sort(out.begin(), out.end(), [](const Material& a, const Material& b) {
    const int pa = a.counts[0][PAWN] + a.counts[1][PAWN], pb = b.counts[0][PAWN] + b.counts[1][PAWN];
    if (a.pieces() != b.pieces()) return a.pieces() < b.pieces();
    if (pa != pb) return pa < pb;
    return a.name() < b.name();
  });
  return out;
}

}  // namespace db::egtb
