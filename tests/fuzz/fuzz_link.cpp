// libFuzzer target for the chip link: the frame decoder and the chip server's request handler over
// in-process model chips (the handler is the server without its sockets). The first byte picks:
//   even: the rest is a byte stream for FrameDecoder, fed in pieces; every frame it yields goes to
//         the handler (this reaches COBS, the CRC and the length checks);
//   odd:  the rest is a list of requests [type u8][client u8][length u16][payload] handed to the
//         handler directly (no CRC to guess: this reaches the message decoders and chip logic).
// Besides "no crash, no hang, no undefined behaviour": every reply must be a valid frame of at
// most kMaxPayload bytes that decodes again, and its payload must decode as its type says.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "chip/chip_model.h"
#include "link/frame.h"
#include "link/messages.h"
#include "tools/chipd_service.h"

namespace {

using namespace db::link;

void check(bool ok) {
  if (!ok) std::abort();
}

// The watchdog's clock: one millisecond per reading, so that long jobs meet it within the input.
std::chrono::steady_clock::time_point fake_now() {
  static std::chrono::steady_clock::time_point t{};
  t += std::chrono::milliseconds(1);
  return t;
}

void check_reply(const db::chipd::Outgoing& o) {
  const Frame& f = o.frame;
  check(f.type >= 0x80);
  check(f.payload.size() <= kMaxPayload);
  const std::vector<std::uint8_t> wire = encode_frame(f);
  FrameDecoder d;
  const auto r = d.feed(wire.data(), wire.size());
  check(r.size() == 1 && r[0].ok && r[0].frame.payload == f.payload && r[0].frame.seq == f.seq);
  switch (f.type) {  // decode() throws on a malformed payload: libFuzzer reports the uncaught exception
    case type::HELLO_REPLY:
      HelloReply::decode(f.payload);
      break;
    case type::CLAIM_REPLY:
      ClaimReply::decode(f.payload);
      break;
    case type::ACCESS_REPLY:
      AccessReply::decode(f.payload);
      break;
    case type::RUN_REPLY:
      RunReply::decode(f.payload);
      break;
    case type::DEBUG_REPLY:
      DebugReply::decode(f.payload);
      break;
    case type::ERROR:
      check(ErrorReply::decode(f.payload).code != ErrorCode::NONE);
      break;
    case type::OK:
      check(f.payload.empty());
      break;
    default:
      check(false);
  }
}

void handle(db::chipd::ChipService& s, db::chipd::ClientId client, const Frame& f) {
  for (const auto& o : s.handle(client, f)) check_reply(o);
  for (int i = 0; i < 4 && s.busy(); ++i) {
    for (const auto& o : s.step()) check_reply(o);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  db::chipd::ServiceOptions o;
  o.chips = 3;
  o.make_chip = [] { return std::make_unique<db::chip::ChipModel>(); };
  o.run_timeout = std::chrono::milliseconds(40);
  o.slice_clocks = 20000;
  o.slice_time = std::chrono::hours(1);
  o.now = fake_now;
  db::chipd::ChipService service(o);
  const std::uint8_t mode = data[0];
  ++data;
  --size;
  if (mode % 2 == 0) {
    FrameDecoder dec;
    const std::size_t piece = 1 + mode / 2;  // 1..128 bytes at a time
    for (std::size_t at = 0; at < size; at += piece) {
      const std::size_t n = size - at < piece ? size - at : piece;
      for (const DecodeResult& r : dec.feed(data + at, n)) {
        check(r.ok == (r.error == ErrorCode::NONE));
        if (r.ok) handle(service, 1 + r.frame.seq % 2, r.frame);
      }
      check(dec.pending() <= kMaxEncodedFrame);
    }
  } else {
    std::size_t at = 0;
    while (size - at >= 4) {
      Frame f;
      f.type = data[at];
      const db::chipd::ClientId client = 1 + data[at + 1] % 3;
      const std::size_t len = std::size_t(data[at + 2] | data[at + 3] << 8) % (kMaxPayload + 1);
      at += 4;
      const std::size_t n = len < size - at ? len : size - at;
      f.payload.assign(data + at, data + at + n);
      at += n;
      f.seq = std::uint16_t(at);
      if (data[at - 1] == 0xEE) {
        service.disconnect(client);  // a client going away in the middle of things
        continue;
      }
      handle(service, client, f);
    }
  }
  for (db::chipd::ClientId c = 1; c <= 3; ++c) service.disconnect(c);
  check(!service.busy());
  check(service.free_chips() == 3);
  return 0;
}
