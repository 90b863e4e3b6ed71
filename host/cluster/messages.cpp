#include "cluster/messages.h"

#include <fmt/format.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "link/bytes.h"

namespace db::cluster {

namespace {

constexpr int kMaxFenHalfmoves = 1000;  // the largest half-move clock Position::from_fen takes

using link::ByteReader;
using link::ByteWriter;

void put_text(ByteWriter& w, const std::string& s) {  // a u16 length: a FEN may pass 255 bytes
  w.u16(std::uint16_t(s.size()));
  for (char c : s) w.u8(std::uint8_t(c));
}

std::string get_text(ByteReader& r, const char* field) {
  const std::size_t n = r.u16(field);
  if (n > r.remaining()) r.fail(fmt::format("{} of {} bytes, {} left", field, n, r.remaining()));
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += char(r.u8(field));
  return s;
}

Move move_of(std::uint16_t raw) { return Move(Square(raw & 63), Square((raw >> 6) & 63), MoveKind(raw >> 12)); }

void put_table(ByteWriter& w, const std::vector<TableEntry>& table) {
  w.u16(std::uint16_t(table.size()));
  for (const TableEntry& e : table) {
    w.u64(e.key);
    w.u16(e.move.raw());
    w.u32(std::uint32_t(e.score));
    w.u16(std::uint16_t(e.depth_q));
    w.u8(e.bound);
    w.u8(e.my_credit);
    w.u8(e.his_credit);
  }
}

std::vector<TableEntry> get_table(ByteReader& r) {
  const std::size_t n = r.u16("table entries");
  if (n > kMaxTableEntries) r.fail(fmt::format("{} table entries (at most {})", n, kMaxTableEntries));
  std::vector<TableEntry> table;
  for (std::size_t i = 0; i < n; ++i) {
    TableEntry e;
    e.key = r.u64("table key");
    e.move = move_of(r.u16("table move"));
    e.score = std::int32_t(r.u32("table score"));
    e.depth_q = std::int16_t(r.u16("table depth"));
    e.bound = r.u8("table bound");
    if (e.bound == 0 || e.bound > 3) r.fail(fmt::format("table bound {} unknown (1-3: upper, lower, exact)", e.bound));
    e.my_credit = r.u8("table my_credit");
    e.his_credit = r.u8("table his_credit");
    table.push_back(e);
  }
  return table;
}

struct Encoder {
  ByteWriter& w;
  Type operator()(const NewSearch& m) {
    w.u32(m.search);
    put_text(w, m.base_fen);
    w.u16(std::uint16_t(m.history.size()));
    for (Move mv : m.history) w.u16(mv.raw());
    w.u8(m.strive_for_draw);
    return Type::NEW_SEARCH;
  }
  Type operator()(const Job& m) {
    w.u32(m.search);
    w.u32(m.id);
    w.u8(std::uint8_t(m.path.size()));
    for (Move mv : m.path) w.u16(mv.raw());
    w.u8(m.depth);
    w.u32(std::uint32_t(m.test));
    w.u64(m.arrive);
    put_table(w, m.table);
    w.u8(m.my_credit);
    w.u8(m.his_credit);
    return Type::JOB;
  }
  Type operator()(const Cancel& m) {
    w.u32(m.search);
    w.u32(m.id);
    w.u64(m.at);
    return Type::CANCEL;
  }
  Type operator()(const Quit&) { return Type::QUIT; }
  Type operator()(const Grant& m) {
    w.u32(m.search);
    w.u64(m.until);
    w.u8(m.stop_at_answer);
    return Type::GRANT;
  }
  Type operator()(const Clock& m) {
    w.u32(m.search);
    w.u64(m.clock);
    for (std::uint64_t v : {m.chips.busy_clocks, m.chips.searches, m.chips.nodes, m.chips.wasted_searches,
                            m.chips.wasted_nodes, m.chips.overflows, m.chips.software_nodes})
      w.u64(v);
    return Type::CLOCK;
  }
  Type operator()(const Answer& m) {
    w.u32(m.search);
    w.u32(m.id);
    w.u8(std::uint8_t(m.status));
    w.u8(m.fail_high);
    w.u64(m.nodes);
    w.u64(m.software_nodes);
    w.u64(m.start);
    w.u64(m.finish);
    put_table(w, m.table);
    return Type::ANSWER;
  }
};

// A null move (0), a capture, a pawn's double push or a promotion ends a history: none is in one.
bool reversible_kind(Move m) {
  return !m.is_none() && m.from() != m.to() &&
         (m.kind() == QUIET || m.kind() == CASTLE_KING || m.kind() == CASTLE_QUEEN);
}

bool flag(ByteReader& r, const char* field) {
  const std::uint8_t v = r.u8(field);
  if (v > 1) r.fail(fmt::format("{} is {}, not 0 or 1", field, v));
  return v != 0;
}

Message decode_payload(Type type, ByteReader& r) {
  switch (type) {
    case Type::NEW_SEARCH: {
      NewSearch m;
      m.search = r.u32("search");
      m.base_fen = get_text(r, "base_fen");
      const int plies = r.u16("history length");
      if (plies > kMaxHistoryPlies) r.fail(fmt::format("history of {} plies (at most {})", plies, kMaxHistoryPlies));
      for (int i = 0; i < plies; ++i) {
        const Move mv = move_of(r.u16("history move"));
        // Legality needs the position (root_of); here only what no history can hold.
        if (!reversible_kind(mv))
          r.fail(fmt::format("history move {} ({}) is not a quiet move or castling", i, move_to_uci(mv)));
        m.history.push_back(mv);
      }
      m.strive_for_draw = flag(r, "strive_for_draw");
      return m;
    }
    case Type::JOB: {
      Job m;
      m.search = r.u32("search");
      m.id = r.u32("id");
      const int plies = r.u8("path length");
      if (plies > kMaxPathPlies) r.fail(fmt::format("path of {} plies (at most {})", plies, kMaxPathPlies));
      for (int i = 0; i < plies; ++i) m.path.push_back(move_of(r.u16("path move")));
      m.depth = r.u8("depth");
      if (m.depth < 1 || m.depth > 60) r.fail(fmt::format("depth {} out of range 1-60", m.depth));
      m.test = std::int32_t(r.u32("test"));
      m.arrive = r.u64("arrive");
      m.table = get_table(r);
      m.my_credit = r.u8("my_credit");
      m.his_credit = r.u8("his_credit");
      if (m.my_credit > kMaxJobCredit || m.his_credit > kMaxJobCredit)
        r.fail(fmt::format("credits {} and {} (quarter plies; at most {} each)", m.my_credit, m.his_credit,
                           kMaxJobCredit));
      return m;
    }
    case Type::CANCEL: {
      Cancel m;
      m.search = r.u32("search");
      m.id = r.u32("id");
      m.at = r.u64("at");
      return m;
    }
    case Type::QUIT:
      return Quit{};
    case Type::GRANT: {
      Grant m;
      m.search = r.u32("search");
      m.until = r.u64("until");
      m.stop_at_answer = flag(r, "stop_at_answer");
      return m;
    }
    case Type::CLOCK: {
      Clock m;
      m.search = r.u32("search");
      m.clock = r.u64("clock");
      m.chips.busy_clocks = r.u64("busy_clocks");
      m.chips.searches = r.u64("searches");
      m.chips.nodes = r.u64("nodes");
      m.chips.wasted_searches = r.u64("wasted_searches");
      m.chips.wasted_nodes = r.u64("wasted_nodes");
      m.chips.overflows = r.u64("overflows");
      m.chips.software_nodes = r.u64("software_nodes");
      return m;
    }
    case Type::ANSWER: {
      Answer m;
      m.search = r.u32("search");
      m.id = r.u32("id");
      const std::uint8_t status = r.u8("status");
      if (status > 2) r.fail(fmt::format("status {} unknown (0-2)", status));
      m.status = Answer::Status(status);
      m.fail_high = flag(r, "fail_high");
      m.nodes = r.u64("nodes");
      m.software_nodes = r.u64("software_nodes");
      m.start = r.u64("start");
      m.finish = r.u64("finish");
      if (m.finish < m.start) r.fail(fmt::format("finish {} before start {}", m.finish, m.start));
      m.table = get_table(r);
      return m;
    }
  }
  r.fail(fmt::format("type 0x{:02x} unknown", unsigned(type)));
}

}  // namespace

std::vector<TableEntry> table_entries(const search::TranspositionTable& table, Position pos, std::size_t limit) {
  std::vector<TableEntry> out;
  auto add = [&](Key key) {
    if (out.size() >= limit) return;
    const search::TTEntry* e = table.probe(key);
    if (!e || e->bound == search::Bound::NONE) return;
    out.push_back({key, e->move, e->score, e->depth_q, std::uint8_t(e->bound), e->my_credit, e->his_credit});
  };
  add(pos.key());
  MoveList moves;
  generate_legal(pos, moves);
  for (Move m : moves) {
    pos.make_move(m);
    add(pos.key());
    pos.unmake_move(m);
  }
  return out;
}

NewSearch new_search_of(std::uint32_t search, const Position& root, bool strive_for_draw) {
  std::vector<Move> moves = root.reversible_moves();
  const bool cut = moves.size() > std::size_t(kMaxHistoryPlies);
  if (cut) moves.erase(moves.begin(), moves.end() - kMaxHistoryPlies);
  Position base = root;
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) base.unmake_move(*it);
  std::string fen = base.fen();
  if (cut && base.halfmove_clock() > kMaxFenHalfmoves) {
    // Cut inside a long run of reversible moves, the base's clock can pass what a FEN may say; any
    // clock past 100 is the same to the search (a fifty-move draw below the root).
    const std::size_t clock_end = fen.rfind(' ');
    const std::size_t clock_begin = fen.rfind(' ', clock_end - 1) + 1;
    fen.replace(clock_begin, clock_end - clock_begin, std::to_string(kMaxFenHalfmoves));
  }
  return NewSearch{search, fen, std::move(moves), strive_for_draw};
}

Position root_of(const NewSearch& m) {
  Position pos;
  try {
    pos = Position::from_fen(m.base_fen);
  } catch (const std::exception& e) {
    throw ClusterError(fmt::format("NEW_SEARCH {}: base_fen '{}': {}", m.search, m.base_fen, e.what()));
  }
  for (std::size_t i = 0; i < m.history.size(); ++i) {
    const Move mv = m.history[i];
    if (!pos.is_legal(mv))
      throw ClusterError(fmt::format("NEW_SEARCH {}: history move {} ({}) is not legal in {}", m.search, i,
                                     move_to_uci(mv), pos.fen()));
    pos.make_move(mv);
    // A pawn move or a capture would cut the repetitions the master sees before it.
    if (pos.halfmove_clock() == 0)
      throw ClusterError(fmt::format("NEW_SEARCH {}: history move {} ({}) is irreversible (a pawn move or capture)",
                                     m.search, i, move_to_uci(mv)));
  }
  return pos;
}

std::string type_name(Type t) {
  switch (t) {
    case Type::NEW_SEARCH:
      return "NEW_SEARCH";
    case Type::JOB:
      return "JOB";
    case Type::CANCEL:
      return "CANCEL";
    case Type::QUIT:
      return "QUIT";
    case Type::ANSWER:
      return "ANSWER";
    case Type::GRANT:
      return "GRANT";
    case Type::CLOCK:
      return "CLOCK";
  }
  return fmt::format("0x{:02x}", unsigned(t));
}

Type type_of(const Message& m) {
  ByteWriter scratch;
  return std::visit(Encoder{scratch}, m);
}

std::vector<std::uint8_t> encode(const Message& m) {
  ByteWriter payload;
  const Type type = std::visit(Encoder{payload}, m);
  ByteWriter out;
  out.u32(kMagic);
  out.u16(kVersion);
  out.u8(std::uint8_t(type));
  out.u8(0);  // flags, none yet
  out.u32(std::uint32_t(payload.bytes().size()));
  out.bytes().insert(out.bytes().end(), payload.bytes().begin(), payload.bytes().end());
  return std::move(out.bytes());
}

Message decode(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < kHeaderBytes)
    throw ClusterError(
        fmt::format("cluster message of {} bytes, shorter than its {}-byte header", bytes.size(), kHeaderBytes));
  try {
    ByteReader h(bytes, "cluster message header");
    const std::uint32_t magic = h.u32("magic");
    if (magic != kMagic) throw ClusterError(fmt::format("cluster message magic 0x{:08x}, not 0x{:08x}", magic, kMagic));
    const std::uint16_t version = h.u16("version");
    if (version != kVersion)
      throw ClusterError(fmt::format("cluster message version {}, this program speaks {}", version, kVersion));
    const auto type = Type(h.u8("type"));
    const std::uint8_t flags = h.u8("flags");
    if (flags != 0) throw ClusterError(fmt::format("cluster message flags 0x{:02x}, none are defined", flags));
    const std::uint32_t size = h.u32("payload size");
    if (size > kMaxPayloadBytes || size != bytes.size() - kHeaderBytes)
      throw ClusterError(
          fmt::format("cluster message says {} payload bytes, has {}", size, bytes.size() - kHeaderBytes));
    const std::vector<std::uint8_t> payload(bytes.begin() + kHeaderBytes, bytes.end());
    const std::string what = "cluster " + type_name(type);
    ByteReader r(payload, what.c_str());
    Message m = decode_payload(type, r);
    r.end();
    return m;
  } catch (const link::LinkError& e) {
    throw ClusterError(e.what());
  }
}

}  // namespace db::cluster
