// CRC-32, COBS and frames: check value, round trips, the stream decoder's resynchronisation.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "link/cobs.h"
#include "link/crc32.h"
#include "link/frame.h"

namespace db::link {
namespace {

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST(LinkCrc, CheckValue) {
  const auto b = bytes("123456789");
  EXPECT_EQ(crc32(b.data(), b.size()), 0xCBF43926u);
  EXPECT_EQ(crc32(nullptr, 0), 0u);
}

void expect_round_trip(const std::vector<std::uint8_t>& data) {
  const auto enc = cobs_encode(data);
  for (std::uint8_t b : enc) ASSERT_NE(b, 0);
  EXPECT_LE(enc.size(), cobs_max_encoded(data.size()));
  EXPECT_EQ(cobs_decode(enc), data) << "size " << data.size();
}

TEST(LinkCobs, RoundTrips) {
  expect_round_trip({});
  expect_round_trip({0});
  expect_round_trip({0, 0, 0});
  expect_round_trip({1, 0, 2});
  for (std::size_t n : {253u, 254u, 255u, 256u, 508u, 509u, 1000u}) {
    expect_round_trip(std::vector<std::uint8_t>(n, 0x11));  // runs without zeros
    std::vector<std::uint8_t> z(n, 0x22);
    z.back() = 0;
    expect_round_trip(z);                                // a zero right after the run
    expect_round_trip(std::vector<std::uint8_t>(n, 0));  // only zeros
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::vector<std::uint8_t> d(rng() % 700);
    for (auto& b : d) b = std::uint8_t(rng() % 3 == 0 ? 0 : rng());
    expect_round_trip(d);
  }
}

TEST(LinkCobs, KnownEncodings) {
  EXPECT_EQ(cobs_encode(std::vector<std::uint8_t>{}), (std::vector<std::uint8_t>{1}));
  EXPECT_EQ(cobs_encode(std::vector<std::uint8_t>{0}), (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ(cobs_encode(std::vector<std::uint8_t>{0x11, 0x22, 0x00, 0x33}),
            (std::vector<std::uint8_t>{3, 0x11, 0x22, 2, 0x33}));
  const auto e254 = cobs_encode(std::vector<std::uint8_t>(254, 5));
  EXPECT_EQ(e254.size(), 255u);
  EXPECT_EQ(e254[0], 0xFF);
  const auto e255 = cobs_encode(std::vector<std::uint8_t>(255, 5));
  EXPECT_EQ(e255.size(), 257u);
  EXPECT_EQ(e255[255], 2);
}

TEST(LinkCobs, BadInputThrows) {
  EXPECT_THROW(cobs_decode(std::vector<std::uint8_t>{3, 1}), LinkError);     // block past the end
  EXPECT_THROW(cobs_decode(std::vector<std::uint8_t>{3, 0, 1}), LinkError);  // zero inside
  try {
    cobs_decode(std::vector<std::uint8_t>{0});
    FAIL();
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), ErrorCode::BAD_FRAME);
  }
}

Frame sample(std::uint16_t seq, std::size_t n) {
  Frame f;
  f.type = 0x05;
  f.seq = seq;
  for (std::size_t i = 0; i < n; ++i) f.payload.push_back(std::uint8_t(i * 7));  // zeros included
  return f;
}

std::vector<DecodeResult> feed(FrameDecoder& d, const std::vector<std::uint8_t>& b) {
  return d.feed(b.data(), b.size());
}

TEST(LinkFrame, RoundTrip) {
  for (std::size_t n : {0u, 1u, 250u, 254u, 1000u, 4096u}) {
    const Frame f = sample(std::uint16_t(n), n);
    const auto wire = encode_frame(f);
    EXPECT_EQ(wire.back(), 0);
    EXPECT_EQ(std::count(wire.begin(), wire.end(), 0), 1);
    FrameDecoder d;
    const auto r = feed(d, wire);
    ASSERT_EQ(r.size(), 1u);
    ASSERT_TRUE(r[0].ok) << r[0].message;
    EXPECT_EQ(r[0].frame.type, f.type);
    EXPECT_EQ(r[0].frame.seq, f.seq);
    EXPECT_EQ(r[0].frame.payload, f.payload);
  }
  EXPECT_THROW(encode_frame(sample(1, kMaxPayload + 1)), LinkError);
}

TEST(LinkFrame, ByteByByteAndBackToBack) {
  std::vector<std::uint8_t> wire;
  for (int i = 0; i < 5; ++i) {
    const auto w = encode_frame(sample(std::uint16_t(i), std::size_t(i * 100)));
    wire.insert(wire.end(), w.begin(), w.end());
  }
  FrameDecoder d;
  std::vector<DecodeResult> all;
  for (std::uint8_t b : wire) {
    for (auto& r : d.feed(&b, 1)) all.push_back(std::move(r));
  }
  ASSERT_EQ(all.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(all[std::size_t(i)].ok);
    EXPECT_EQ(all[std::size_t(i)].frame.seq, i);
  }
}

TEST(LinkFrame, ResynchronisesAfterGarbageAndMidFrameStart) {
  const auto w1 = encode_frame(sample(1, 40));
  const auto w2 = encode_frame(sample(2, 40));
  std::vector<std::uint8_t> stream(w1.begin() + 10, w1.end());  // starts in the middle of frame 1
  stream.insert(stream.end(), {0x13, 0x37, 0xAB, 0x00});        // garbage up to a delimiter
  stream.insert(stream.end(), {0x00, 0x00});                    // empty frames: ignored
  stream.insert(stream.end(), w2.begin(), w2.end());
  FrameDecoder d;
  const auto r = feed(d, stream);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_FALSE(r[0].ok);
  EXPECT_FALSE(r[1].ok);
  ASSERT_TRUE(r[2].ok);
  EXPECT_EQ(r[2].frame.seq, 2);
  EXPECT_EQ(d.frames(), 1u);
  EXPECT_EQ(d.errors(), 2u);
}

TEST(LinkFrame, CorruptedByteIsCrcError) {
  const Frame f = sample(9, 64);
  const auto clean = encode_frame(f);
  int crc_errors = 0;
  for (std::size_t i = 0; i + 1 < clean.size(); ++i) {
    auto w = clean;
    w[i] ^= 0x40;
    if (w[i] == 0) continue;  // a new delimiter: that is a framing error, tested elsewhere
    FrameDecoder d;
    const auto r = feed(d, w);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_FALSE(r[0].ok) << "byte " << i;
    if (r[0].error == ErrorCode::BAD_CRC) {
      ++crc_errors;
      EXPECT_EQ(r[0].seq, kNoSeq);
    }
  }
  EXPECT_GT(crc_errors, 50);
}

TEST(LinkFrame, LengthFieldAndShortFrames) {
  // A frame whose length field disagrees with its size, with a correct CRC: BAD_FRAME with its seq.
  std::vector<std::uint8_t> raw = {0x05, 0, 0x34, 0x12, 5, 0, 1, 2, 3};
  const std::uint32_t crc = crc32(raw.data(), raw.size());
  for (int i = 0; i < 4; ++i) raw.push_back(std::uint8_t(crc >> (8 * i)));
  auto w = cobs_encode(raw);
  w.push_back(0);
  FrameDecoder d;
  auto r = feed(d, w);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].error, ErrorCode::BAD_FRAME);
  EXPECT_EQ(r[0].seq, 0x1234);
  // Too short for a header and a CRC.
  r = feed(d, {1, 2, 3, 0});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].error, ErrorCode::BAD_FRAME);
}

TEST(LinkFrame, OverLongFrameDroppedThenInStep) {
  std::vector<std::uint8_t> stream(kMaxEncodedFrame * 3, 0x55);
  stream.push_back(0);
  const auto w = encode_frame(sample(3, 10));
  stream.insert(stream.end(), w.begin(), w.end());
  FrameDecoder d;
  const auto r = feed(d, stream);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].error, ErrorCode::TOO_LONG);
  ASSERT_TRUE(r[1].ok);
  EXPECT_EQ(r[1].frame.seq, 3);
  EXPECT_LE(d.pending(), kMaxEncodedFrame);
  // A length field over the limit, CRC correct: TOO_LONG.
  std::vector<std::uint8_t> raw = {0x05, 0, 1, 0, 0x01, 0x10};  // 4097
  raw.resize(raw.size() + 4097, 0x33);
  const std::uint32_t crc = crc32(raw.data(), raw.size());
  for (int i = 0; i < 4; ++i) raw.push_back(std::uint8_t(crc >> (8 * i)));
  auto e = cobs_encode(raw);
  e.push_back(0);
  const auto r2 = feed(d, e);
  ASSERT_EQ(r2.size(), 1u);
  EXPECT_EQ(r2[0].error, ErrorCode::TOO_LONG);
}

}  // namespace
}  // namespace db::link
