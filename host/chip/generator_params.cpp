// See generator_params.h.
#include "chip/generator_params.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace db::chip {

namespace {

struct Info {
  int id;
  const char* name;
  int hand, min, max;
  const char* description;
};

using namespace gp;

// One row per parameter, in the order of gp::Id (checked below). The hand values are the
// generator's constants before it had parameters; the ranges keep each term in its field's width
// (the generator saturates combinations).
constexpr Info kInfo[] = {
    // Placement (default_placement): material plus placement, owner's view.
    {PAWN_VALUE, "placement.pawn.value", 100, 0, 2000, "a pawn on its second rank"},
    {PAWN_ADVANCE, "placement.pawn.advance", 6, -50, 50, "a pawn, per rank beyond its second"},
    {PAWN_CENTRE_ADVANCE, "placement.pawn.centre_advance", 4, -50, 50,
     "a pawn on files c-f, per rank beyond its second, more"},
    {KNIGHT_VALUE, "placement.knight.value", 320, 0, 4000, "a knight on the edge (before the rim penalty)"},
    {KNIGHT_CENTRE, "placement.knight.centre", 12, -100, 100, "a knight, per step of centrality (0 edge .. 3 centre)"},
    {KNIGHT_RIM, "placement.knight.rim", 15, -200, 200, "a knight on the edge, less"},
    {BISHOP_VALUE, "placement.bishop.value", 330, 0, 4000, "a bishop on the edge"},
    {BISHOP_CENTRE, "placement.bishop.centre", 6, -100, 100, "a bishop, per step of centrality"},
    {ROOK_VALUE, "placement.rook.value", 500, 0, 6000, "a rook"},
    {ROOK_SEVENTH, "placement.rook.seventh", 20, -200, 200, "a rook on its seventh rank, more"},
    {ROOK_CENTRE_FILE, "placement.rook.centre_file", 3, -100, 100, "a rook on files c-f, more"},
    {QUEEN_VALUE, "placement.queen.value", 900, 0, 10000, "a queen on the edge"},
    {QUEEN_CENTRE, "placement.queen.centre", 3, -100, 100, "a queen, per step of centrality"},
    {KING_CORNER, "placement.king.corner", 20, -500, 500,
     "middlegame: the king on its first rank, files a-c or g-h (sheltered)"},
    {KING_ADVANCE, "placement.king.advance", 10, -500, 500, "middlegame: the king off its first rank, less per rank"},
    {KING_ENDING_CENTRE, "placement.king.ending_centre", 10, -500, 500,
     "ending: the king, per step of centrality (blended with the middlegame's by the root's stage)"},
    {KING_ENDING_BASE, "placement.king.ending_base", -20, -1000, 1000, "ending: the king on the edge"},
    // Game phase RAM (default_phase).
    {PHASE_MINOR_PAIR, "phase.minor_pair", 15, -127, 127, "two minor pieces more against a rook more"},
    {PHASE_RELEVANCE_QUEEN, "phase.relevance.queen", 6, 0, 15, "king-safety relevance (0-15) per enemy queen"},
    {PHASE_RELEVANCE_ROOK, "phase.relevance.rook", 2, 0, 15, "king-safety relevance per enemy rook"},
    {PHASE_RELEVANCE_MINOR, "phase.relevance.minor", 1, 0, 15, "king-safety relevance per enemy minor piece"},
    {PHASE_SCALE_BASE, "phase.pawn_scale.base", 15, 0, 15,
     "pawn-structure scale (sixteenths of the endgame values) without pieces"},
    {PHASE_SCALE_FLOOR, "phase.pawn_scale.floor", 4, 0, 15, "pawn-structure scale, least"},
    {PHASE_SCALE_QUEEN, "phase.pawn_scale.queen", 3, 0, 15, "pawn-structure scale: piece count of a queen"},
    {PHASE_SCALE_ROOK, "phase.pawn_scale.rook", 2, 0, 15, "pawn-structure scale: piece count of a rook"},
    {PHASE_SCALE_MINOR, "phase.pawn_scale.minor", 1, 0, 15, "pawn-structure scale: piece count of a minor"},
    {PHASE_SCALE_DIVISOR, "phase.pawn_scale.divisor", 2, 1, 16, "pawn-structure scale: base - piece count / divisor"},
    // ROOK_FILES (6-bit signed base, 2-bit king factors).
    {ROOK_FILES_OPEN + 0, "rook_files.open[0]", 20, -32, 31, "a rook on an open file, no blockage"},
    {ROOK_FILES_OPEN + 1, "rook_files.open[1]", 8, -32, 31, "a rook on an open file, blockage 1"},
    {ROOK_FILES_OPEN + 2, "rook_files.open[2]", 10, -32, 31, "a rook on an open file, blockage 2"},
    {ROOK_FILES_OPEN + 3, "rook_files.open[3]", 12, -32, 31, "a rook on an open file, blockage 3"},
    {ROOK_FILES_HALF + 0, "rook_files.half[0]", 12, -32, 31, "a rook on a half-open file, no blockage"},
    {ROOK_FILES_HALF + 1, "rook_files.half[1]", 6, -32, 31, "a rook on a half-open file, blockage 1"},
    {ROOK_FILES_HALF + 2, "rook_files.half[2]", 6, -32, 31, "a rook on a half-open file, blockage 2"},
    {ROOK_FILES_HALF + 3, "rook_files.half[3]", 2, -32, 31, "a rook on a half-open file, blockage 3 (granite)"},
    {ROOK_FILES_CLOSED_UNOPPOSED, "rook_files.closed_unopposed", 4, -32, 31,
     "a rook in front of its own pawns, no enemy pawn"},
    {ROOK_FILES_CLOSED_OPPOSED, "rook_files.closed_opposed", -2, -32, 31,
     "a rook in front of its own pawns, enemy pawn too"},
    {ROOK_FILES_DOUBLED_PERCENT, "rook_files.doubled_percent", 150, 0, 400, "two rooks on the file, percent"},
    {ROOK_FILES_CENTRE, "rook_files.centre", 1, -32, 31, "a positive value on files c-f, more"},
    {ROOK_FILES_KING_FACTOR_CLOSED, "rook_files.king_factor.closed", 3, 0, 3,
     "closed file near the enemy king: king safety counts base x (4 - this) / 2"},
    {ROOK_FILES_KING_FACTOR_APART_CLOSED, "rook_files.king_factor_apart.closed", 2, 0, 3,
     "the same with the kings on opposite wings"},
    {ROOK_FILES_KING_FACTOR_OPEN, "rook_files.king_factor.open", 1, 0, 3,
     "(half-)open file near the enemy king: base x (4 - this) / 2"},
    {ROOK_FILES_KING_FACTOR_APART_OPEN, "rook_files.king_factor_apart.open", 0, 0, 3,
     "the same with the kings on opposite wings"},
    // MULTI_PAWNS (8-bit penalties).
    {MULTI_PAWNS_ISOLATED, "multi_pawns.isolated", 30, 0, 255, "doubled pawns, isolated"},
    {MULTI_PAWNS_SUPPORTED, "multi_pawns.supported", 10, 0, 255, "doubled pawns, supported"},
    {MULTI_PAWNS_DUO, "multi_pawns.duo", 8, 0, 255, "doubled pawns, duo"},
    {MULTI_PAWNS_PSEUDO_ISOLATED, "multi_pawns.pseudo_isolated", 18, 0, 255, "doubled pawns, pseudo-isolated"},
    {MULTI_PAWNS_BACKWARD, "multi_pawns.backward", 26, 0, 255, "doubled pawns, backward"},
    {MULTI_PAWNS_TRIPLED_PERCENT, "multi_pawns.tripled_percent", 50, 0, 400, "tripled: more, percent of the penalty"},
    {MULTI_PAWNS_TRIPLED, "multi_pawns.tripled", 10, 0, 255, "tripled: more"},
    {MULTI_PAWNS_UNOPPOSED, "multi_pawns.unopposed", 5, 0, 255, "unopposed (half-open for the enemy rooks): more"},
    {MULTI_PAWNS_ROOK_PAWN, "multi_pawns.rook_pawn", 4, 0, 255, "on a rook file: more"},
    // PASSED (16-bit signed static and endgame values).
    {PASSED_STATIC + 0, "passed.static[0]", 10, -2000, 2000, "passed pawn, rank class 0 (relative ranks 1-2)"},
    {PASSED_STATIC + 1, "passed.static[1]", 20, -2000, 2000, "passed pawn, rank class 1"},
    {PASSED_STATIC + 2, "passed.static[2]", 35, -2000, 2000, "passed pawn, rank class 2"},
    {PASSED_STATIC + 3, "passed.static[3]", 60, -2000, 2000, "passed pawn, rank class 3"},
    {PASSED_STATIC + 4, "passed.static[4]", 100, -2000, 2000, "passed pawn, rank class 4 (seventh rank)"},
    {PASSED_ENDGAME + 0, "passed.endgame[0]", 10, -2000, 2000, "passed pawn, rank class 0, x pawn scale / 16"},
    {PASSED_ENDGAME + 1, "passed.endgame[1]", 20, -2000, 2000, "passed pawn, rank class 1, x pawn scale / 16"},
    {PASSED_ENDGAME + 2, "passed.endgame[2]", 40, -2000, 2000, "passed pawn, rank class 2, x pawn scale / 16"},
    {PASSED_ENDGAME + 3, "passed.endgame[3]", 70, -2000, 2000, "passed pawn, rank class 3, x pawn scale / 16"},
    {PASSED_ENDGAME + 4, "passed.endgame[4]", 110, -2000, 2000, "passed pawn, rank class 4, x pawn scale / 16"},
    {PASSED_PROTECTED_PERCENT, "passed.protected_percent", 25, -100, 200, "protected passed pawn: percent more"},
    {PASSED_CONNECTED_PERCENT, "passed.connected_percent", 25, -100, 200, "connected passed pawn: percent more"},
    {PASSED_FREE_PERCENT, "passed.free_percent", 20, -100, 200, "free path: percent more"},
    {PASSED_BLOCKED_PERCENT, "passed.blocked_percent", 30, -100, 200, "blocked: percent less"},
    {PASSED_ROOK_PAWN_PERCENT, "passed.rook_pawn_percent", 10, -100, 200, "on a rook file: percent less"},
    // MOBILITY (9-bit signed): (level - 8) x (base + centre + far half).
    {MOBILITY_BASE, "mobility.base", 1, -10, 10, "control of a square, per level"},
    {MOBILITY_CENTRE, "mobility.centre", 1, -10, 10, "control of a square on files c-f, more per level"},
    {MOBILITY_FAR_HALF, "mobility.far_half", 1, -10, 10, "control of a square in the opponent's half, more"},
    // DEVELOPMENT (9-bit signed, white's view).
    {DEVELOPMENT_MINOR, "development.minor", 8, -80, 80, "a minor piece still at home: less"},
    {DEVELOPMENT_KING + 0, "development.king[0]", 0, -120, 120, "the king castled"},
    {DEVELOPMENT_KING + 1, "development.king[1]", -5, -120, 120, "the king in the centre, able to castle"},
    {DEVELOPMENT_KING + 2, "development.king[2]", -25, -120, 120,
     "the king elsewhere on the back rank (unable to castle)"},
    {DEVELOPMENT_KING + 3, "development.king[3]", -15, -120, 120, "the king off the back rank"},
    {DEVELOPMENT_PERCENT + 0, "development.percent[0]", 100, 0, 400,
     "development counts this percent up to move development.until[0]"},
    {DEVELOPMENT_PERCENT + 1, "development.percent[1]", 50, 0, 400, "... then up to move development.until[1]"},
    {DEVELOPMENT_PERCENT + 2, "development.percent[2]", 25, 0, 400, "... then"},
    {DEVELOPMENT_UNTIL + 0, "development.until[0]", 10, 0, 500, "the root's move number of the first step"},
    {DEVELOPMENT_UNTIL + 1, "development.until[1]", 20, 0, 500, "the root's move number of the second step"},
    // SIGNATURE (20-bit signed), JOINT_SIGNATURE (8-bit signed, white's view).
    {SIGNATURE_QUEEN_KNIGHT, "signature.queen_knight", 8, -1000, 1000, "queen and knight without bishops"},
    {JOINT_SIGNATURE_ROOK_VS_MINORS, "joint_signature.rook_vs_minors", 5, -127, 127,
     "a rook against minor pieces only"},
    // BISHOPS (11-bit signed), the block tables (5-, 4-, 5-bit penalties).
    {BISHOPS_LONG_DIAGONAL, "bishops.long_diagonal", 5, -200, 200, "a diagonal 7 or 8 squares long"},
    {BISHOPS_MOBILE, "bishops.mobile", 8, -200, 200, "mobility 4 or more on the diagonal"},
    {BISHOPS_OWN_PAWN, "bishops.own_pawn", 3, -200, 200, "an own pawn on the diagonal: less"},
    {BISHOPS_KING, "bishops.king", 10, -200, 200, "the diagonal meets the enemy king or its squares"},
    {SELF_BLOCK_BASE, "self_block.base", 4, 0, 31, "own pawn on the bishop's colour: penalty"},
    {SELF_BLOCK_BLOCKED, "self_block.blocked", 6, 0, 31, "... blocked by an enemy pawn: more"},
    {SELF_BLOCK_ADVANCED, "self_block.advanced", 2, 0, 31, "... rank class 2 or more: more"},
    {SELF_BLOCK_CENTRE, "self_block.centre", 3, 0, 31, "... on files c-f: more"},
    {SELF_BLOCK_TWO_BISHOPS, "self_block.two_bishops", 2, 0, 31, "... with two bishops: less"},
    {OPP_BLOCK_BASE, "opp_block.base", 2, 0, 15, "enemy pawn on the bishop's colour: penalty"},
    {OPP_BLOCK_PROTECTED, "opp_block.protected", 4, 0, 15, "... protected by a pawn: more"},
    {OPP_BLOCK_BLOCKED, "opp_block.blocked", 3, 0, 15, "... blocked by an own pawn: more"},
    {BACK_BLOCK_REAR, "back_block.rear", 3, 0, 31, "doubled pawns, the rear one on the bishop's colour"},
    {BACK_BLOCK_FRONT, "back_block.front", 3, 0, 31, "doubled pawns, the front one on the bishop's colour"},
    {BACK_BLOCK_TRIPLED, "back_block.tripled", 4, 0, 31, "tripled pawns"},
    // MINOR_ON_WEAK (12-bit signed).
    {MINOR_ON_WEAK_KNIGHT + 0, "minor_on_weak.knight[0]", 10, -500, 500, "knight outpost, rank class 0"},
    {MINOR_ON_WEAK_KNIGHT + 1, "minor_on_weak.knight[1]", 18, -500, 500, "knight outpost, rank class 1"},
    {MINOR_ON_WEAK_KNIGHT + 2, "minor_on_weak.knight[2]", 25, -500, 500, "knight outpost, rank class 2"},
    {MINOR_ON_WEAK_KNIGHT + 3, "minor_on_weak.knight[3]", 20, -500, 500, "knight outpost, rank class 3"},
    {MINOR_ON_WEAK_CENTRE, "minor_on_weak.centre", 3, -100, 100, "outpost, per step of centrality"},
    {MINOR_ON_WEAK_BISHOP_PERCENT, "minor_on_weak.bishop_percent", 50, 0, 400, "a bishop: percent of a knight"},
    {MINOR_ON_WEAK_SUPPORTED_PERCENT, "minor_on_weak.supported_percent", 50, -100, 400,
     "supported by a pawn: percent more"},
    {MINOR_ON_WEAK_CHALLENGE_PERCENT + 0, "minor_on_weak.challenge_percent[0]", 100, 0, 400,
     "no enemy minor can challenge: percent"},
    {MINOR_ON_WEAK_CHALLENGE_PERCENT + 1, "minor_on_weak.challenge_percent[1]", 75, 0, 400,
     "an enemy knight can challenge: percent"},
    {MINOR_ON_WEAK_CHALLENGE_PERCENT + 2, "minor_on_weak.challenge_percent[2]", 60, 0, 400,
     "an enemy bishop can challenge: percent"},
    // TRAPPED_BISHOP (8-bit penalties).
    {TRAPPED_BISHOP_CORNER, "trapped_bishop.corner", 80, 0, 255, "bishop on a7/h7/b8/g8 with the trapping pawn"},
    {TRAPPED_BISHOP_SIDE, "trapped_bishop.side", 40, 0, 255, "bishop on a6/h6 with the trapping pawn"},
    {TRAPPED_BISHOP_DEFENDED, "trapped_bishop.defended", 30, 0, 255, "... the pawn defended by a pawn: more"},
    {TRAPPED_BISHOP_NO_ESCAPE, "trapped_bishop.no_escape", 30, 0, 255, "... the escape square unavailable: more"},
    // PINNED (8-bit).
    {PINNED_BASE + 0, "pinned.base[0]", 5, 0, 255, "pinning a pawn"},
    {PINNED_BASE + 1, "pinned.base[1]", 12, 0, 255, "pinning a knight"},
    {PINNED_BASE + 2, "pinned.base[2]", 12, 0, 255, "pinning a bishop"},
    {PINNED_BASE + 3, "pinned.base[3]", 16, 0, 255, "pinning a rook"},
    {PINNED_BASE + 4, "pinned.base[4]", 24, 0, 255, "pinning a queen"},
    {PINNED_KING_PERCENT, "pinned.king_percent", 200, 0, 800, "pinned against the king: percent"},
    {PINNED_QUEEN_PINNER_PERCENT, "pinned.queen_pinner_percent", 75, 0, 400, "pinned by a queen: percent"},
    {PINNED_PRESSURE_PERCENT, "pinned.pressure_percent", 50, 0, 400, "per pressure step: percent more"},
    // Registers.
    {REG_ROOK7 + 0, "regs.rook7[0]", 20, 0, 255, "a rook on the seventh, regular"},
    {REG_ROOK7 + 1, "regs.rook7[1]", 40, 0, 255, "a rook on the seventh, absolute, the king trapped"},
    {REG_ROOK7 + 2, "regs.rook7[2]", 25, 0, 255, "a rook on the seventh, absolute, not trapped"},
    {REG_ROOK7 + 3, "regs.rook7[3]", 40, 0, 255, "doubled rooks on the seventh, regular"},
    {REG_ROOK7 + 4, "regs.rook7[4]", 80, 0, 255, "doubled rooks on the seventh, absolute, the king trapped"},
    {REG_ROOK7 + 5, "regs.rook7[5]", 50, 0, 255, "doubled rooks on the seventh, absolute, not trapped"},
    {REG_HUNG_ON_MOVE, "regs.hung.on_move", 40, 0, 127, "an enemy man hangs and we are on move"},
    {REG_HUNG_OFF_MOVE, "regs.hung.off_move", 10, 0, 127, "an enemy man hangs and the enemy is on move"},
    {REG_BISHOP_PAIR, "regs.bishop_pair", 30, 0, 127, "two bishops"},
    {REG_SIDE_TO_MOVE, "regs.side_to_move", 8, 0, 15, "the side to move"},
    {REG_XRAY, "regs.xray", 8, 0, 63, "two sliders on a line, nothing between them"},
    {REG_KNIGHT_TRAP + 0, "regs.knight_trap[0]", 120, 0, 255, "a knight trapped on a8/h8"},
    {REG_KNIGHT_TRAP + 1, "regs.knight_trap[1]", 80, 0, 255, "a knight trapped on a7/h7/b8/g8"},
    {REG_KNIGHT_TRAP + 2, "regs.knight_trap[2]", 50, 0, 255, "a knight trapped on a5/a6/h5/h6/c8-f8"},
    {REG_ROOK_TRAP + 0, "regs.rook_trap[0]", 40, 0, 255, "a rook trapped by its king on the king side"},
    {REG_ROOK_TRAP + 1, "regs.rook_trap[1]", 40, 0, 255, "a rook trapped by its king on the queen side"},
    {REG_ROOK_TRAP + 2, "regs.rook_trap[2]", 80, 0, 255, "a rook with no safe move, attacked"},
    {REG_ROOK_TRAP + 3, "regs.rook_trap[3]", 60, 0, 255, "a rook with no safe move on relative ranks 6-8"},
    {REG_QUEEN_TRAP, "regs.queen_trap", 150, 0, 255, "a queen attacked with no safe move"},
    {REG_MPIN_HUNG, "regs.mpin_hung", 30, 0, 127, "a pin against a piece of the pinner's class under pressure"},
    {REG_PINNED_SIMPLE_HUNG, "regs.pinned_simple_hung", 40, 0, 255, "a pinned piece undefended"},
    {REG_PINNED_HUNG, "regs.pinned_hung", 25, 0, 127, "a pinned piece defended but attacked too much"},
    {REG_PERM_PIN_SIMPLE_HUNG, "regs.perm_pin_simple_hung", 60, 0, 255, "a piece pinned against the king undefended"},
    // The pawn family: PAWN_STRUCTURE (16-bit signed static and endgame).
    {PAWN_STRUCTURE_STATIC + 0, "pawn_structure.static[0]", -20, -2000, 2000, "rearmost pawn isolated"},
    {PAWN_STRUCTURE_STATIC + 1, "pawn_structure.static[1]", 8, -2000, 2000, "rearmost pawn in a duo"},
    {PAWN_STRUCTURE_STATIC + 2, "pawn_structure.static[2]", 6, -2000, 2000, "rearmost pawn supported"},
    {PAWN_STRUCTURE_STATIC + 3, "pawn_structure.static[3]", -15, -2000, 2000, "rearmost pawn backward"},
    {PAWN_STRUCTURE_STATIC + 4, "pawn_structure.static[4]", -4, -2000, 2000, "rearmost pawn unsupported"},
    {PAWN_STRUCTURE_ENDGAME + 0, "pawn_structure.endgame[0]", -12, -2000, 2000, "isolated, x pawn scale / 16"},
    {PAWN_STRUCTURE_ENDGAME + 1, "pawn_structure.endgame[1]", 4, -2000, 2000, "duo, x pawn scale / 16"},
    {PAWN_STRUCTURE_ENDGAME + 2, "pawn_structure.endgame[2]", 6, -2000, 2000, "supported, x pawn scale / 16"},
    {PAWN_STRUCTURE_ENDGAME + 3, "pawn_structure.endgame[3]", -10, -2000, 2000, "backward, x pawn scale / 16"},
    {PAWN_STRUCTURE_ENDGAME + 4, "pawn_structure.endgame[4]", -2, -2000, 2000, "unsupported, x pawn scale / 16"},
    {PAWN_STRUCTURE_HALF_OPEN_STATIC, "pawn_structure.half_open_static", 8, -500, 500,
     "a weak pawn on a half-open file: less (static)"},
    {PAWN_STRUCTURE_HALF_OPEN_ENDGAME, "pawn_structure.half_open_endgame", 4, -500, 500,
     "a weak pawn on a half-open file: less (endgame)"},
    {PAWN_STRUCTURE_WEAK_CENTRE, "pawn_structure.weak_centre", 4, -500, 500, "a weak pawn on files c-f: less"},
    {PAWN_STRUCTURE_ADVANCE_STATIC, "pawn_structure.advance_static", 2, -500, 500,
     "a duo or supported pawn, per rank class (static)"},
    {PAWN_STRUCTURE_ADVANCE_ENDGAME, "pawn_structure.advance_endgame", 3, -500, 500,
     "a duo or supported pawn, per rank class (endgame)"},
    // PAWN_SHELTER, PAWN_STORM (14-bit signed; storm factor 4 bits, quarters).
    {SHELTER_DISTANCE + 0, "shelter.distance[0]", -24, -2000, 2000, "no own pawn in front of the king on the file"},
    {SHELTER_DISTANCE + 1, "shelter.distance[1]", 14, -2000, 2000, "the nearest own pawn 1 rank ahead"},
    {SHELTER_DISTANCE + 2, "shelter.distance[2]", 9, -2000, 2000, "the nearest own pawn 2 ranks ahead"},
    {SHELTER_DISTANCE + 3, "shelter.distance[3]", 3, -2000, 2000, "the nearest own pawn 3 ranks ahead"},
    {SHELTER_DISTANCE + 4, "shelter.distance[4]", 0, -2000, 2000, "the nearest own pawn 4 ranks ahead"},
    {SHELTER_DISTANCE + 5, "shelter.distance[5]", 0, -2000, 2000, "the nearest own pawn 5 ranks ahead"},
    {SHELTER_DISTANCE + 6, "shelter.distance[6]", 0, -2000, 2000, "the nearest own pawn 6 ranks ahead"},
    {SHELTER_DISTANCE + 7, "shelter.distance[7]", 0, -2000, 2000, "the nearest own pawn 7 ranks ahead"},
    {SHELTER_DEFENDED, "shelter.defended", 2, -500, 500, "the shelter pawn defended by a pawn: more"},
    {SHELTER_KING_FILE_PERCENT, "shelter.king_file_percent", 150, 0, 400, "on the king's own file: percent"},
    {SHELTER_OFF_BACK_PERCENT, "shelter.off_back_percent", 75, 0, 400, "the king off its back rank: percent"},
    {STORM_DISTANCE + 0, "storm.distance[0]", 0, -2000, 2000, "no enemy pawn in front of the king on the file"},
    {STORM_DISTANCE + 1, "storm.distance[1]", -4, -2000, 2000, "the nearest enemy pawn 1 rank ahead"},
    {STORM_DISTANCE + 2, "storm.distance[2]", -16, -2000, 2000, "the nearest enemy pawn 2 ranks ahead"},
    {STORM_DISTANCE + 3, "storm.distance[3]", -10, -2000, 2000, "the nearest enemy pawn 3 ranks ahead"},
    {STORM_DISTANCE + 4, "storm.distance[4]", -5, -2000, 2000, "the nearest enemy pawn 4 ranks ahead"},
    {STORM_DISTANCE + 5, "storm.distance[5]", -2, -2000, 2000, "the nearest enemy pawn 5 ranks ahead"},
    {STORM_DISTANCE + 6, "storm.distance[6]", 0, -2000, 2000, "the nearest enemy pawn 6 ranks ahead"},
    {STORM_DISTANCE + 7, "storm.distance[7]", 0, -2000, 2000, "the nearest enemy pawn 7 ranks ahead"},
    {STORM_BLOCKED_PERCENT, "storm.blocked_percent", 50, 0, 400, "the storming pawn blocked by ours: percent"},
    {STORM_OPPOSITE_WINGS, "storm.opposite_wings", 6, 0, 15, "kings on opposite wings: storm x this / 4"},
    // Pawn registers.
    {REG_WASTED_PAWNS, "regs.wasted_pawns", 12, 0, 63, "a wing's majority that cannot make a passed pawn"},
    {REG_SEPARATED_PASSED, "regs.separated_passed", 20, 0, 255, "passed pawns three or more files apart"},
    {REG_MISSING_WING, "regs.missing_wing", 40, 0, 1023, "ahead in material with every pawn on one wing"},
    {REG_ROOK_BEHIND_PASSED, "regs.rook_behind_passed", 15, 0, 511, "a rook behind an own passed pawn"},
    {REG_BOC + 0, "regs.boc[0]", 30, 0, 63, "opposite-colour bishops, pure: per pawn of advantage less"},
    {REG_BOC + 1, "regs.boc[1]", 10, 0, 63, "opposite-colour bishops with rooks or queens: per pawn less"},
    // The fast evaluation's pawn race.
    {RACE_RUNNER_BONUS, "race.runner_bonus", 600, 0, 4000, "winning the pawn race (RUNNER_BONUS)"},
    {RACE_SEP_BONUS, "race.sep_bonus", 150, 0, 4000, "widely separated passed pawns against a lone king (SEP_BONUS)"},
};

constexpr int kInfoCount = int(sizeof(kInfo) / sizeof(kInfo[0]));
static_assert(kInfoCount == COUNT, "one row per parameter");

constexpr bool rows_in_order() {
  for (int i = 0; i < kInfoCount; ++i) {
    if (kInfo[i].id != i || kInfo[i].hand < kInfo[i].min || kInfo[i].hand > kInfo[i].max) return false;
  }
  return true;
}
static_assert(rows_in_order(), "rows in the order of gp::Id, hand values in range");

struct Names {
  std::vector<std::string> name, description;
  Names() {
    for (const Info& i : kInfo) {
      name.emplace_back(i.name);
      description.emplace_back(i.description);
    }
  }
};
const Names& names() {
  static const Names n;
  return n;
}

void check_index(int index) {
  if (index < 0 || index >= COUNT) {
    throw std::out_of_range("generator parameter index " + std::to_string(index) + " is not in 0.." +
                            std::to_string(COUNT - 1));
  }
}

std::string range_text(int index) {
  return "[" + std::to_string(kInfo[index].min) + ", " + std::to_string(kInfo[index].max) + "]";
}

}  // namespace

GeneratorParams::GeneratorParams() {
  values_.reserve(COUNT);
  for (const Info& i : kInfo) values_.push_back(i.hand);
}

const GeneratorParams& GeneratorParams::hand() {
  static const GeneratorParams p;
  return p;
}

const GeneratorParams& GeneratorParams::defaults() {
  static const GeneratorParams p = [] {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(kTunedParamsJson);
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(std::string("host/chip/tuned_params.json (embedded): not JSON: ") + e.what());
    }
    return apply_json(hand(), j, "host/chip/tuned_params.json (embedded)");
  }();
  return p;
}

const std::string& GeneratorParams::name(int index) {
  check_index(index);
  return names().name[index];
}
int GeneratorParams::min(int index) {
  check_index(index);
  return kInfo[index].min;
}
int GeneratorParams::max(int index) {
  check_index(index);
  return kInfo[index].max;
}
int GeneratorParams::hand_value(int index) {
  check_index(index);
  return kInfo[index].hand;
}
const std::string& GeneratorParams::description(int index) {
  check_index(index);
  return names().description[index];
}

int GeneratorParams::find(std::string_view name) {
  for (int i = 0; i < COUNT; ++i) {
    if (name == kInfo[i].name) return i;
  }
  return -1;
}

int GeneratorParams::get(int index) const {
  check_index(index);
  return values_[index];
}

int GeneratorParams::operator[](std::string_view name) const {
  const int i = find(name);
  if (i < 0) throw std::invalid_argument("unknown generator parameter '" + std::string(name) + "'");
  return values_[i];
}

void GeneratorParams::set(int index, int value) {
  check_index(index);
  if (value < kInfo[index].min || value > kInfo[index].max) {
    throw std::invalid_argument("generator parameter " + std::string(kInfo[index].name) + " = " +
                                std::to_string(value) + " is outside its range " + range_text(index));
  }
  values_[index] = value;
}

nlohmann::json GeneratorParams::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (int i = 0; i < COUNT; ++i) j[kInfo[i].name] = values_[i];
  return j;
}

GeneratorParams GeneratorParams::apply_json(const GeneratorParams& base, const nlohmann::json& j,
                                            const std::string& where) {
  const std::string prefix = where.empty() ? "" : where + ": ";
  if (!j.is_object()) {
    throw std::invalid_argument(prefix + "generator parameters must be a JSON object {\"name\": value, ...}");
  }
  GeneratorParams p = base;
  for (const auto& [key, value] : j.items()) {
    const int i = find(key);
    if (i < 0) throw std::invalid_argument(prefix + "unknown generator parameter '" + key + "'");
    // nlohmann keeps non-negative integers as unsigned: a huge one must not wrap into the range.
    const bool huge = value.is_number_unsigned() && value.get<std::uint64_t>() > 0x7FFFFFFFu;
    const bool in_range = value.is_number_integer() && !huge && value.get<std::int64_t>() >= kInfo[i].min &&
                          value.get<std::int64_t>() <= kInfo[i].max;
    if (!in_range) {
      throw std::invalid_argument(prefix + "generator parameter " + key + " = " + value.dump() +
                                  (value.is_number_integer() ? " is outside its range " : " is not an integer in ") +
                                  range_text(i));
    }
    p.values_[i] = int(value.get<std::int64_t>());
  }
  return p;
}

GeneratorParams GeneratorParams::from_json(const nlohmann::json& j) { return apply_json(defaults(), j, ""); }

GeneratorParams GeneratorParams::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("generator parameters file '" + path + "' cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::invalid_argument("generator parameters file '" + path + "' cannot be read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("generator parameters file '" + path + "': not JSON: " + e.what());
  }
  return apply_json(defaults(), j, "generator parameters file '" + path + "'");
}

std::shared_ptr<const GeneratorParams> GeneratorParams::from_spec(const std::string& spec) {
  if (spec.empty() || spec == "default") return nullptr;
  if (spec == "hand") return std::make_shared<const GeneratorParams>(hand());
  return std::make_shared<const GeneratorParams>(from_file(spec));
}

}  // namespace db::chip
