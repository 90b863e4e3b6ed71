#include "egtb/table.h"

#include <cstring>
#include <fstream>
#include <stdexcept>

#include <zlib.h>

namespace db::egtb {

namespace {

// The ten squares a1-d1-d4 for the white king without pawns (file >= rank, file <= d).
constexpr Square kTriangle[10] = {0, 1, 2, 3, 9, 10, 11, 18, 19, 27};
struct KingMaps {
  int triangle[64];
  KingMaps() {
    for (int& t : triangle) t = -1;
    for (int i = 0; i < 10; ++i) triangle[kTriangle[i]] = i;
  }
};
const KingMaps kMaps;

constexpr Square transpose(Square s) { return (s >> 3) | ((s & 7) << 3); }

constexpr char kMagic[8] = {'D', 'B', 'E', 'G', 'T', 'B', '1', '\n'};

}  // namespace

Layout::Layout(const Material& canonical)
    : material_(canonical), pawns_(canonical.has_pawns()), kings_(pawns_ ? 32 : 10), n_(canonical.pieces()) {
  int k = 0;
  slots_[k++] = W_KING;
  slots_[k++] = B_KING;
  for (int c = 0; c < 2; ++c)
    for (int t = QUEEN; t >= PAWN; --t)
      for (int i = 0; i < canonical.counts[c][t]; ++i) slots_[k++] = make_piece(Color(c), PieceType(t));
  size_ = 2 * std::uint64_t(kings_);
  for (int i = 1; i < n_; ++i) size_ *= 64;
}

std::uint64_t Layout::index(const Board& b) const {
  Square wk = b.king(WHITE);
  int xor_mask = 0;
  bool swap = false;
  if (file_of(wk) >= 4) xor_mask ^= 7;
  if (!pawns_) {
    if (rank_of(wk) >= 4) xor_mask ^= 56;
    const Square t = wk ^ xor_mask;
    swap = rank_of(t) > file_of(t);
  }
  // Each piece's slot (the first of its kind) and square after the symmetry, sorted by both.
  int key[kMaxPieces];
  Square sq[kMaxPieces];
  for (int i = 0; i < b.n; ++i) {
    Square s = b.sq[i] ^ xor_mask;
    if (swap) s = transpose(s);
    int slot = 0;
    while (slots_[slot] != b.pc[i]) ++slot;
    int j = i;
    for (; j > 0 && (key[j - 1] > slot || (key[j - 1] == slot && sq[j - 1] > s)); --j) {
      key[j] = key[j - 1];
      sq[j] = sq[j - 1];
    }
    key[j] = slot;
    sq[j] = s;
  }
  std::uint64_t idx = std::uint64_t(b.stm) * std::uint64_t(kings_);
  idx += std::uint64_t(pawns_ ? rank_of(sq[0]) * 4 + file_of(sq[0]) : kMaps.triangle[sq[0]]);
  for (int i = 1; i < n_; ++i) idx = idx * 64 + std::uint64_t(sq[i]);
  return idx;
}

bool Layout::decode(std::uint64_t idx, Board& b) const {
  b.n = n_;
  b.ep = SQ_NONE;
  for (int i = n_ - 1; i >= 1; --i) {
    b.sq[i] = Square(idx % 64);
    b.pc[i] = slots_[i];
    idx /= 64;
  }
  const int k = int(idx % std::uint64_t(kings_));
  b.stm = Color(idx / std::uint64_t(kings_));
  b.sq[0] = pawns_ ? make_square(k % 4, k / 4) : kTriangle[k];
  b.pc[0] = W_KING;
  Bitboard seen = 0;
  for (int i = 0; i < n_; ++i) {
    if (seen & square_bb(b.sq[i])) return false;
    seen |= square_bb(b.sq[i]);
    if (type_of(b.pc[i]) == PAWN && (rank_of(b.sq[i]) == 0 || rank_of(b.sq[i]) == 7)) return false;
    if (i > 0 && b.pc[i] == b.pc[i - 1] && b.sq[i] < b.sq[i - 1]) return false;
  }
  return !b.in_check(~b.stm);
}

std::string table_file_name(const Material& m) { return m.name() + ".dbtb"; }

namespace {

void put_u64(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s += char((v >> (8 * i)) & 0xff);
}
std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

}  // namespace

void write_table(const std::string& path, const Table& t) {
  uLongf packed_size = compressBound(uLong(t.entries.size()));
  std::vector<unsigned char> packed(packed_size);
  if (compress2(packed.data(), &packed_size, t.entries.data(), uLong(t.entries.size()), 9) != Z_OK)
    throw EgtbError("database '" + path + "': compression failed");
  std::string header(kMagic, sizeof kMagic);
  std::string name = t.layout.material().name();
  name.resize(16, '\0');
  header += name;
  put_u64(header, t.entries.size());
  put_u64(header, packed_size);
  const std::uint32_t crc = std::uint32_t(crc32(0, t.entries.data(), uInt(t.entries.size())));
  for (int i = 0; i < 4; ++i) header += char((crc >> (8 * i)) & 0xff);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw EgtbError("database '" + path + "': cannot create: " + std::strerror(errno));
  out.write(header.data(), std::streamsize(header.size()));
  out.write(reinterpret_cast<const char*>(packed.data()), std::streamsize(packed_size));
  if (!out) throw EgtbError("database '" + path + "': write failed");
}

Table read_table(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw EgtbError("database '" + path + "': cannot open: " + std::strerror(errno));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto fail = [&](const std::string& why) { throw EgtbError("database '" + path + "': " + why); };
  constexpr std::size_t kHeader = 8 + 16 + 8 + 8 + 4;
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail("not a database file (bad magic)");
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::string name(bytes.c_str() + 8, strnlen(bytes.c_str() + 8, 16));
  Material m;
  try {
    m = Material::parse(name);
  } catch (const EgtbError& e) {
    fail(std::string("header field material: ") + e.what());
  }
  if (!(m == m.canonical())) fail("header field material: '" + name + "' is not in database orientation");
  Table t(m);
  const std::uint64_t entries = get_u64(p + 24), packed = get_u64(p + 32);
  std::uint32_t want = 0;
  for (int i = 3; i >= 0; --i) want = want << 8 | p[40 + i];
  if (entries != t.entries.size())
    fail("header field entries: " + std::to_string(entries) + ", " + name + " has " + std::to_string(t.entries.size()));
  if (packed != bytes.size() - kHeader) fail("header field compressed size: does not match the file's length");
  uLongf out_size = uLongf(entries);
  if (uncompress(t.entries.data(), &out_size, p + kHeader, uLong(packed)) != Z_OK || out_size != entries)
    fail("entries: corrupt compressed data");
  if (std::uint32_t(crc32(0, t.entries.data(), uInt(entries))) != want) fail("entries: CRC-32 mismatch");
  return t;
}

}  // namespace db::egtb
