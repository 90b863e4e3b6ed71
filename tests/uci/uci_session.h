// Shared by the UCI tests: a session through the engine over string streams.
#pragma once

#include <sstream>
#include <string>

#include "uci/uci.h"

namespace db::uci::test {

// Feeds the lines one by one and, like a GUI, waits for the "bestmove" of a finite "go".
inline std::string run_session(const std::string& input) {
  std::istringstream in;
  std::ostringstream out;
  {
    UciEngine engine(in, out);
    std::istringstream lines(input);
    std::string line;
    while (std::getline(lines, line)) {
      if (!engine.handle(line)) break;
      if (line.rfind("go", 0) == 0 && line.find("infinite") == std::string::npos &&
          line.find("ponder") == std::string::npos)
        engine.wait_for_search();
    }
  }
  return out.str();
}

}  // namespace db::uci::test
