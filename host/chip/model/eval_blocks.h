// The fast evaluation's blocks outside the controller, as the controller's twins see them (chip_top
// wires them to chip_ctrl): the game phase control (rtl/eval_phase.sv: piece counts and XORed
// locations, the material signatures and the phase RAM's word), the endgame logic (rtl/eval_kpk.sv:
// the KPK ROM; rtl/eval_rules.sv: the draw rules) and the king-and-pawn array (rtl/eval_kpa.sv).
// The model computes them where they are read, not every clock.
#pragma once

#include <array>
#include <cstdint>

#include "chip/array_model.h"

namespace db::chip {

// eval_phase's registers: piece counts [colour * 5 + type - 1] (4 bits, pawns to queens), XORed
// piece locations [colour * 6 + type - 1] (6 bits, pawns to kings).
struct PhaseRegs {
  std::array<std::uint8_t, 10> counts{};
  std::array<std::uint8_t, 12> locs{};
};

// Game phase events (ph_ev_*): up to four a clock; event i is valid when bit i of `valid` is set: a
// piece's location register toggles by loc, its count changes by delta.
struct ph_events_t {
  std::uint8_t valid = 0;
  std::uint8_t piece[4];
  std::uint8_t loc[4];
  std::int8_t delta[4];
  void set(int i, std::uint8_t p, int l, int dl) {
    valid = std::uint8_t(valid | 1 << i);
    piece[i] = p;
    loc[i] = std::uint8_t(l);
    delta[i] = std::int8_t(dl);
  }
};

// eval_phase: the events applied (kings have no count; empty squares no event).
inline void apply_phase_events(PhaseRegs& d, const ph_events_t& ev) {
  for (unsigned valid = ev.valid; valid != 0; valid &= valid - 1) {  // the valid events in order
    const int i = __builtin_ctz(valid);
    const int type = ev.piece[i] & 7;
    if (type == 0 || type == 7) continue;
    const int colour = (ev.piece[i] >> 3) & 1;
    d.locs[colour * 6 + type - 1] ^= std::uint8_t(ev.loc[i] & 63);
    if (type != CHIP_KING) {
      std::uint8_t& c = d.counts[colour * 5 + type - 1];
      c = std::uint8_t((c + ev.delta[i]) & 15);
    }
  }
}

// Material signature of one side (eval_phase): {queens >= 1, min(rooks, 2), min(minors, 3)}.
inline int material_signature(const PhaseRegs& r, int colour) {
  const int n = r.counts[colour * 5 + 1], b = r.counts[colour * 5 + 2], rk = r.counts[colour * 5 + 3],
            q = r.counts[colour * 5 + 4];
  const int minors = n + b;
  return (q != 0) << 4 | (rk >= 2 ? 2 : rk) << 2 | (minors >= 3 ? 3 : minors);
}
// The phase RAM's word for the current material (PHASE), and the one with the two sides'
// signatures swapped (black's king-safety relevance).
inline std::uint16_t phase_word(const PhaseRegs& r, const std::array<std::uint16_t, 1024>& phase_ram) {
  return phase_ram[material_signature(r, 0) << 5 | material_signature(r, 1)];
}
inline std::uint16_t phase_word_swapped(const PhaseRegs& r, const std::array<std::uint16_t, 1024>& phase_ram) {
  return phase_ram[material_signature(r, 1) << 5 | material_signature(r, 0)];
}

// eval_kpk: the KPK ROM's view (kpk_active_o, kpk_win_o; win is only meaningful when active).
struct KpkState {
  bool active = false;
  bool win = false;
};
KpkState kpk_state(const PhaseRegs& r, bool stm, bool kpk_en);
// eval_rules: the draw rules that apply, bit 0 KQKP, 1 KRKP, 2 KRPKR (rule_draw_o).
std::uint32_t rule_draws(const PhaseRegs& r, bool rules_en);
// eval_kpa: the fewest own moves for a runner of colour c to promote, 7 = none (runner_w_o,
// runner_b_o).
int fastest_runner(const PhaseRegs& r, const std::array<std::uint8_t, 64>& board, bool stm, int c);
// eval_kpa: widely separated passed pawns of colour c (separated_o[c]).
bool separated_passers(const PhaseRegs& r, const std::array<std::uint8_t, 64>& board, int c);

}  // namespace db::chip
