// Names of the link's error codes.
#include "link/error.h"

namespace db::link {

std::string error_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::NONE:
      return "NONE";
    case ErrorCode::BAD_CRC:
      return "BAD_CRC";
    case ErrorCode::BAD_FRAME:
      return "BAD_FRAME";
    case ErrorCode::UNKNOWN_TYPE:
      return "UNKNOWN_TYPE";
    case ErrorCode::TOO_LONG:
      return "TOO_LONG";
    case ErrorCode::BAD_PAYLOAD:
      return "BAD_PAYLOAD";
    case ErrorCode::BAD_CHIP:
      return "BAD_CHIP";
    case ErrorCode::NOT_CLAIMED:
      return "NOT_CLAIMED";
    case ErrorCode::BAD_ADDRESS:
      return "BAD_ADDRESS";
    case ErrorCode::BUSY:
      return "BUSY";
    case ErrorCode::TIMEOUT:
      return "TIMEOUT";
    case ErrorCode::VERSION:
      return "VERSION";
    case ErrorCode::NO_CHIPS:
      return "NO_CHIPS";
    case ErrorCode::SERVER_FULL:
      return "SERVER_FULL";
    case ErrorCode::INTERNAL:
      return "INTERNAL";
    case ErrorCode::CLOSED:
      return "CLOSED";
    case ErrorCode::PROTOCOL:
      return "PROTOCOL";
  }
  return "UNKNOWN(" + std::to_string(unsigned(code)) + ")";
}

}  // namespace db::link
