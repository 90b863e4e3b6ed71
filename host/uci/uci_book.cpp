// The UCI engine's own book: OwnBook and BookFile (docs/tools.md, "uci").
#include "book/choice.h"
#include "chess/notation.h"
#include "uci/uci.h"

namespace db::uci {

void UciEngine::load_book() {
  book_ = book::PolyglotBook();
  if (options_.book_file.empty()) {
    book_state_ = BookState::Loaded;  // no book: every position is out of it
    return;
  }
  try {
    book_ = book::PolyglotBook::open(options_.book_file);
    book_state_ = BookState::Loaded;
  } catch (const book::BookError& e) {
    // Once per BookFile/OwnBook setting: the engine plays on by searching.
    book_state_ = BookState::Failed;
    error(std::string(e.what()) + " (playing without a book)");
  }
}

bool UciEngine::play_book_move() {
  if (book_state_ == BookState::Unloaded) load_book();
  if (book_state_ != BookState::Loaded) return false;
  const std::vector<book::BookMove> moves = book_.probe(position_);
  const Move m = book::choose(moves, book::Choice::Weighted, book_rng_);
  if (m.is_none()) return false;
  std::uint64_t total = 0, weight = 0;
  for (const book::BookMove& b : moves) {
    total += b.weight;
    if (b.move == m) weight = b.weight;
  }
  send("info string book move " + move_to_uci(m) + " weight " + std::to_string(weight) + " of " +
       std::to_string(total) + " (" + std::to_string(moves.size()) + " book moves)");
  send("bestmove " + move_to_uci(m));
  return true;
}

bool UciEngine::use_extended_book(search::Limits& limits) {
  if (!extended_book_) return false;
  if (const std::optional<Move> now = extended_book_->immediate(position_)) {
    send("info string extended book move " + move_to_uci(*now));
    send("bestmove " + move_to_uci(*now));
    return true;
  }
  limits.root_bonus.clear();
  std::string text;
  for (const book::RootBonus& b : extended_book_->bonuses(position_)) {
    limits.root_bonus.push_back({b.move, b.bonus});
    text += " " + move_to_uci(b.move) + " " + std::to_string(b.bonus);
  }
  if (!text.empty()) send("info string extended book bonuses" + text);
  return false;
}

}  // namespace db::uci
