// Dual credit with delayed extensions (AIJ section 4, figure 1). Credit is counted in quarter plies,
// separately for each side; a side's credit is cashed in for whole-ply extensions once it passes
// CREDIT_LIMIT (2 plies), and the other side then gives up as much of its own credit.
#pragma once

#include <algorithm>

namespace db::search {

constexpr int kCreditUnit = 4;                 // quarter plies per ply
constexpr int kCreditLimit = 2 * kCreditUnit;  // CREDIT_LIMIT = 2 plies
constexpr int kMaxCreditPerMove = 2 * kCreditUnit;

struct CashIn {
  int extension_plies;
  int my_credit;
  int his_credit;
};

// Figure 1, lines 14-19: extension = ceiling(hisCredit - CREDIT_LIMIT) plies; both credits reduced
// by it (mine not below zero). A hisCredit of 2.5 plies gives 1 ply, 3.25 gives 2, exactly 2 gives 0.
constexpr CashIn cash_in(int my_credit, int his_credit) {
  if (his_credit < kCreditLimit) return {0, my_credit, his_credit};
  const int plies = (his_credit - kCreditLimit + kCreditUnit - 1) / kCreditUnit;
  const int spent = plies * kCreditUnit;
  return {plies, std::max(my_credit - spent, 0), his_credit - spent};
}

// Credit amounts by mechanism (AIJ 4.1), in quarter plies, before the near-root bonus.
struct CreditTable {
  int absolute_singular = 8;  // only one legal move: a full two plies
  int singular = 4;           // one move better than all others by the margin
  int binary = 2;
  int trinary = 1;
  int check_evasion = 2;    // domain dependent: answering a check without failing low
  int few_evasions = 3;     // ... with at most two legal evasions
  int threat = 2;           // null move: passing loses material
  int mate_threat = 4;      // null move: passing gets mated
  int passed_pawn = 1;      // answering a passed pawn push to the 6th or 7th
  int influence = 1;        // a capture the previous move enabled
  int near_root_bonus = 1;  // added to any credit within the first near_root_plies
  int near_root_plies = 4;
  int singular_margin = 50;  // centipawns
  int offset_min_depth = 5;  // singular/binary/trinary offset searches only this far from the leaves
  int threat_margin = 150;
  int threat_min_depth = 3;  // null-move threat tests only this far from the leaves
};

}  // namespace db::search
