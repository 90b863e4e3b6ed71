// CRC-32/ISO-HDLC (the zlib, Ethernet and PNG CRC): polynomial 0x04C11DB7 reflected (0xEDB88320),
// init 0xFFFFFFFF, final xor 0xFFFFFFFF; "123456789" gives 0xCBF43926. Every link frame ends with it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace db::link {

std::uint32_t crc32(const std::uint8_t* data, std::size_t size);

}  // namespace db::link
