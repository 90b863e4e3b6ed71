// One square of the 8x8 move-generator array (IEEE Micro, "Move generator").
//
// A cell holds the 4-bit piece register of its square and the per-square logic of the three
// networks that run across the array:
//  * find-victim transmitter: for each colour, sliding attacks pass through the cell along eight
//    directions while it is empty; the receiver ORs what arrives into "attacked by" signals,
//    from which the cell decides whether it is a target (victim) square and computes its
//    target priority key;
//  * find-attacker transmitter: the reverse "super piece" sent from the chosen target square,
//    passing through empty cells; the receiver decides whether this cell's piece can move to
//    the target and computes its attacker priority key;
//  * the request to the distributed arbiters (candidate bit + key; mg_arbiter holds the
//    per-cell bit-serial arbitration nodes).
// Knight, king and pawn patterns are short fixed wires gathered by mg_array.
module mg_cell #(
  parameter int SQ = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Board write port: four slots (make/unmake write up to four squares; slot 0 also serves the host).
  input  logic        clear_i,          // empty the square (CLEAR command)
  input  logic [3:0]  wr_en_i,
  input  logic [23:0] wr_sq_i,
  input  logic [15:0] wr_pc_i,
  output logic [3:0]  piece_o,
  // Global state.
  input  logic        stm_i,
  input  logic        ep_valid_i,
  input  logic [5:0]  ep_sq_i,
  // Find-victim network: one ray in and out per colour and direction (scalar ports so that every
  // ray segment is its own net: a vector here would look like a combinational loop).
  input  logic        fw_w_n_i,
  input  logic        fw_w_ne_i,
  input  logic        fw_w_e_i,
  input  logic        fw_w_se_i,
  input  logic        fw_w_s_i,
  input  logic        fw_w_sw_i,
  input  logic        fw_w_w_i,
  input  logic        fw_w_nw_i,
  output logic        fw_w_n_o,
  output logic        fw_w_ne_o,
  output logic        fw_w_e_o,
  output logic        fw_w_se_o,
  output logic        fw_w_s_o,
  output logic        fw_w_sw_o,
  output logic        fw_w_w_o,
  output logic        fw_w_nw_o,
  input  logic        fw_b_n_i,
  input  logic        fw_b_ne_i,
  input  logic        fw_b_e_i,
  input  logic        fw_b_se_i,
  input  logic        fw_b_s_i,
  input  logic        fw_b_sw_i,
  input  logic        fw_b_w_i,
  input  logic        fw_b_nw_i,
  output logic        fw_b_n_o,
  output logic        fw_b_ne_o,
  output logic        fw_b_e_o,
  output logic        fw_b_se_o,
  output logic        fw_b_s_o,
  output logic        fw_b_sw_o,
  output logic        fw_b_w_o,
  output logic        fw_b_nw_o,
  input  logic [1:0]  knight_hit_i,     // a knight of colour c is a knight's move away
  input  logic [1:0]  king_hit_i,       // a king of colour c is adjacent
  input  logic [1:0]  pawn_hit_i,       // a pawn of colour c attacks this square
  input  logic        push_tgt_i,       // a pawn of the side to move can push here
  input  logic        dpush_tgt_i,      // ... or double-push here (third-rank square empty)
  input  logic        castle_tgt_i,     // the side to move may castle with its king landing here
  output logic [1:0]  attacked_o,       // attacked by colour c
  // Find-attacker network (super piece from the target square).
  input  logic [5:0]  tsel_sq_i,
  input  logic        sp_n_i,
  input  logic        sp_ne_i,
  input  logic        sp_e_i,
  input  logic        sp_se_i,
  input  logic        sp_s_i,
  input  logic        sp_sw_i,
  input  logic        sp_w_i,
  input  logic        sp_nw_i,
  output logic        sp_n_o,
  output logic        sp_ne_o,
  output logic        sp_e_o,
  output logic        sp_se_o,
  output logic        sp_s_o,
  output logic        sp_sw_o,
  output logic        sp_w_o,
  output logic        sp_nw_o,
  input  logic        knight_reach_i,
  input  logic        king_reach_i,
  input  logic        pcap_reach_i,     // a pawn of the side to move here would capture onto the target
  input  logic        push_reach_i,     // ... would push onto the target
  input  logic        dpush_reach_i,    // ... would double-push onto the target (square between empty)
  input  logic        castle_reach_i,   // the king here castles onto the target
  input  logic        t_enemy_i,        // the target holds an enemy piece
  input  logic        t_ep_i,           // the target is the en-passant square
  output logic        diag_reach_o,
  output logic        orth_reach_o,
  // Arbitration requests.
  input  logic        tgt_capt_only_i,
  input  logic        tgt_mask_en_i,
  input  logic [10:0] tgt_mask_key_i,
  output logic        tgt_cand_o,
  output logic [10:0] tgt_key_o,
  input  logic        att_mask_en_i,
  input  logic [8:0]  att_mask_key_i,
  output logic        att_cand_o,
  output logic [8:0]  att_key_o
);
  localparam int File = SQ % 8;
  localparam int Rank = SQ / 8;
  localparam int FileRing = (File < 7 - File) ? File : 7 - File;
  localparam int RankRing = (Rank < 7 - Rank) ? Rank : 7 - Rank;
  localparam logic [1:0] Ring = 2'((FileRing < RankRing) ? FileRing : RankRing);
  localparam logic [5:0] Sq = 6'(SQ);

  // Ray ports packed for the logic below (bit = colour*8 + direction).
  logic [15:0] fw_ray_i /*verilator split_var*/;
  logic [15:0] fw_ray_o /*verilator split_var*/;
  logic [7:0]  sp_ray_i /*verilator split_var*/;
  logic [7:0]  sp_ray_o /*verilator split_var*/;
  assign fw_ray_i[0] = fw_w_n_i;  assign fw_w_n_o = fw_ray_o[0];
  assign fw_ray_i[1] = fw_w_ne_i;  assign fw_w_ne_o = fw_ray_o[1];
  assign fw_ray_i[2] = fw_w_e_i;  assign fw_w_e_o = fw_ray_o[2];
  assign fw_ray_i[3] = fw_w_se_i;  assign fw_w_se_o = fw_ray_o[3];
  assign fw_ray_i[4] = fw_w_s_i;  assign fw_w_s_o = fw_ray_o[4];
  assign fw_ray_i[5] = fw_w_sw_i;  assign fw_w_sw_o = fw_ray_o[5];
  assign fw_ray_i[6] = fw_w_w_i;  assign fw_w_w_o = fw_ray_o[6];
  assign fw_ray_i[7] = fw_w_nw_i;  assign fw_w_nw_o = fw_ray_o[7];
  assign fw_ray_i[8] = fw_b_n_i;  assign fw_b_n_o = fw_ray_o[8];
  assign fw_ray_i[9] = fw_b_ne_i;  assign fw_b_ne_o = fw_ray_o[9];
  assign fw_ray_i[10] = fw_b_e_i;  assign fw_b_e_o = fw_ray_o[10];
  assign fw_ray_i[11] = fw_b_se_i;  assign fw_b_se_o = fw_ray_o[11];
  assign fw_ray_i[12] = fw_b_s_i;  assign fw_b_s_o = fw_ray_o[12];
  assign fw_ray_i[13] = fw_b_sw_i;  assign fw_b_sw_o = fw_ray_o[13];
  assign fw_ray_i[14] = fw_b_w_i;  assign fw_b_w_o = fw_ray_o[14];
  assign fw_ray_i[15] = fw_b_nw_i;  assign fw_b_nw_o = fw_ray_o[15];
  assign sp_ray_i[0] = sp_n_i;  assign sp_n_o = sp_ray_o[0];
  assign sp_ray_i[1] = sp_ne_i;  assign sp_ne_o = sp_ray_o[1];
  assign sp_ray_i[2] = sp_e_i;  assign sp_e_o = sp_ray_o[2];
  assign sp_ray_i[3] = sp_se_i;  assign sp_se_o = sp_ray_o[3];
  assign sp_ray_i[4] = sp_s_i;  assign sp_s_o = sp_ray_o[4];
  assign sp_ray_i[5] = sp_sw_i;  assign sp_sw_o = sp_ray_o[5];
  assign sp_ray_i[6] = sp_w_i;  assign sp_w_o = sp_ray_o[6];
  assign sp_ray_i[7] = sp_nw_i;  assign sp_nw_o = sp_ray_o[7];

  // Piece register.
  // The write decode sits in the register's enabled branch: a simulator decodes the four slots
  // only in clocks that write (the last slot that names this square wins; CLEAR wins over all).
  logic [3:0] piece_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      piece_q <= 4'd0;
    end else if (clear_i) begin
      piece_q <= 4'd0;
    end else if (wr_en_i != 4'd0) begin
      for (int k = 0; k < 4; k++) begin
        if (wr_en_i[k] && wr_sq_i[k*6 +: 6] == Sq) piece_q <= wr_pc_i[k*4 +: 4];
      end
    end
  end
  assign piece_o = piece_q;

  logic [2:0] ptype;
  logic       pcolor, empty, own, enemy;
  assign ptype  = piece_q[2:0];
  assign pcolor = piece_q[3];
  assign empty  = (ptype == 3'd0);
  assign own    = !empty && (pcolor == stm_i);
  assign enemy  = !empty && (pcolor != stm_i);

  // Find-victim transmitters and receiver. Directions 0..7: N, NE, E, SE, S, SW, W, NW;
  // odd directions are diagonal.
  logic [1:0] diag_src, orth_src;
  logic [1:0] attacked_np;  // attacked by colour c, pawns excluded
  always_comb begin
    for (int c = 0; c < 2; c++) begin
      diag_src[c] = !empty && (pcolor == c[0]) && (ptype == 3'd3 || ptype == 3'd5);
      orth_src[c] = !empty && (pcolor == c[0]) && (ptype == 3'd4 || ptype == 3'd5);
    end
  end
  for (genvar c = 0; c < 2; c++) begin : g_color
    for (genvar d = 0; d < 8; d++) begin : g_dir
      assign fw_ray_o[c*8+d] = ((d % 2 == 1) ? diag_src[c] : orth_src[c]) || (fw_ray_i[c*8+d] && empty);
    end
    assign attacked_np[c] = (|fw_ray_i[c*8 +: 8]) || knight_hit_i[c] || king_hit_i[c];
    assign attacked_o[c]    = attacked_np[c] || pawn_hit_i[c];
  end

  // Target (victim) candidate and key: {class, ring, relative square}. Class: 6 queen, 5 rook,
  // 4 bishop, 3 knight, 2 pawn (en passant included), 1 quiet promotion square, 0 quiet.
  logic       ep_here, atk_np_stm, atk_stm, tcand;
  logic [2:0] tclass;
  logic [5:0] rel_sq;
  assign ep_here    = ep_valid_i && (ep_sq_i == Sq);
  assign atk_np_stm = stm_i ? attacked_np[1] : attacked_np[0];
  assign atk_stm    = stm_i ? attacked_o[1] : attacked_o[0];
  assign rel_sq     = stm_i ? (Sq ^ 6'd56) : Sq;
  always_comb begin
    tcand  = 1'b0;
    tclass = 3'd0;
    if (enemy && ptype != 3'd6) begin
      tcand  = atk_stm;
      tclass = ptype + 3'd1;
    end else if (empty) begin
      tcand = atk_np_stm || push_tgt_i || dpush_tgt_i || castle_tgt_i || (ep_here && pawn_hit_i[stm_i]);
      if (ep_here && pawn_hit_i[stm_i])          tclass = 3'd2;
      else if (rel_sq[5:3] == 3'd7 && push_tgt_i) tclass = 3'd1;
    end
    if (tgt_capt_only_i && tclass < 3'd2) tcand = 1'b0;
  end
  assign tgt_key_o  = {tclass, Ring, rel_sq};
  assign tgt_cand_o = tcand && (!tgt_mask_en_i || tgt_key_o < tgt_mask_key_i);

  // Find-attacker: super piece from the target square.
  logic tsel;
  assign tsel = (tsel_sq_i == Sq);
  for (genvar d = 0; d < 8; d++) begin : g_sp
    assign sp_ray_o[d] = tsel || (sp_ray_i[d] && empty);
  end
  assign diag_reach_o = sp_ray_i[1] || sp_ray_i[3] || sp_ray_i[5] || sp_ray_i[7];
  assign orth_reach_o = sp_ray_i[0] || sp_ray_i[2] || sp_ray_i[4] || sp_ray_i[6];

  // Attacker key: least valuable attacker first (pawn 5 .. king 0), then relative square.
  logic       acand;
  logic [2:0] aorder;
  always_comb begin
    acand  = 1'b0;
    aorder = 3'd0;
    if (own) begin
      unique case (ptype)
        3'd1: begin
          aorder = 3'd5;
          acand  = (t_enemy_i || t_ep_i) ? pcap_reach_i : (push_reach_i || dpush_reach_i);
        end
        3'd2: begin aorder = 3'd4; acand = knight_reach_i; end
        3'd3: begin aorder = 3'd3; acand = diag_reach_o; end
        3'd4: begin aorder = 3'd2; acand = orth_reach_o; end
        3'd5: begin aorder = 3'd1; acand = diag_reach_o || orth_reach_o; end
        3'd6: begin aorder = 3'd0; acand = king_reach_i || castle_reach_i; end
        default: begin aorder = 3'd0; acand = 1'b0; end
      endcase
    end
  end
  assign att_key_o  = {aorder, rel_sq};
  assign att_cand_o = acand && (!att_mask_en_i || att_key_o < att_mask_key_i);
endmodule
