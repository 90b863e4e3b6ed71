// The 3-piece databases, made in memory once per test program (a few seconds).
#pragma once

#include "egtb/generator.h"
#include "egtb/tablebases.h"

namespace db::egtb::test {

inline const Tablebases& three_pieces() {
  static const Tablebases* tbs = [] {
    auto* t = new Tablebases;  // lives as long as the test program
    for (const Material& m : all_materials(3)) t->add(generate(m, *t));
    return t;
  }();
  return *tbs;
}

}  // namespace db::egtb::test
