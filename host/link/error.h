// Errors of the chip link: the wire's error codes (ERROR replies, docs/link.md) and LinkError, the
// exception every decoder and the client throw, carrying the code so that callers can tell a refused
// request from a broken connection.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace db::link {

// Codes 1-14 travel in ERROR replies; codes from 0x100 are local to one side and never sent.
enum class ErrorCode : std::uint16_t {
  NONE = 0,
  BAD_CRC = 1,       // the frame's CRC-32 did not match
  BAD_FRAME = 2,     // COBS encoding or the length field wrong, frame shorter than a header
  UNKNOWN_TYPE = 3,  // a request type the server does not know
  TOO_LONG = 4,      // frame over the limit, or a reply that would be
  BAD_PAYLOAD = 5,   // payload truncated, extra bytes, or a field out of range
  BAD_CHIP = 6,      // chip index out of range
  NOT_CLAIMED = 7,   // the chip is not claimed by this connection
  BAD_ADDRESS = 8,   // a bus address over 17 bits
  BUSY = 9,          // the chip already runs a RUN (or a long ACCESS)
  TIMEOUT = 10,      // the watchdog ended an ACCESS; on the client: no reply in time
  VERSION = 11,      // no common protocol version
  NO_CHIPS = 12,     // CLAIM found no free chip
  SERVER_FULL = 13,  // too many clients
  INTERNAL = 14,     // the server failed (a backend threw)
  CLOSED = 0x100,    // local: the connection was closed or could not be opened
  PROTOCOL = 0x101,  // local: the peer sent something the protocol does not allow (e.g. a wrong reply type)
};

// "BAD_CRC", ...; "UNKNOWN(n)" for a code not in the list.
std::string error_name(ErrorCode code);

class LinkError : public std::runtime_error {
 public:
  LinkError(ErrorCode code, const std::string& what, std::uint16_t detail = 0)
      : std::runtime_error(what), code_(code), detail_(detail) {}
  ErrorCode code() const { return code_; }
  // The ERROR reply's detail (op index, chip index or 0).
  std::uint16_t detail() const { return detail_; }

 private:
  ErrorCode code_;
  std::uint16_t detail_;
};

}  // namespace db::link
