// The evaluation generator's named integer parameters (docs/evaluation.md, "The generator's
// parameters"): every number the generator (generate_weights, default_placement, default_phase,
// default_slow_weights, set_default_pawn_weights) puts into the chip's tables and registers comes
// from one of these, so that a tuner fits the generator's few hundred parameters instead of the
// chip's eight thousand table entries. The structure (which index bits mean what) stays code.
//
// Names are hierarchical: "<table or group>.<term>", "[k]" for an array's element
// ("placement.knight.value", "rook_files.open[2]", "passed.static[4]", "regs.bishop_pair").
// Every parameter feeds both colours' tables (colour symmetry is kept). Its range [min, max] is
// where it makes sense; the generator saturates every table field and register into its width
// (saturate_signed / saturate_unsigned below), so no combination of values wraps.
//
// hand(): today's hand-set values. defaults(): the hand values overridden by the tuned values
// embedded at build time from host/chip/tuned_params.json ({} = none, defaults() == hand()).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace db::chip {

// Parameter indices (GeneratorParams::get). An array's enumerator is its element 0; element k is
// enumerator + k (the *_LAST enumerators only reserve the places).
namespace gp {
enum Id : int {
  // Placement table (material included, owner's view, relative squares).
  PAWN_VALUE,
  PAWN_ADVANCE,
  PAWN_CENTRE_ADVANCE,
  KNIGHT_VALUE,
  KNIGHT_CENTRE,
  KNIGHT_RIM,
  BISHOP_VALUE,
  BISHOP_CENTRE,
  ROOK_VALUE,
  ROOK_SEVENTH,
  ROOK_CENTRE_FILE,
  QUEEN_VALUE,
  QUEEN_CENTRE,
  KING_CORNER,
  KING_ADVANCE,
  KING_ENDING_CENTRE,
  KING_ENDING_BASE,
  // Game phase RAM.
  PHASE_MINOR_PAIR,
  PHASE_RELEVANCE_QUEEN,
  PHASE_RELEVANCE_ROOK,
  PHASE_RELEVANCE_MINOR,
  PHASE_SCALE_BASE,
  PHASE_SCALE_FLOOR,
  PHASE_SCALE_QUEEN,
  PHASE_SCALE_ROOK,
  PHASE_SCALE_MINOR,
  PHASE_SCALE_DIVISOR,
  // ROOK_FILES.
  ROOK_FILES_OPEN,
  ROOK_FILES_OPEN_LAST = ROOK_FILES_OPEN + 3,
  ROOK_FILES_HALF,
  ROOK_FILES_HALF_LAST = ROOK_FILES_HALF + 3,
  ROOK_FILES_CLOSED_UNOPPOSED,
  ROOK_FILES_CLOSED_OPPOSED,
  ROOK_FILES_DOUBLED_PERCENT,
  ROOK_FILES_CENTRE,
  ROOK_FILES_KING_FACTOR_CLOSED,
  ROOK_FILES_KING_FACTOR_APART_CLOSED,
  ROOK_FILES_KING_FACTOR_OPEN,
  ROOK_FILES_KING_FACTOR_APART_OPEN,
  // MULTI_PAWNS.
  MULTI_PAWNS_ISOLATED,
  MULTI_PAWNS_SUPPORTED,
  MULTI_PAWNS_DUO,
  MULTI_PAWNS_PSEUDO_ISOLATED,
  MULTI_PAWNS_BACKWARD,
  MULTI_PAWNS_TRIPLED_PERCENT,
  MULTI_PAWNS_TRIPLED,
  MULTI_PAWNS_UNOPPOSED,
  MULTI_PAWNS_ROOK_PAWN,
  // PASSED.
  PASSED_STATIC,
  PASSED_STATIC_LAST = PASSED_STATIC + 4,
  PASSED_ENDGAME,
  PASSED_ENDGAME_LAST = PASSED_ENDGAME + 4,
  PASSED_PROTECTED_PERCENT,
  PASSED_CONNECTED_PERCENT,
  PASSED_FREE_PERCENT,
  PASSED_BLOCKED_PERCENT,
  PASSED_ROOK_PAWN_PERCENT,
  // MOBILITY.
  MOBILITY_BASE,
  MOBILITY_CENTRE,
  MOBILITY_FAR_HALF,
  // DEVELOPMENT (and its scaling by the root's move number in generate_weights).
  DEVELOPMENT_MINOR,
  DEVELOPMENT_KING,
  DEVELOPMENT_KING_LAST = DEVELOPMENT_KING + 3,
  DEVELOPMENT_PERCENT,
  DEVELOPMENT_PERCENT_LAST = DEVELOPMENT_PERCENT + 2,
  DEVELOPMENT_UNTIL,
  DEVELOPMENT_UNTIL_LAST = DEVELOPMENT_UNTIL + 1,
  // SIGNATURE, JOINT_SIGNATURE.
  SIGNATURE_QUEEN_KNIGHT,
  JOINT_SIGNATURE_ROOK_VS_MINORS,
  // BISHOPS, SELF_BLOCK, OPP_BLOCK, BACK_BLOCK.
  BISHOPS_LONG_DIAGONAL,
  BISHOPS_MOBILE,
  BISHOPS_OWN_PAWN,
  BISHOPS_KING,
  SELF_BLOCK_BASE,
  SELF_BLOCK_BLOCKED,
  SELF_BLOCK_ADVANCED,
  SELF_BLOCK_CENTRE,
  SELF_BLOCK_TWO_BISHOPS,
  OPP_BLOCK_BASE,
  OPP_BLOCK_PROTECTED,
  OPP_BLOCK_BLOCKED,
  BACK_BLOCK_REAR,
  BACK_BLOCK_FRONT,
  BACK_BLOCK_TRIPLED,
  // MINOR_ON_WEAK.
  MINOR_ON_WEAK_KNIGHT,
  MINOR_ON_WEAK_KNIGHT_LAST = MINOR_ON_WEAK_KNIGHT + 3,
  MINOR_ON_WEAK_CENTRE,
  MINOR_ON_WEAK_BISHOP_PERCENT,
  MINOR_ON_WEAK_SUPPORTED_PERCENT,
  MINOR_ON_WEAK_CHALLENGE_PERCENT,
  MINOR_ON_WEAK_CHALLENGE_PERCENT_LAST = MINOR_ON_WEAK_CHALLENGE_PERCENT + 2,
  // TRAPPED_BISHOP.
  TRAPPED_BISHOP_CORNER,
  TRAPPED_BISHOP_SIDE,
  TRAPPED_BISHOP_DEFENDED,
  TRAPPED_BISHOP_NO_ESCAPE,
  // PINNED.
  PINNED_BASE,
  PINNED_BASE_LAST = PINNED_BASE + 4,
  PINNED_KING_PERCENT,
  PINNED_QUEEN_PINNER_PERCENT,
  PINNED_PRESSURE_PERCENT,
  // Registers (AIJ Table 4).
  REG_ROOK7,
  REG_ROOK7_LAST = REG_ROOK7 + 5,
  REG_HUNG_ON_MOVE,
  REG_HUNG_OFF_MOVE,
  REG_BISHOP_PAIR,
  REG_SIDE_TO_MOVE,
  REG_XRAY,
  REG_KNIGHT_TRAP,
  REG_KNIGHT_TRAP_LAST = REG_KNIGHT_TRAP + 2,
  REG_ROOK_TRAP,
  REG_ROOK_TRAP_LAST = REG_ROOK_TRAP + 3,
  REG_QUEEN_TRAP,
  REG_MPIN_HUNG,
  REG_PINNED_SIMPLE_HUNG,
  REG_PINNED_HUNG,
  REG_PERM_PIN_SIMPLE_HUNG,
  // The pawn family (set_default_pawn_weights).
  PAWN_STRUCTURE_STATIC,
  PAWN_STRUCTURE_STATIC_LAST = PAWN_STRUCTURE_STATIC + 4,
  PAWN_STRUCTURE_ENDGAME,
  PAWN_STRUCTURE_ENDGAME_LAST = PAWN_STRUCTURE_ENDGAME + 4,
  PAWN_STRUCTURE_HALF_OPEN_STATIC,
  PAWN_STRUCTURE_HALF_OPEN_ENDGAME,
  PAWN_STRUCTURE_WEAK_CENTRE,
  PAWN_STRUCTURE_ADVANCE_STATIC,
  PAWN_STRUCTURE_ADVANCE_ENDGAME,
  SHELTER_DISTANCE,
  SHELTER_DISTANCE_LAST = SHELTER_DISTANCE + 7,
  SHELTER_DEFENDED,
  SHELTER_KING_FILE_PERCENT,
  SHELTER_OFF_BACK_PERCENT,
  STORM_DISTANCE,
  STORM_DISTANCE_LAST = STORM_DISTANCE + 7,
  STORM_BLOCKED_PERCENT,
  STORM_OPPOSITE_WINGS,
  REG_WASTED_PAWNS,
  REG_SEPARATED_PASSED,
  REG_MISSING_WING,
  REG_ROOK_BEHIND_PASSED,
  REG_BOC,
  REG_BOC_LAST = REG_BOC + 1,
  // The fast evaluation's pawn race registers.
  RACE_RUNNER_BONUS,
  RACE_SEP_BONUS,
  COUNT
};
}  // namespace gp

// Saturation into a table field or register of `bits` bits: the value clamped to the field's range
// (signed: two's complement -2^(bits-1) .. 2^(bits-1)-1; unsigned: 0 .. 2^bits-1), never wrapped.
constexpr int saturate_signed(int value, int bits) {
  const int hi = (1 << (bits - 1)) - 1, lo = -(1 << (bits - 1));
  return value < lo ? lo : value > hi ? hi : value;
}
constexpr int saturate_unsigned(int value, int bits) {
  const int hi = bits >= 31 ? 0x7FFFFFFF : (1 << bits) - 1;
  return value < 0 ? 0 : value > hi ? hi : value;
}
// The same as the field's bit pattern (bits 0 .. bits-1 of the word; bits <= 31).
constexpr std::uint32_t signed_field(int value, int bits) {
  return std::uint32_t(saturate_signed(value, bits)) & ((1u << bits) - 1);
}
constexpr std::uint32_t unsigned_field(int value, int bits) { return std::uint32_t(saturate_unsigned(value, bits)); }
// A signed field whose negation must stay exact (white's-view tables whose colour-swapped index
// holds the negated value): clamped to -(2^(bits-1)-1) .. 2^(bits-1)-1.
constexpr std::uint32_t symmetric_field(int value, int bits) {
  const int hi = (1 << (bits - 1)) - 1;
  return signed_field(value < -hi ? -hi : value > hi ? hi : value, bits);
}

class GeneratorParams {
 public:
  // Today's hand-set values (the generator before tuning).
  static const GeneratorParams& hand();
  // The built-in defaults: hand() overridden by the embedded host/chip/tuned_params.json (parsed once).
  static const GeneratorParams& defaults();

  static int count() { return gp::COUNT; }
  static const std::string& name(int index);  // "placement.knight.value"
  static int min(int index);
  static int max(int index);
  static int hand_value(int index);
  static const std::string& description(int index);
  // The index of a name; -1 when there is none.
  static int find(std::string_view name);

  // Throws std::out_of_range for an index outside 0..count()-1.
  int get(int index) const;
  // Throws std::invalid_argument naming an unknown parameter.
  int operator[](std::string_view name) const;
  // Throws std::invalid_argument naming the parameter and its range when value is outside
  // [min, max] (it never clamps: a tuner clamps with min() and max() itself).
  void set(int index, int value);
  const std::vector<int>& values() const { return values_; }

  // Every parameter: {"placement.pawn.value": 100, ...}.
  nlohmann::json to_json() const;
  // defaults() with the values j names: j must be an object; an unknown name, a value that is not
  // an integer or one outside the parameter's range throws std::invalid_argument naming the
  // parameter (and the range).
  static GeneratorParams from_json(const nlohmann::json& j);
  // from_json of a file; throws std::invalid_argument naming the file when it cannot be read or
  // is not JSON, or as from_json.
  static GeneratorParams from_file(const std::string& path);
  // The value of --eval-params and of the UCI option EvalParams: "" or "default": nullptr (the
  // built-in defaults); "hand": hand(); anything else: a JSON file (from_file).
  static std::shared_ptr<const GeneratorParams> from_spec(const std::string& spec);

  bool operator==(const GeneratorParams& o) const { return values_ == o.values_; }
  bool operator!=(const GeneratorParams& o) const { return values_ != o.values_; }

 private:
  GeneratorParams();  // the hand values
  // base with j's values (the rules of from_json).
  static GeneratorParams apply_json(const GeneratorParams& base, const nlohmann::json& j, const std::string& where);
  std::vector<int> values_;
};

// The embedded text of host/chip/tuned_params.json (generated at build time).
extern const char* const kTunedParamsJson;

}  // namespace db::chip
