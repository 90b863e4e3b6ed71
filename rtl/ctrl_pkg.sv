// The chip controller's shared types: the phases of a root search, the position
// registers, the move stack's entries, what the placement sum needs of a move being made, and the
// move-word helpers more than one controller block uses. The model's twin is
// host/chip/model/ctrl_pkg.h, with the same names.
package ctrl_pkg;

  // The controller's states are chip_pkg::ctrl_state_e (generated from rtl/regmap.json).

  // Offset searches at the root (OFFSET_CTRL): the search, the offset searches of the
  // alternatives, the extended search of the fail-high move.
  typedef enum logic [1:0] {
    PH_MAIN   = 2'd0,
    PH_OFFSET = 2'd1,
    PH_EXTEND = 2'd2
  } phase_e;

  // The position registers besides the board (the array holds the board).
  typedef struct packed {
    logic        stm;       // side to move: 0 white, 1 black
    logic [3:0]  castling;  // 1 white O-O, 2 white O-O-O, 4 black O-O, 8 black O-O-O
    logic        ep_valid;
    logic [5:0]  ep_sq;
    logic [15:0] half;      // half-move clock
    logic [15:0] full;      // full-move number
  } pos_t;

  // A move stack entry: what unmake needs (the move word itself is stored apart: the generator
  // writes it alone when it starts a ply).
  typedef struct packed {
    logic [3:0]  cap;   // the captured piece (0: none)
    logic [3:0]  cast;  // castling rights before the move
    logic [6:0]  ep;    // {valid, square} before the move
    logic [15:0] half;  // half-move clock before the move
    logic [1:0]  flag;  // {castle, en passant}
    logic [15:0] pst;   // placement sum before the move
    logic [7:0]  qc;    // quiescence checks played before the move
    logic        chk;   // the side to move was in check before the move (chip_ctrl's node_chk_q)
    // The game phase registers before the move (eval_phase's piece counts and locations): an
    // unmake restores them instead of sending MAKE's events reversed, so that the search's
    // decision to unmake selects them instead of running through the events' arithmetic into
    // everything computed from the next counts (the phase RAM's and KPK ROM's addresses, the
    // endgame rules, the king-and-pawn array; issue 22: logic depth).
    logic [39:0] counts;
    logic [71:0] locs;
  } stk_entry_t;

  // What the placement sum needs of the move being made (ctrl_make to ctrl_eval).
  typedef struct packed {
    logic [3:0] pc;      // the moving piece
    logic [3:0] new_pc;  // the piece on the target square after the move (a promotion changes it)
    logic [3:0] cap;     // the captured piece (0: none)
    logic [5:0] from;
    logic [5:0] to;
    logic [5:0] capsq;   // the captured piece's square (differs from `to` en passant)
    logic       castle;
    logic       kside;   // a castling move is O-O
  } mk_view_t;

  // The state a search decision goes to (a package's struct cannot hold another package's enum
  // in Yosys 0.23: chip_ctrl maps these to chip_pkg::ctrl_state_e).
  typedef enum logic [2:0] {
    NEXT_HOLD   = 3'd0,  // stay in the state of this clock
    NEXT_GEN    = 3'd1,
    NEXT_UNMAKE = 3'd2,
    NEXT_SEVAL  = 3'd3,
    NEXT_IDLE   = 3'd4
  } next_e;

  // What the search decides about this clock (ctrl_search to chip_ctrl): while `go` is set, the
  // state machine takes its next state, ply, unmake, stack write, node count, done and slow
  // evaluation start from here.
  typedef struct packed {
    logic       go;
    next_e      next;        // the next state
    logic       ply_up;      // descend: p + 1
    logic       ply_down;    // back up: p - 1
    logic       undo;        // unmake the move at p this clock
    logic       move_we;     // the stack's move at move_waddr starts over (0: the ply's first move)
    logic [4:0] move_waddr;
    logic       count;       // a node was searched
    logic       done;        // the search finished
    logic       se_start;    // a stand pat needs the slow evaluation
  } search_step_t;

  // What a host command's start sets in the clock its CMD write lands in (ctrl_cmd).
  typedef struct packed {
    logic                  go;            // the command runs: the next state is ctrl_cmd's state_o
    logic                  done;          // finished in this clock
    logic                  err;
    logic [7:0]            err_code;
    logic [5:0]            ply;           // the ply the command starts at
    logic                  clear;         // CLEAR: the chip's state and the host's moves
    logic                  ph_clear;      // EVAL_INIT: the game phase registers
    logic                  se_start;      // the slow evaluation starts
    logic                  move_invalid;  // GEN: no generated move yet
    logic                  count_clear;   // PERFT, SEARCH: the node count starts at 0
    logic                  stk_we;        // the stack's move at the root ply is written ...
    logic [15:0]           stk_wdata;     // ... with this
  } cmd_start_t;

  // Castling rights lost when a piece leaves or lands on a square.
  function automatic logic [3:0] castle_mask(input logic [5:0] sq);
    unique case (sq)
      6'd0:    castle_mask = 4'b0010;
      6'd4:    castle_mask = 4'b0011;
      6'd7:    castle_mask = 4'b0001;
      6'd56:   castle_mask = 4'b1000;
      6'd60:   castle_mask = 4'b1100;
      6'd63:   castle_mask = 4'b0100;
      default: castle_mask = 4'b0000;
    endcase
  endfunction

  // A move word's promotion index to the piece type: queen, rook, bishop, knight.
  function automatic logic [2:0] promo_type(input logic [1:0] idx);
    unique case (idx)
      2'd0:    promo_type = 3'd5;
      2'd1:    promo_type = 3'd4;
      2'd2:    promo_type = 3'd3;
      default: promo_type = 3'd2;
    endcase
  endfunction

  // The board bus is four bit planes: bit b of the piece code of square s at [b*64 + s]. The piece
  // code and the type of one square.
  function automatic logic [3:0] board_pc(input logic [255:0] board, input logic [5:0] sq);
    board_pc = {board[{2'd3, sq}], board[{2'd2, sq}], board[{2'd1, sq}], board[{2'd0, sq}]};
  endfunction
  function automatic logic [2:0] board_type(input logic [255:0] board, input logic [5:0] sq);
    board_type = {board[{2'd2, sq}], board[{2'd1, sq}], board[{2'd0, sq}]};
  endfunction

  // The rank a pawn of the side promotes on.
  function automatic logic is_last_rank(input logic [2:0] rank, input logic side);
    is_last_rank = rank == (side ? 3'd0 : 3'd7);
  endfunction

  // A pawn moving to its last rank promotes.
  function automatic logic is_promotion(input logic [2:0] ptype, input logic [2:0] to_rank, input logic side);
    is_promotion = (ptype == 3'd1) && is_last_rank(to_rank, side);
  endfunction

  // Placement table index of a piece on a square: {type, square relative to its owner}.
  function automatic logic [8:0] pst_index(input logic [3:0] pc, input logic [5:0] sq);
    pst_index = {pc[2:0], sq ^ (pc[3] ? 6'd56 : 6'd0)};
  endfunction

  // Scores are (score, tie-breaker) pairs compared lexicographically (AIJ 4.3). Even plies test
  // "value >= (V, Vtb)", odd plies "value > (-V, -Vtb)" (18 bits: no overflow).
  function automatic logic succeeds(input logic signed [17:0] s, input logic signed [17:0] tb,
                                    input logic signed [17:0] v, input logic signed [17:0] vtb,
                                    input logic odd);
    if (odd) succeeds = (s > -v) || (s == -v && tb > -vtb);
    else     succeeds = (s > v) || (s == v && tb >= vtb);
  endfunction

  // How many bits of x are set, saturated at 3 (RTL only: the model counts with std::popcount):
  // a tree of 2-bit saturating sums, six levels of small gates. The usual x & (x - 1), which clears
  // the lowest bit, is a 64-bit subtraction: a carry chain of 32 cells on an ECP5, and the chip's
  // longest path ran through one (issue 22, logic depth). Written on whole words (each group's
  // count in two bit planes at the group's lowest bit) so that a simulator does a few word
  // operations a level, not one per pair.
  function automatic logic [1:0] count_upto3(input logic [63:0] x);
    // Level l's groups start at the bits of GroupLow[l*64 +: 64].
    localparam logic [383:0] GroupLow = {64'h0000_0000_0000_0001, 64'h0000_0001_0000_0001,
                                         64'h0001_0001_0001_0001, 64'h0101_0101_0101_0101,
                                         64'h1111_1111_1111_1111, 64'h5555_5555_5555_5555};
    logic [63:0] lo, hi, alo, ahi, blo, bhi, low;
    lo = x;
    hi = '0;
    for (int l = 0; l < 6; l++) begin
      // Group pairs (a, b), a at the bits of low and b 2^l bits above: a + b, saturated.
      low = GroupLow[l*64 +: 64];
      alo = lo & low;
      ahi = hi & low;
      blo = (lo >> (1 << l)) & low;
      bhi = (hi >> (1 << l)) & low;
      lo  = (ahi & (alo | bhi | blo)) | (bhi & (blo | alo)) | (~ahi & ~bhi & (alo ^ blo));
      hi  = ahi | bhi | (alo & blo);
    end
    count_upto3 = {hi[0], lo[0]};
  endfunction
  // The target keys' ring bits (a victim's distance from the edge: {RING1, RING0} = 3 nearest the
  // centre), fixed for a square and the same for both sides (symmetric about the middle ranks):
  // the move generator's target keys and its target arbiter's fixed order of the squares.
  localparam logic [63:0] TgtRing0 = 64'h007E_425A_5A42_7E00;
  localparam logic [63:0] TgtRing1 = 64'h0000_3C3C_3C3C_0000;

endpackage
