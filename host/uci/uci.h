// The UCI protocol (the language of chess GUIs and match tools) over any pair of streams.
// Garbage, unknown commands and illegal moves get an "info string error ..." line; the engine lives on.
#pragma once

#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "chess/position.h"
#include "search/search.h"
#include "search/tt.h"

namespace db::uci {

struct EngineOptions {
  std::size_t hash_mib = 16;
  int chips = 1;
  std::string backend = "model";
  std::int64_t move_overhead_ms = 30;
  int multipv = 1;
};

class UciEngine {
 public:
  UciEngine(std::istream& in, std::ostream& out);
  ~UciEngine();
  // Reads commands until "quit" or end of input.
  void loop();
  // Handles one command line; returns false on "quit".
  bool handle(const std::string& line);

 private:
  void send(const std::string& line);
  void error(const std::string& what);
  void cmd_uci();
  void cmd_setoption(const std::vector<std::string>& tokens);
  void cmd_position(const std::vector<std::string>& tokens);
  void cmd_go(const std::vector<std::string>& tokens);
  void stop_search();  // stops and joins a running search

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  EngineOptions options_;
  search::TranspositionTable tt_;
  search::Searcher searcher_;
  Position position_;
  std::thread search_thread_;
};

}  // namespace db::uci
