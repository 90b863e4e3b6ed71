// libFuzzer target for the text parsers: FEN, SAN, UCI moves, EPD, PGN, the chip's evaluation
// weights files and Polyglot opening books. The first byte picks the parser. Besides "no crash, no hang, no undefined
// behaviour", whatever parses must round-trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "book/polyglot_book.h"
#include "chess/epd.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "chess/position.h"
#include "chip/placement.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();  // libFuzzer reports the input that broke a round trip
}

const char* const kPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "1r5k/P7/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
};

void fuzz_fen(const std::string& text) {
  for (db::FenMode mode : {db::FenMode::Strict, db::FenMode::Lenient}) {
    try {
      const db::Position pos = db::Position::from_fen(text, mode);
      const db::Position again = db::Position::from_fen(pos.fen());
      check(again.fen() == pos.fen());
      check(again.key() == pos.key());
      db::MoveList moves;
      db::generate_legal(pos, moves);  // any accepted position must be safe to play from
      for (db::Move m : moves) check(db::parse_san(pos, db::move_to_san(pos, m)) == m);
    } catch (const db::FenError&) {}
  }
}

void fuzz_move(const std::string& text, bool san) {
  for (const char* fen : kPositions) {
    const db::Position pos = db::Position::from_fen(fen);
    try {
      const db::Move m = san ? db::parse_san(pos, text) : db::parse_uci(pos, text);
      check(pos.is_legal(m));
      check(db::parse_san(pos, db::move_to_san(pos, m)) == m);
      check(db::parse_uci(pos, db::move_to_uci(m)) == m);
    } catch (const db::NotationError&) {}
  }
}

void fuzz_epd(const std::string& text) {
  try {
    const db::EpdRecord rec = db::parse_epd(text);
    const db::EpdRecord again = db::parse_epd(rec.to_string());
    // EPD carries the four position fields; the counters are not part of it.
    auto position_fields = [](const std::string& fen) {
      std::size_t cut = 0;
      for (int spaces = 0; cut < fen.size(); ++cut)
        if (fen[cut] == ' ' && ++spaces == 4) break;
      return fen.substr(0, cut);
    };
    check(position_fields(again.position.fen()) == position_fields(rec.position.fen()));
    check(again.opcodes.size() == rec.opcodes.size());
  } catch (const db::FenError&) {
  } catch (const std::invalid_argument&) {}
}

void fuzz_pgn(const std::string& text) {
  try {
    for (const db::PgnGame& game : db::parse_pgn(text)) {
      db::Position pos = game.start_position();
      for (const std::string& san : game.san_moves) pos.make_move(db::parse_san(pos, san));
    }
  } catch (const std::runtime_error&) {  // PGN, FEN and notation errors all derive from it
  }
}

void fuzz_weights(const std::string& text) {
  try {
    const db::chip::PlacementTable placement = db::chip::placement_from_json(text);
    const db::chip::PhaseTable phase = db::chip::phase_from_json(text);
    const std::string again = db::chip::weights_to_json(placement, phase);
    check(db::chip::placement_from_json(again) == placement);
    check(db::chip::phase_from_json(again) == phase);
  } catch (const std::invalid_argument&) {}
}

// Bytes as a Polyglot book: a BookError, or a sorted book whose probes of the fixed positions give
// only legal moves (the seeds hold the start position's entries, so decoding is reached).
void fuzz_book(const std::string& bytes) {
  try {
    const db::book::PolyglotBook book = db::book::PolyglotBook::from_bytes(bytes, "fuzz");
    for (const char* fen : kPositions) {
      const db::Position pos = db::Position::from_fen(fen);
      for (const db::book::BookMove& m : book.probe(pos)) check(pos.is_legal(m.move));
    }
    for (std::size_t i = 1; i < book.size(); ++i) check(book.entries()[i - 1].key <= book.entries()[i].key);
  } catch (const db::book::BookError&) {}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 7) {
    case 0:
      fuzz_fen(text);
      break;
    case 1:
      fuzz_move(text, true);
      break;
    case 2:
      fuzz_move(text, false);
      break;
    case 3:
      fuzz_epd(text);
      break;
    case 4:
      fuzz_pgn(text);
      break;
    case 5:
      fuzz_weights(text);
      break;
    default:
      fuzz_book(text);
      break;
  }
  return 0;
}
