// The 8x8 move-generator array (IEEE Micro, "Move generator"): the 64 cells' piece registers and
// the per-square logic of the networks that run across the array (find-victim transmitters and
// receivers, the find-attacker "super piece" from the target square, the cells' bids and keys),
// the fixed knight/king/pawn wiring, castling conditions, and the two arbiters. The per-square
// logic is written a whole board at a time: the same gates square by square (each ray segment is
// "a source here, or the ray arriving here on an empty square", chained in the order the ray
// travels), in a form a simulator evaluates a word at a time, and in procedural blocks that the
// controller's states enable (the find-victim rays are needed in every clock).
//
// All outputs are combinational functions of the board registers, the ray maps' registers (the
// current board's maps in every clock, see "the ray maps") and the inputs, so the controller
// gets, in one clock: the best next target (victim) square, the best attacker of the
// selected target square, check and legality flags, the hung-piece map and the pinned-piece map.
module mg_array (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Board writes (up to four squares per clock), or clear the whole board.
  input  logic        clear_i,
  input  logic [3:0]  wr_en_i,
  input  logic [23:0] wr_sq_i,
  input  logic [15:0] wr_pc_i,
  output logic [255:0] board_o,      // bit b of square s's piece at [b*64 + s] (four bit planes)
  // The board after this clock's writes, the late undo left out (eval_slow's maps; see below).
  output logic [255:0] board_fwd_o,
  // MAKE keeps the board and its ray maps (save_i); the undo of that move the search decides late
  // (TEST's, the slow evaluation's last clock) brings them back (restore_i) instead of writing
  // the move's squares back: see "the ray maps" below.
  input  logic        save_i,
  input  logic        restore_i,
  // Position state kept by the controller.
  input  logic        stm_i,
  input  logic [3:0]  castling_i,
  input  logic        ep_valid_i,
  input  logic [5:0]  ep_sq_i,
  // The controller's states that read the target side and the attacker side (see below).
  input  logic        tgt_en_i,
  input  logic        att_en_i,
  // Find-victim: mode mask and "strictly after the target of the last move".
  input  logic        tgt_capt_only_i,
  // The checks filter (GEN's CHECKS mode, a quiescence node's checks): the targets and attackers
  // of non-captures that may give check, captures as they are.
  input  logic        chk_only_i,
  input  logic        tgt_mask_en_i,
  input  logic [5:0]  tgt_last_sq_i,
  output logic        tgt_found_o,
  output logic [5:0]  tgt_sq_o,
  output logic [63:0] tgt_cand_o,
  // Find-attacker on square tsel: "strictly after the attacker of the last move".
  input  logic [5:0]  tsel_sq_i,
  input  logic        att_mask_en_i,
  input  logic [5:0]  att_last_sq_i,
  output logic        att_found_o,
  output logic [5:0]  att_sq_o,
  output logic        att_pawn_o,    // the attacker found is a pawn (its order, from the arbiter)
  output logic [63:0] att_cand_o,
  // The piece on tsel attacks a non-king piece of the side to move (attacking-move test).
  output logic        tsel_attacks_o,
  // Status.
  output logic        in_check_o,       // the side to move's king is attacked
  output logic        king_capture_o,   // the side to move can capture the other king (illegal)
  output logic [63:0] hung_o,         // the side to move's men attacked and not defended
  output logic        opp_hung_o,     // the other side has such a man
  output logic [63:0] pinned_o,       // the side to move's men pinned to their own king (absolute pins)
  // The side to move's king ring and its escape squares (not own men, not attacked; like the
  // attack maps they do not look through the king): none, or exactly one.
  output logic [63:0] king_ring_o,
  output logic        esc_none_o,
  output logic        esc_one_o
);
  // The cells' piece registers, 4 bits a square, stored as four bit planes (plane b: bit b of each
  // square's piece code, square s at [b*64 + s]). The write decode sits in the next value's write
  // branch: the four slots are decoded only in clocks that write (the last slot that names a square
  // wins; CLEAR wins over all). The next value is an output too: the king-and-pawn array computes
  // from it and registers its result, so the board's clock-to-output does not start that path. Each slot's square is decoded into a one-hot mask and every square
  // takes its slot's bit: an index written as board[{b, square}] made Yosys build the decode with
  // a carry chain on the chip's longest path (issue 22, logic depth).
  // TEST's undo does not come through the write ports: it is the search's decision, late in its
  // clock, and the board it restores is the one MAKE found (parent_board_q). So the writes here
  // (board_fwd) come from registers only (MAKE's move, UNMAKE's stack entry, the host), and the
  // ray maps below are computed from board_fwd without waiting for the decision.
  logic [255:0] board, board_d, board_fwd, parent_board_q;
  localparam int MapBits = 512;
  logic [MapBits-1:0] maps_q, parent_maps_q;  // the ray maps, below
  always_comb begin
    logic [63:0] hit;
    hit       = '0;
    board_fwd = board;
    if (clear_i) begin
      board_fwd = '0;
    end else if (wr_en_i != 4'd0) begin
      for (int k = 0; k < 4; k++) begin
        hit = wr_en_i[k] ? 64'd1 << wr_sq_i[k*6 +: 6] : 64'd0;
        for (int b = 0; b < 4; b++) board_fwd[b*64 +: 64] = (board_fwd[b*64 +: 64] & ~hit) | (hit & {64{wr_pc_i[k*4 + b]}});
      end
    end
    board_d = restore_i ? parent_board_q : board_fwd;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      board  <= '0;
      maps_q <= '0;  // the empty board's
    end else begin
      board  <= board_d;
      // The next maps are formed here, in the clocked block, rather than by an assign: a simulator
      // then computes them once a clock, not each time the host bus's inputs (which reach
      // board_fwd through a host board write) change (the verilated chip's speed, issue 20).
      maps_q <= restore_i ? parent_maps_q : ray_maps(board_fwd);
    end
  end
  always_ff @(posedge clk_i) begin  // written by every MAKE before its TEST reads it: no reset
    if (save_i) begin
      parent_board_q <= board;
      parent_maps_q  <= maps_q;
    end
  end
  assign board_o      = board;
  assign board_fwd_o  = board_fwd;

  // Per-square piece classes, from the board's four bit planes (plane b: bit b of each square's
  // piece code).
  logic [63:0] plane [4];
  logic [63:0] empty, black, type6;
  logic [127:0] is_pawn, is_knight, is_king;  // colour c, square s at [c*64 + s]
  always_comb begin
    for (int b = 0; b < 4; b++) plane[b] = board[b*64 +: 64];
  end
  always_comb begin
    logic [63:0] pawn, knight;
    empty  = ~(plane[0] | plane[1] | plane[2]);
    black  = plane[3];
    pawn   = plane[0] & ~plane[1] & ~plane[2];
    knight = ~plane[0] & plane[1] & ~plane[2];
    type6  = ~plane[0] & plane[1] & plane[2];
    is_pawn   = {black & pawn, ~black & pawn};
    is_knight = {black & knight, ~black & knight};
    is_king   = {black & type6, ~black & type6};
  end

  // A shift, not tsel_1h[tsel_sq_i] = 1: Yosys builds a variable bit-select write with a 32-bit
  // subtraction of the index (a carry chain on the generator's longest path; issue 22).
  logic [63:0] tsel_1h;
  assign tsel_1h = 64'd1 << tsel_sq_i;

  // Fixed short-range wiring: knight, king and pawn patterns, pawn pushes. Square s is bit s
  // (a1 = 0); the patterns are shifts of the whole board with the wrapped files masked off (the
  // same wires as a per-square OR of the neighbours, in a form a simulator evaluates a word at a
  // time).
  localparam logic [63:0] FileA = 64'h0101_0101_0101_0101;
  localparam logic [63:0] NotA  = ~FileA;
  localparam logic [63:0] FileH = FileA << 7;
  localparam logic [63:0] NotH  = ~FileH;
  localparam logic [63:0] NotAB = ~(FileA | (FileA << 1));
  localparam logic [63:0] NotGH = ~((FileA << 6) | (FileA << 7));
  localparam logic [63:0] Rank1 = 64'h0000_0000_0000_00FF;
  localparam logic [63:0] Rank2 = 64'h0000_0000_0000_FF00;
  localparam logic [63:0] Rank4 = 64'h0000_0000_FF00_0000;
  localparam logic [63:0] Rank5 = 64'h0000_00FF_0000_0000;
  localparam logic [63:0] Rank7 = 64'h00FF_0000_0000_0000;
  localparam logic [63:0] Rank8 = 64'hFF00_0000_0000_0000;

  // The squares a knight's move away from a square in src.
  function automatic logic [63:0] knight_or(input logic [63:0] src);
    logic [63:0] h1, h2;
    h1 = ((src >> 1) & NotH) | ((src << 1) & NotA);
    h2 = ((src >> 2) & NotGH) | ((src << 2) & NotAB);
    knight_or = (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
  endfunction

  // The squares next to a square in src.
  function automatic logic [63:0] king_or(input logic [63:0] src);
    logic [63:0] side;
    side    = ((src << 1) & NotA) | ((src >> 1) & NotH);
    king_or = side | ((src | side) << 8) | ((src | side) >> 8);
  endfunction

  // up = 1: the squares one rank above, diagonally; up = 0: one rank below.
  function automatic logic [63:0] diag_step_or(input logic [63:0] src, input logic up);
    diag_step_or = up ? (((src >> 9) & NotH) | ((src >> 7) & NotA))
                      : (((src << 7) & NotH) | ((src << 9) & NotA));
  endfunction

  logic [63:0] kn_w, kn_b, kg_w, kg_b, pw_hit_w, pw_hit_b;
  assign kn_w     = knight_or(is_knight[63:0]);
  assign kn_b     = knight_or(is_knight[127:64]);
  assign kg_w     = king_or(is_king[63:0]);
  assign kg_b     = king_or(is_king[127:64]);
  assign pw_hit_w = diag_step_or(is_pawn[63:0], 1'b0);  // a white pawn one rank below attacks
  assign pw_hit_b = diag_step_or(is_pawn[127:64], 1'b1);  // a black pawn one rank above attacks

  logic [63:0] own_pawn, push_tgt, dpush_tgt;
  logic [63:0] kn_reach, kg_reach, pcap_reach, push_reach, dpush_reach;
  assign own_pawn   = stm_i ? is_pawn[127:64] : is_pawn[63:0];
  assign kn_reach   = knight_or(tsel_1h);
  assign kg_reach   = king_or(tsel_1h);
  // A pawn of the side to move here would capture onto the target: target one rank ahead.
  assign pcap_reach = diag_step_or(tsel_1h, !stm_i);
  always_comb begin
    if (!stm_i) begin
      push_tgt    = own_pawn << 8;
      push_reach  = tsel_1h >> 8;
      dpush_tgt   = (own_pawn << 16) & (empty << 8) & Rank4;
      dpush_reach = (tsel_1h >> 16) & (empty >> 8) & Rank2;
    end else begin
      push_tgt    = own_pawn >> 8;
      push_reach  = tsel_1h << 8;
      dpush_tgt   = (own_pawn >> 16) & (empty >> 8) & Rank5;
      dpush_reach = (tsel_1h << 16) & (empty << 8) & Rank7;
    end
  end

  // ---------------------------------------------------------------- the ray networks
  // Direction d = 0..7: N, NE, E, SE, S, SW, W, NW (odd directions are diagonal). A ray segment
  // leaves square s in direction d when s is a source, or when the ray arrives at s (from the
  // neighbour one step back) and s is empty. Written a board at a time: line by line in the order
  // the ray travels (line i + 1 from line i, the same gates as a chain of cells), so that a
  // simulator evaluates a word per line instead of a net per square.

  // The squares one step from the squares in x in direction d (wrapped files masked off).
  function automatic logic [63:0] ray_step(input logic [63:0] x, input int d);
    unique case (d)
      0:       ray_step = x << 8;
      1:       ray_step = (x << 9) & NotA;
      2:       ray_step = (x << 1) & NotA;
      3:       ray_step = (x >> 7) & NotA;
      4:       ray_step = x >> 8;
      5:       ray_step = (x >> 9) & NotH;
      6:       ray_step = (x >> 1) & NotH;
      default: ray_step = (x << 7) & NotH;
    endcase
  endfunction

  // The squares i steps from the edge a ray in direction d starts at.
  function automatic logic [63:0] ray_line(input int d, input int i);
    unique case (d)
      0, 1, 7: ray_line = Rank1 << (8 * i);
      3, 4, 5: ray_line = Rank8 >> (8 * i);
      2:       ray_line = FileA << i;
      default: ray_line = FileH >> i;
    endcase
  endfunction

  // The ray segments leaving each square in direction d, from the sources in src through the
  // squares in pass.
  function automatic logic [63:0] ray_out(input logic [63:0] src, input logic [63:0] pass, input int d);
    logic [63:0] r;
    r = src;
    for (int i = 0; i < 7; i++) r = r | (pass & ray_step(r & ray_line(d, i), d));
    ray_out = r;
  endfunction

  // ---------------------------------------------------------------- the ray maps
  // Find-victim transmitters and receivers, one ray per colour c and direction d: the rays arriving
  // at each square (the segment from the neighbour one step back). Sources: the colour's bishops
  // and queens on the diagonals, rooks and queens on the lines. Each king's rays outward through
  // empty squares are the pin detector's (the side to move's king) and the check detector's (the
  // other king). Per colour c, as maps of 64 squares at [k*128 + c*64 +: 64]:
  //   k = 0, slid: a slider of colour c attacks the square;
  //   k = 1, line: the square is on a line between a slider of colour c and the other colour's
  //          king (the first man from each end): a man of the king's side there is pinned, a man
  //          of colour c there would discover check by moving;
  //   k = 2, 3, kdiag, korth: the king of colour c's diagonal and orthogonal rays, the first man
  //          on each included (a piece there sees the king).
  // They are registers (issue 22: the rays in front of the arbiters made the generator's clock
  // the chip's deepest path), computed from the next clock's board without TEST's undo
  // (board_fwd), so in every clock they are the current board's: TEST's undo brings back the maps
  // MAKE kept with the board (parent_maps_q). The model needs no change: every output is the
  // same, clock for clock (the assertion a_ray_maps below checks the registers against the maps
  // of the board itself).
  function automatic logic [MapBits-1:0] ray_maps(input logic [255:0] brd);
    logic [63:0] p0, p1, p2, blk, emp, bq, rq, king, diag_src, orth_src;
    logic [63:0] fw [2][8];
    logic [63:0] kr [2][8];
    logic [MapBits-1:0] m;
    p0   = brd[0 +: 64];
    p1   = brd[64 +: 64];
    p2   = brd[128 +: 64];
    blk  = brd[192 +: 64];
    emp  = ~(p0 | p1 | p2);
    bq   = p0 & ~p2 & p1 | p0 & ~p1 & p2;   // bishops (1,1,0) and queens (1,0,1)
    rq   = ~p1 & p2;                         // rooks (0,0,1) and queens (1,0,1)
    m    = '0;
    for (int c = 0; c < 2; c++) begin
      diag_src = (c == 0 ? ~blk : blk) & bq;
      orth_src = (c == 0 ? ~blk : blk) & rq;
      king     = (c == 0 ? ~blk : blk) & ~p0 & p1 & p2;
      for (int d = 0; d < 8; d++) begin
        fw[c][d] = ray_step(ray_out((d % 2 == 1) ? diag_src : orth_src, emp, d), d);
        kr[c][d] = ray_step(ray_out(king, emp, d), d);
      end
    end
    for (int c = 0; c < 2; c++) begin
      for (int d = 0; d < 8; d++) begin
        m[c*64 +: 64]       = m[c*64 +: 64] | fw[c][d];
        m[128 + c*64 +: 64] = m[128 + c*64 +: 64] | (fw[c][d] & kr[1 - c][(d + 4) % 8]);
        if (d % 2 == 1) m[256 + c*64 +: 64] = m[256 + c*64 +: 64] | kr[c][d];
        else            m[384 + c*64 +: 64] = m[384 + c*64 +: 64] | kr[c][d];
      end
    end
    ray_maps = m;
  endfunction


  logic [63:0] piece_p, piece_n, piece_b, piece_r, piece_q;
  assign piece_p = is_pawn[63:0] | is_pawn[127:64];
  assign piece_n = is_knight[63:0] | is_knight[127:64];
  assign piece_b = plane[0] & plane[1] & ~plane[2];
  assign piece_r = ~plane[0] & ~plane[1] & plane[2];
  assign piece_q = plane[0] & ~plane[1] & plane[2];
  logic [63:0] slid_w, slid_b;  // a slider of the colour attacks the square
  logic [63:0] own_king, opp_king, pin_line;
  assign slid_w = maps_q[0 +: 64];
  assign slid_b = maps_q[64 +: 64];

  // Attack maps (colour c attacks the square; _np: pawns excluded).
  logic [63:0] atk_np_w, atk_np_b, atk_w, atk_b, atk_stm, atk_opp;
  assign atk_np_w = slid_w | kn_w | kg_w;
  assign atk_np_b = slid_b | kn_b | kg_b;
  assign atk_w    = atk_np_w | pw_hit_w;
  assign atk_b    = atk_np_b | pw_hit_b;
  assign atk_stm  = stm_i ? atk_b : atk_w;
  assign atk_opp  = stm_i ? atk_w : atk_b;

  // Castling: rights, king and rook at home, squares between empty, king's path not attacked
  // (the landing square is left to the legality test, as for every other king move).
  logic castle_k_ok, castle_q_ok;
  logic [5:0] base;
  assign base = stm_i ? 6'd56 : 6'd0;
  logic [3:0] home_king, home_rook_h, home_rook_a;
  assign home_king   = ctrl_pkg::board_pc(board, base + 6'd4);
  assign home_rook_h = ctrl_pkg::board_pc(board, base + 6'd7);
  assign home_rook_a = ctrl_pkg::board_pc(board, base);
  assign castle_k_ok = (stm_i ? castling_i[2] : castling_i[0]) && home_king == {stm_i, 3'd6} &&
                       home_rook_h == {stm_i, 3'd4} && empty[base+6'd5] && empty[base+6'd6] &&
                       !atk_opp[base+6'd4] && !atk_opp[base+6'd5];
  assign castle_q_ok = (stm_i ? castling_i[3] : castling_i[1]) && home_king == {stm_i, 3'd6} &&
                       home_rook_a == {stm_i, 3'd4} && empty[base+6'd1] && empty[base+6'd2] &&
                       empty[base+6'd3] && !atk_opp[base+6'd4] && !atk_opp[base+6'd3];
  // The castling king's landing squares (targets) and its home square (the attacker of them).
  logic [63:0] castle_tgt_v, castle_reach_v;
  always_comb begin
    castle_tgt_v   = '0;
    castle_reach_v = '0;
    if (!stm_i) begin
      castle_tgt_v[6]   = castle_k_ok;
      castle_tgt_v[2]   = castle_q_ok;
      castle_reach_v[4] = (tsel_sq_i == 6'd6 && castle_k_ok) || (tsel_sq_i == 6'd2 && castle_q_ok);
    end else begin
      castle_tgt_v[62]   = castle_k_ok;
      castle_tgt_v[58]   = castle_q_ok;
      castle_reach_v[60] = (tsel_sq_i == 6'd62 && castle_k_ok) || (tsel_sq_i == 6'd58 && castle_q_ok);
    end
  end

  // Target square properties broadcast to the attackers.
  logic [3:0] tpiece;
  logic       t_enemy, t_ep;
  assign tpiece  = ctrl_pkg::board_pc(board, tsel_sq_i);
  assign t_enemy = (tpiece[2:0] != 3'd0) && (tpiece[3] != stm_i);
  assign t_ep    = ep_valid_i && (tsel_sq_i == ep_sq_i);

  // Square s on a pin line: between an enemy slider and the own king (the enemy's line map). The
  // discoverers: the side to move's men between its own slider and the other king (its line map).
  // The check detector: the other king's rays; square s sees it along a diagonal / orthogonal line
  // (the first man on it included). Only the checks filter reads the discoverers and the other
  // king's rays (in its clocks, chk_only_i).
  logic [63:0] disc, own_sq, chk_diag, chk_orth;
  assign own_sq   = ~empty & (stm_i ? black : ~black);
  assign pin_line = stm_i ? maps_q[128 +: 64] : maps_q[192 +: 64];
  assign disc     = own_sq & (stm_i ? maps_q[192 +: 64] : maps_q[128 +: 64]);
  assign chk_diag = stm_i ? maps_q[256 +: 64] : maps_q[320 +: 64];
  assign chk_orth = stm_i ? maps_q[384 +: 64] : maps_q[448 +: 64];

  // ---------------------------------------------------------------- keys
  // A cell's key is a bit plane per key bit here (bit b of every square's key in one word). The
  // square of a key is relative to the side to move (mirrored ranks for black); the ring is the
  // square's distance from the edge.
  // Bit j of each square's number, square s at [j*64 + s].
  localparam logic [6*64-1:0] SqBits = {64'hFFFF_FFFF_0000_0000, 64'hFFFF_0000_FFFF_0000,
                                        64'hFF00_FF00_FF00_FF00, 64'hF0F0_F0F0_F0F0_F0F0,
                                        64'hCCCC_CCCC_CCCC_CCCC, 64'hAAAA_AAAA_AAAA_AAAA};
  logic [64*6-1:0] rel_planes;
  always_comb begin
    for (int j = 0; j < 6; j++) rel_planes[j*64 +: 64] = (j >= 3 && stm_i) ? ~SqBits[j*64 +: 64] : SqBits[j*64 +: 64];
  end

  // ---------------------------------------------------------------- the target side
  // Target (victim) candidates and keys {class, ring, relative square}. Class: 6 queen, 5 rook,
  // 4 bishop, 3 knight, 2 pawn (en passant included), 1 quiet promotion square, 0 quiet. Only
  // CHECK, GEN and REPCHK read them: computed while tgt_en_i is set, zero otherwise.
  logic [63:0] tgt_cand_c, att_cand_c;  // the cells' bids before the checks filter
  logic [64*11-1:0] tkey;               // bit b of the target key of square s at [b*64 + s]
  logic [64*9-1:0]  akey;               // bit b of the attacker key of square s at [b*64 + s]
  logic [63:0] promo_sq, ep_1h;
  assign promo_sq = push_tgt & (stm_i ? Rank1 : Rank8);
  always_comb begin
    // A shift, not ep_1h[ep_sq_i] = ep_valid_i (a variable bit-select write: an index subtraction).
    ep_1h = {63'd0, ep_valid_i} << ep_sq_i;
  end
  always_comb begin
    logic [63:0] enemy_nk, ep_t, tcand, lt, eq, plane_b;
    logic [2:0]  tcl_last;
    logic [10:0] mask_key;
    tgt_cand_c = '0;
    tkey       = '0;
    enemy_nk   = '0;
    ep_t       = '0;
    tcand      = '0;
    lt         = '0;
    eq         = '0;
    tcl_last   = '0;
    plane_b    = '0;
    mask_key   = '0;
    if (tgt_en_i) begin
      enemy_nk = ~empty & (stm_i ? ~black : black) & ~type6;
      ep_t     = empty & ep_1h & (stm_i ? pw_hit_b : pw_hit_w);
      // An enemy man (not the king) attacked by the side to move; an empty square it reaches
      // (pawns' captures only onto the en-passant square).
      tcand    = (enemy_nk & atk_stm) |
                 (empty & ((stm_i ? atk_np_b : atk_np_w) | push_tgt | dpush_tgt | castle_tgt_v | ep_t));
      // The class: an enemy man's type + 1 (3 bits), 2 en passant, 1 a quiet promotion.
      tkey[10*64 +: 64] = enemy_nk & (plane[2] ^ (plane[1] & plane[0]));
      tkey[9*64 +: 64]  = (enemy_nk & (plane[1] ^ plane[0])) | ep_t;
      tkey[8*64 +: 64]  = (enemy_nk & ~plane[0]) | (empty & ~ep_t & promo_sq);
      tkey[7*64 +: 64]  = ctrl_pkg::TgtRing1;
      tkey[6*64 +: 64]  = ctrl_pkg::TgtRing0;
      tkey[0 +: 6*64]   = rel_planes;
      if (tgt_capt_only_i) tcand = tcand & (tkey[10*64 +: 64] | tkey[9*64 +: 64]);
      // "Strictly after the target of the last move": keys below the key of tgt_last_sq_i.
      // (A plane, then its bit: tkey[(8+b)*64 + sq] made Yosys add the offset in a carry chain.)
      for (int b = 0; b < 3; b++) begin
        plane_b     = tkey[(8+b)*64 +: 64];
        tcl_last[b] = plane_b[tgt_last_sq_i];
      end
      mask_key = {tcl_last, ctrl_pkg::TgtRing1[tgt_last_sq_i], ctrl_pkg::TgtRing0[tgt_last_sq_i], tgt_last_sq_i ^ base};
      eq = '1;
      for (int b = 10; b >= 0; b--) begin
        lt = lt | (eq & ~tkey[b*64 +: 64] & {64{mask_key[b]}});
        eq = eq & ~(tkey[b*64 +: 64] ^ {64{mask_key[b]}});
      end
      tgt_cand_c = tcand & (tgt_mask_en_i ? lt : '1);
    end
  end

  // ---------------------------------------------------------------- the attacker side
  // The super piece from the target square (tsel) through empty squares, the attackers' bids and
  // keys {order, relative square} (least valuable attacker first: pawn 5 .. king 0). Only CHECK,
  // GEN, GENATT, REPCHK and the ATTACKS mode's TEST read them: computed while att_en_i is set,
  // zero otherwise.
  logic [63:0] diag_reach, orth_reach;
  always_comb begin
    logic [63:0] sp_in, pawn_reach, lt, eq, plane_b;
    logic [2:0]  ao_last;
    logic [8:0]  mask_key;
    diag_reach = '0;
    orth_reach = '0;
    att_cand_c = '0;
    akey       = '0;
    sp_in      = '0;
    pawn_reach = '0;
    lt         = '0;
    eq         = '0;
    ao_last    = '0;
    plane_b    = '0;
    mask_key   = '0;
    if (att_en_i) begin
      for (int d = 0; d < 8; d++) begin
        sp_in = ray_step(ray_out(tsel_1h, empty, d), d);
        if (d % 2 == 1) diag_reach = diag_reach | sp_in;
        else            orth_reach = orth_reach | sp_in;
      end
      pawn_reach = (t_enemy || t_ep) ? pcap_reach : (push_reach | dpush_reach);
      att_cand_c = own_sq & (piece_p & pawn_reach | piece_n & kn_reach | piece_b & diag_reach |
                             piece_r & orth_reach | piece_q & (diag_reach | orth_reach) |
                             type6 & (kg_reach | castle_reach_v));
      // The order of an attacker (0 for a square that holds none): pawn 5, knight 4, bishop 3,
      // rook 2, queen 1, king 0.
      akey[8*64 +: 64] = own_sq & (piece_p | piece_n);
      akey[7*64 +: 64] = own_sq & (piece_b | piece_r);
      akey[6*64 +: 64] = own_sq & (piece_p | piece_b | piece_q);
      akey[0 +: 6*64]  = rel_planes;
      // "Strictly after the attacker of the last move": keys below the key of att_last_sq_i.
      for (int b = 0; b < 3; b++) begin
        plane_b    = akey[(6+b)*64 +: 64];
        ao_last[b] = plane_b[att_last_sq_i];
      end
      mask_key = {ao_last, att_last_sq_i ^ base};
      eq = '1;
      for (int b = 8; b >= 0; b--) begin
        lt = lt | (eq & ~akey[b*64 +: 64] & {64{mask_key[b]}});
        eq = eq & ~(akey[b*64 +: 64] ^ {64{mask_key[b]}});
      end
      if (att_mask_en_i) att_cand_c = att_cand_c & lt;
    end
  end

  // ---------------------------------------------------------------- the checks filter
  // A non-capture may give check from a square that sees the other king as the moving piece
  // attacks (directly), from anywhere when a discoverer exists (superset: the discoverer's reach is
  // not known here), and always as a promotion (the new piece may check through the square the
  // pawn left) or castling (the rook through the square the king left). Captures, the en-passant
  // square included, pass as they are. A target may then have no attacker that checks from it:
  // GENATT finds none and GEN goes on below it.
  logic [63:0] own_knight, kn_chk, pw_chk, chk_tgt, chk_att;
  logic        t_quiet, t_kn, t_diag, t_orth, t_pawn;
  assign own_knight = stm_i ? is_knight[127:64] : is_knight[63:0];
  assign kn_chk   = knight_or(opp_king);
  assign pw_chk   = diag_step_or(opp_king, !stm_i);  // a pawn of the side to move here attacks it
  assign chk_tgt  = (disc != 64'd0) ? '1 : (chk_diag | chk_orth | kn_chk | pw_chk | promo_sq | castle_tgt_v);
  assign tgt_cand_o = tgt_cand_c & ~({64{chk_only_i}} & empty & ~ep_1h & ~chk_tgt);
  // The attackers of a quiet target that may check from it: by their type, every discoverer,
  // every pawn onto the last rank, the castling king.
  assign t_quiet = !t_enemy && !t_ep;
  assign t_kn    = |(kn_chk & tsel_1h);
  assign t_diag  = |(chk_diag & tsel_1h);
  assign t_orth  = |(chk_orth & tsel_1h);
  assign t_pawn  = |(pw_chk & tsel_1h) || (tsel_sq_i[5:3] ^ {3{stm_i}}) == 3'd7;
  assign chk_att = disc | ({64{t_kn}} & own_knight) | ({64{t_diag}} & (piece_b | piece_q)) |
                   ({64{t_orth}} & (piece_r | piece_q)) | ({64{t_pawn}} & own_pawn) | (own_king & castle_reach_v);
  assign att_cand_o = att_cand_c & ~({64{chk_only_i && t_quiet}} & ~chk_att);

  // The arbiters take the keys' classes; the rest of a key (ring, relative square) is fixed for a
  // square, and the winner comes back as its square relative to the side to move.
  // The attacker's class is its order, so the controller learns "a pawn" (order 5) from it
  // without reading the board at the square found (a 64-way multiplexer on the generator's
  // longest path, issue 22).
  logic [5:0] tgt_rel, att_rel;
  logic [2:0] att_order;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2:0] tgt_cls;  // the victim's class: not needed
  /* verilator lint_on UNUSEDSIGNAL */
  mg_arbiter #(.RINGS(1'b1)) u_tgt_arb (
    .cand_i(tgt_cand_o), .cls_i(tkey[8*64 +: 192]), .stm_i, .found_o(tgt_found_o), .cls_o(tgt_cls), .sq_o(tgt_rel));
  mg_arbiter u_att_arb (
    .cand_i(att_cand_o), .cls_i(akey[6*64 +: 192]), .stm_i, .found_o(att_found_o), .cls_o(att_order), .sq_o(att_rel));
  assign tgt_sq_o   = tgt_rel ^ base;
  assign att_sq_o   = att_rel ^ base;
  assign att_pawn_o = att_order == 3'd5;

  // Attacking-move test: the piece on tsel (of the side not to move) hits a non-king piece of
  // the side to move. Pawns attack forward for their own colour, which is the side-to-move pawn
  // capture pattern seen from the other end.
  logic [63:0] victims, reach_of_tsel;
  always_comb begin
    unique case (tpiece[2:0])
      3'd1:    reach_of_tsel = pcap_reach;
      3'd2:    reach_of_tsel = kn_reach;
      3'd3:    reach_of_tsel = diag_reach;
      3'd4:    reach_of_tsel = orth_reach;
      3'd5:    reach_of_tsel = diag_reach | orth_reach;
      3'd6:    reach_of_tsel = kg_reach;
      default: reach_of_tsel = '0;
    endcase
  end
  // Men (not kings) of each colour.
  logic [63:0] men_w, men_b;
  assign men_w   = ~empty & ~black & ~type6;
  assign men_b   = ~empty & black & ~type6;
  assign victims = stm_i ? men_b : men_w;
  assign tsel_attacks_o = |(victims & reach_of_tsel);

  // Check, legality and hung pieces.
  logic [63:0] own_men;
  assign own_men        = stm_i ? men_b : men_w;
  assign own_king       = stm_i ? is_king[127:64] : is_king[63:0];
  assign opp_king       = stm_i ? is_king[63:0] : is_king[127:64];
  assign in_check_o     = |(own_king & atk_opp);
  assign king_capture_o = |(opp_king & atk_stm);
  assign hung_o         = own_men & atk_opp & ~atk_stm;
  assign pinned_o       = own_men & pin_line;

  // Quiescence check classes and the "opponent hung" extension.
  logic [63:0] opp_men, king_ring, escapes;
  assign opp_men     = stm_i ? men_w : men_b;
  assign opp_hung_o  = |(opp_men & atk_stm & ~atk_opp);
  assign king_ring   = stm_i ? kg_b : kg_w;
  assign escapes     = king_ring & ~own_men & ~own_king & ~atk_opp;
  assign king_ring_o = king_ring;
  logic [1:0] esc_count;
  assign esc_count   = ctrl_pkg::count_upto3(escapes);
  assign esc_none_o  = esc_count == 2'd0;
  assign esc_one_o   = esc_count == 2'd1;

`ifdef VERILATOR
  // The registered ray maps are the board's own in every clock (verilated with --assert in the
  // regression's second configuration); a restore that brought back the wrong copy fails it.
  a_ray_maps: assert property (@(posedge clk_i) disable iff (!rst_ni) maps_q == ray_maps(board));
`endif
endmodule
