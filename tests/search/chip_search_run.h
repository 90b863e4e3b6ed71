// Shared by the chip-search tests: model chips, and a search to a fixed depth on a leaf searcher
// with its figures.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "chip/chip_model.h"
#include "search/chip_leaf_search.h"
#include "search/search.h"

namespace db::search::chip_test {

// Clock-level clients of n in-process model chips.
inline std::vector<std::unique_ptr<chip::ChipClient>> model_clients(int n) {
  std::vector<std::unique_ptr<chip::ChipClient>> clients;
  for (int i = 0; i < n; ++i)
    clients.push_back(std::make_unique<chip::ChipClient>(std::make_unique<chip::ChipModel>()));
  return clients;
}

struct ChipRun {
  SearchResult result;
  LeafStats chips;
};

// The search of fen to depth with `workers` software workers on the leaf searcher's chips.
inline ChipRun run_to_depth(ChipLeafSearch& leaf, const std::string& fen, int depth, int workers = 1) {
  TranspositionTable tt(8);
  SearchOptions options;
  options.workers = workers;
  Searcher searcher(tt, options);
  searcher.set_leaf_search(&leaf);
  Limits limits;
  limits.depth = depth;
  const SearchResult r = searcher.run(Position::from_fen(fen), limits);
  return {r, leaf.stats()};
}

}  // namespace db::search::chip_test
