// The node's Micro Channel address map as this model decodes it (docs/sim.md). The bus's I/O and
// memory spaces share one 32-bit address in the model: the I/O ports are below 0x1000, the cards'
// memory windows from 16 MiB up.
#pragma once

#include <array>
#include <cstdint>

#include "chip/chip_regs.h"

namespace db::sim {

// Card setup (the system board's adapter setup port): write 0x08 | slot to put the card in that
// slot (0-7) in setup, 0 to leave setup. Its POS registers are then I/O 0x100-0x107.
constexpr std::uint32_t kSetupSelect = 0x96;
constexpr std::uint32_t kSetupEnable = 0x08;
constexpr std::uint32_t kPosBase = 0x100;
constexpr std::uint32_t kPosCount = 8;
// POS registers: 0x100/0x101 adapter ID (low, high byte; read-only), 0x102 option select (bit 0:
// card enable), 0x103-0x105 option bytes, 0x106/0x107 subaddress extension.
constexpr std::uint32_t kPosIdLow = 0x100;
constexpr std::uint32_t kPosIdHigh = 0x101;
constexpr std::uint32_t kPosOption = 0x102;
constexpr std::uint32_t kPosEnableBit = 0x01;

// Card status ports (I/O, one 32-bit read-only word per card slot, at kCardStatusBase + 4 * slot):
// bit c (0-7) set while chip slot c holds a chip whose controller is idle (its command or search
// has ended; the card latches each chip's idle pin), bit 8 + c set when slot c holds a chip. The
// host reads one word for eight chips instead of polling each chip's STATUS register.
constexpr std::uint32_t kCardStatusBase = 0x300;
constexpr std::uint32_t card_status_port(int slot) { return kCardStatusBase + 4 * std::uint32_t(slot); }

// Card memory windows: slot s at kCardBase + s * kCardWindow; within it chip c (0-7) at c << 19 and
// its 17-bit word address w at w << 2 (32-bit words, byte addresses as TLM counts them).
constexpr int kSlots = 8;
constexpr int kChipsPerCard = 8;
constexpr int kChipAddressBits = 17;
constexpr std::uint32_t kCardBase = 0x0100'0000;
constexpr std::uint32_t kCardWindow = std::uint32_t(kChipsPerCard) << (kChipAddressBits + 2);  // 4 MiB

constexpr std::uint32_t chip_address(int slot, int chip, std::uint32_t word) {
  return kCardBase + std::uint32_t(slot) * kCardWindow + (std::uint32_t(chip) << (kChipAddressBits + 2)) +
         ((word & ((1u << kChipAddressBits) - 1)) << 2);
}

// Card broadcast windows (write-only): slot s at kBroadcastBase + s * kBroadcastWindow, word w at
// w << 2. A write there reaches every chip on the card in one bus cycle (the evaluation weights,
// the same for every chip of a search).
constexpr std::uint32_t kBroadcastBase = 0x0400'0000;
constexpr std::uint32_t kBroadcastWindow = 1u << (kChipAddressBits + 2);  // 512 KiB
constexpr std::uint32_t broadcast_address(int slot, std::uint32_t word) {
  return kBroadcastBase + std::uint32_t(slot) * kBroadcastWindow + ((word & ((1u << kChipAddressBits) - 1)) << 2);
}

// Card job windows (write-only, streaming-data bursts; docs/sim.md): slot s at kJobWindowBase +
// s * kJobWindowCard, chip c at c * kJobWindowChip in it, word i at i << 2. The card passes word i
// of a burst to its chip's register kJobWindow[i]: a search job's staging registers and its JOB
// command in an order that puts what changes from one job to the next (the path's last moves, the
// test value, the slow estimate, the command) at the end, so that one burst from the first word
// that changed to the command loads and starts a job. The history runs backwards (move pair 0
// next to TEST_PAIR): a job's unused history words then come before its used ones.
constexpr std::uint32_t kJobWindowBase = 0x0500'0000;
constexpr std::uint32_t kJobWindowWords = 31;
constexpr std::uint32_t kJobWindowChip = 32 * 4;                                         // bytes a chip
constexpr std::uint32_t kJobWindowCard = std::uint32_t(kChipsPerCard) * kJobWindowChip;  // 1 KiB
constexpr std::array<std::uint32_t, kJobWindowWords> kJobWindow = [] {
  namespace reg = chip::reg;
  std::array<std::uint32_t, kJobWindowWords> w{};
  std::uint32_t i = 0;
  for (std::uint32_t r : {reg::SEARCH_CTRL, reg::OFFSET_CTRL, reg::NODE_LIMIT}) w[i++] = r;
  for (std::uint32_t k = 0; k < reg::BOARD_PACK_COUNT; ++k) w[i++] = reg::BOARD_PACK_BASE + k;
  w[i++] = reg::JOB_POS;
  for (std::uint32_t k = reg::JOB_HISTORY_COUNT; k-- > 0;) w[i++] = reg::JOB_HISTORY_BASE + k;
  for (std::uint32_t r : {reg::TEST_PAIR, reg::SLOW_EST, reg::CMD}) w[i++] = r;
  return w;
}();
static_assert(kJobWindow[kJobWindowWords - 1] == chip::reg::CMD, "the command ends the job window");
// Index of a chip register in the job window, or -1.
constexpr int job_window_index(std::uint32_t reg) {
  for (std::uint32_t i = 0; i < kJobWindowWords; ++i) {
    if (kJobWindow[i] == reg) return int(i);
  }
  return -1;
}
constexpr std::uint32_t job_window_address(int slot, int chip, std::uint32_t index) {
  return kJobWindowBase + std::uint32_t(slot) * kJobWindowCard + std::uint32_t(chip) * kJobWindowChip + index * 4;
}

}  // namespace db::sim
