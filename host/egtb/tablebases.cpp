#include "egtb/tablebases.h"

#include <filesystem>

#include "chess/movegen.h"

namespace db::egtb {

Tablebases::Tablebases(std::string dir) : dir_(std::move(dir)) {}

void Tablebases::add(Table table) {
  const std::uint32_t key = table.layout.material().key();
  std::lock_guard<std::mutex> lock(mutex_);
  tables_[key] = std::make_unique<Table>(std::move(table));
  max_pieces_ = -1;
}

std::string Tablebases::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

const Table* Tablebases::find(const Material& canonical) const {
  const std::uint32_t key = canonical.key();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = tables_.find(key);
  if (it != tables_.end()) return it->second.get();
  std::unique_ptr<Table> table;
  if (!dir_.empty()) {
    const std::string path = dir_ + "/" + table_file_name(canonical);
    if (std::filesystem::exists(path)) {
      try {
        table = std::make_unique<Table>(read_table(path));
      } catch (const EgtbError& e) {
        tables_[key] = nullptr;  // once: a search must not read a damaged file at every probe
        if (error_.empty()) error_ = e.what();
        throw;
      }
    }
  }
  return (tables_[key] = std::move(table)).get();
}

std::vector<Material> Tablebases::available() const {
  std::vector<Material> out;
  for (const Material& m : all_materials(kMaxPieces)) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto it = tables_.find(m.key());
      if (it != tables_.end()) {
        if (it->second) out.push_back(m);
        continue;
      }
    }
    if (!dir_.empty() && std::filesystem::exists(dir_ + "/" + table_file_name(m))) out.push_back(m);
  }
  return out;
}

int Tablebases::max_pieces() const {
  int n = max_pieces_.load(std::memory_order_relaxed);
  if (n >= 0) return n;
  n = 0;
  for (const Material& m : available()) n = std::max(n, m.pieces());
  max_pieces_ = n;
  return n;
}

std::optional<Value> Tablebases::probe(const Board& b) const {
  if (b.n == 2) return Value{};
  const Material m = b.material();
  if (m.white_is_canonical()) {
    if (const Table* t = find(m)) return t->value(b);
    return std::nullopt;
  }
  if (const Table* t = find(m.flipped())) return t->value(b.flipped());
  return std::nullopt;
}

std::optional<Value> Tablebases::probe(const Position& pos) const {
  if (pos.castling_rights() != NO_CASTLING || popcount(pos.pieces()) > kMaxPieces) return std::nullopt;
  const Square ep = pos.ep_square();
  bool ep_capture = false;
  if (ep != SQ_NONE) {
    const Color us = pos.side_to_move();
    ep_capture = (attacks::pawn[~us][ep] & pos.pieces(us, PAWN)) != 0;
  }
  if (!ep_capture) return probe(Board::of(pos));
  // Answer from the moves: every child has no en passant square.
  MoveList moves;
  generate_legal(pos, moves);
  if (moves.empty()) return pos.in_check() ? Value{Wdl::Loss, 0} : Value{};
  Position p = pos;
  std::optional<Value> best;
  for (Move m : moves) {
    p.make_move(m);
    const std::optional<Value> v = probe(Board::of(p));
    p.unmake_move(m);
    if (!v) return std::nullopt;
    const Value mine = v->parent();
    if (!best || mine.rank() > best->rank()) best = mine;
  }
  return best;
}

std::optional<Tablebases::Choice> Tablebases::best_move(const Position& pos) const {
  if (!probe(pos)) return std::nullopt;
  MoveList moves;
  generate_legal(pos, moves);
  Position p = pos;
  std::optional<Choice> best;
  for (Move m : moves) {
    p.make_move(m);
    const std::optional<Value> v = probe(p);
    p.unmake_move(m);
    if (!v) return std::nullopt;
    const Value mine = v->parent();
    if (!best || mine.rank() > best->value.rank()) best = Choice{m, mine};
  }
  return best;
}

}  // namespace db::egtb
