// What the TCP server does with an ACCESS batch and with a RUN on a local chip (docs/link.md), to
// compare a board's replies with, and GoogleTest comparisons of the replies.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "chip/bus.h"
#include "link/messages.h"

namespace db::link::test {

// What the TCP server does with a batch on its chip (docs/link.md, ACCESS), for comparison.
inline AccessReply reference_access(db::chip::ChipBackend& chip, std::uint64_t& tag, const Access& a) {
  AccessReply r;
  r.chip = a.chip;
  for (std::size_t i = 0; i < a.ops.size() && r.failed_op == kNoFailedOp; ++i) {
    const AccessOp& o = a.ops[i];
    auto one = [&](bool write, std::uint32_t addr, std::uint32_t data, bool keep) {
      const db::chip::BusResponse b = chip.access(write, addr, data);
      if (b.error) {
        r.failed_op = std::uint16_t(i);
        r.failed_addr = addr;
        return false;
      }
      if (keep) r.words.push_back(b.data);
      return true;
    };
    switch (o.kind) {
      case AccessOp::WRITE:
        one(true, o.addr, o.data, false);
        break;
      case AccessOp::READ:
        one(false, o.addr, 0, true);
        break;
      case AccessOp::BLOCK_WRITE:
        for (std::size_t k = 0; k < o.words.size() && one(true, o.addr + std::uint32_t(k), o.words[k], false); ++k) {}
        break;
      case AccessOp::BLOCK_READ:
        for (std::size_t k = 0; k < o.count && one(false, o.addr + std::uint32_t(k), 0, true); ++k) {}
        break;
      case AccessOp::TICK:
        chip.tick(o.clocks);
        break;
      case AccessOp::SET_TAG:
        tag = o.tag;
        break;
      case AccessOp::GET_TAG:
        r.words.push_back(std::uint32_t(tag));
        r.words.push_back(std::uint32_t(tag >> 32));
        break;
    }
  }
  r.clock = chip.clock();
  return r;
}

// The RUN loop of docs/link.md on a local chip.
inline RunReply reference_run(db::chip::ChipBackend& chip, const db::link::Run& run) {
  RunReply r;
  r.chip = run.chip;
  for (;;) {
    chip.tick(run.quantum);
    const std::uint32_t v = chip.access(false, run.poll_addr, 0).data;
    ++r.quanta;
    if ((v & run.poll_mask) == run.poll_value) {
      r.outcome = RunOutcome::DONE;
      for (std::uint32_t a : run.reads) r.words.push_back(chip.access(false, a, 0).data);
      break;
    }
    if (run.max_quanta != 0 && r.quanta == run.max_quanta) {
      r.outcome = RunOutcome::BUDGET;
      break;
    }
  }
  r.clock = chip.clock();
  return r;
}

inline void expect_same(const AccessReply& got, const AccessReply& want) {
  EXPECT_EQ(got.chip, want.chip);
  EXPECT_EQ(got.failed_op, want.failed_op);
  EXPECT_EQ(got.failed_addr, want.failed_addr);
  EXPECT_EQ(got.clock, want.clock);
  EXPECT_EQ(got.words, want.words);
}

inline void expect_same(const RunReply& got, const RunReply& want) {
  EXPECT_EQ(got.chip, want.chip);
  EXPECT_EQ(int(got.outcome), int(want.outcome));
  EXPECT_EQ(got.quanta, want.quanta);
  EXPECT_EQ(got.clock, want.clock);
  EXPECT_EQ(got.words, want.words);
}

}  // namespace db::link::test
