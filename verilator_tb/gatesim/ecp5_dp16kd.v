// A simulation model of the ECP5 DP16KD block RAM, for the gate-level check (scripts/fpga gatesim):
// Yosys 0.23's cells_sim.v declares DP16KD with its ports and no behaviour (every output
// undriven), so a netlist whose memories Yosys mapped to block RAM read X there. Modelled: what
// Yosys's memory mapping produces (brams.txt, brams_map.v): data widths 4, 9 and 18 on either
// port and 36 (the pseudo-dual-port form, written on port A, read on port B through both ports'
// data pins), outputs not registered (REGMODE NOREG), 9-bit byte enables on the low address pins
// of the 18- and 36-bit widths, a write when the port's clock enable and write enable are set,
// the read of a port in the clock it writes per WRITEMODE (NORMAL: output held; WRITETHROUGH: the
// new word; READBEFOREWRITE: the old word), outputs 0 before the first read, the contents from
// the INITVAL parameters (16 words of 18 bits in 20-bit fields each, as brams_map.v packs them).
// Reads on one port of a word the other port writes in the same clock see the old word (the
// mapping assumes nothing there). Anything else (other widths, output registers, chip selects,
// resets asserted) stops the simulation with an error naming it. tests/fpga/bram_model.sh checks
// the model together with Yosys's mapping: memories of each of these forms, synthesised and
// simulated with it, against their RTL.
`timescale 1ns / 1ps
module DP16KD (
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA,
  input CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB,
  input CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  parameter DATA_WIDTH_A = 18;
  parameter DATA_WIDTH_B = 18;
  parameter REGMODE_A = "NOREG";
  parameter REGMODE_B = "NOREG";
  parameter RESETMODE = "SYNC";
  parameter ASYNC_RESET_RELEASE = "SYNC";
  parameter CSDECODE_A = "0b000";
  parameter CSDECODE_B = "0b000";
  parameter WRITEMODE_A = "NORMAL";
  parameter WRITEMODE_B = "NORMAL";
  parameter CLKAMUX = "CLKA";
  parameter CLKBMUX = "CLKB";
  parameter GSR = "ENABLED";
  parameter [319:0] INITVAL_00 = 320'h0;
  parameter [319:0] INITVAL_01 = 320'h0;
  parameter [319:0] INITVAL_02 = 320'h0;
  parameter [319:0] INITVAL_03 = 320'h0;
  parameter [319:0] INITVAL_04 = 320'h0;
  parameter [319:0] INITVAL_05 = 320'h0;
  parameter [319:0] INITVAL_06 = 320'h0;
  parameter [319:0] INITVAL_07 = 320'h0;
  parameter [319:0] INITVAL_08 = 320'h0;
  parameter [319:0] INITVAL_09 = 320'h0;
  parameter [319:0] INITVAL_0A = 320'h0;
  parameter [319:0] INITVAL_0B = 320'h0;
  parameter [319:0] INITVAL_0C = 320'h0;
  parameter [319:0] INITVAL_0D = 320'h0;
  parameter [319:0] INITVAL_0E = 320'h0;
  parameter [319:0] INITVAL_0F = 320'h0;
  parameter [319:0] INITVAL_10 = 320'h0;
  parameter [319:0] INITVAL_11 = 320'h0;
  parameter [319:0] INITVAL_12 = 320'h0;
  parameter [319:0] INITVAL_13 = 320'h0;
  parameter [319:0] INITVAL_14 = 320'h0;
  parameter [319:0] INITVAL_15 = 320'h0;
  parameter [319:0] INITVAL_16 = 320'h0;
  parameter [319:0] INITVAL_17 = 320'h0;
  parameter [319:0] INITVAL_18 = 320'h0;
  parameter [319:0] INITVAL_19 = 320'h0;
  parameter [319:0] INITVAL_1A = 320'h0;
  parameter [319:0] INITVAL_1B = 320'h0;
  parameter [319:0] INITVAL_1C = 320'h0;
  parameter [319:0] INITVAL_1D = 320'h0;
  parameter [319:0] INITVAL_1E = 320'h0;
  parameter [319:0] INITVAL_1F = 320'h0;
  parameter [319:0] INITVAL_20 = 320'h0;
  parameter [319:0] INITVAL_21 = 320'h0;
  parameter [319:0] INITVAL_22 = 320'h0;
  parameter [319:0] INITVAL_23 = 320'h0;
  parameter [319:0] INITVAL_24 = 320'h0;
  parameter [319:0] INITVAL_25 = 320'h0;
  parameter [319:0] INITVAL_26 = 320'h0;
  parameter [319:0] INITVAL_27 = 320'h0;
  parameter [319:0] INITVAL_28 = 320'h0;
  parameter [319:0] INITVAL_29 = 320'h0;
  parameter [319:0] INITVAL_2A = 320'h0;
  parameter [319:0] INITVAL_2B = 320'h0;
  parameter [319:0] INITVAL_2C = 320'h0;
  parameter [319:0] INITVAL_2D = 320'h0;
  parameter [319:0] INITVAL_2E = 320'h0;
  parameter [319:0] INITVAL_2F = 320'h0;
  parameter [319:0] INITVAL_30 = 320'h0;
  parameter [319:0] INITVAL_31 = 320'h0;
  parameter [319:0] INITVAL_32 = 320'h0;
  parameter [319:0] INITVAL_33 = 320'h0;
  parameter [319:0] INITVAL_34 = 320'h0;
  parameter [319:0] INITVAL_35 = 320'h0;
  parameter [319:0] INITVAL_36 = 320'h0;
  parameter [319:0] INITVAL_37 = 320'h0;
  parameter [319:0] INITVAL_38 = 320'h0;
  parameter [319:0] INITVAL_39 = 320'h0;
  parameter [319:0] INITVAL_3A = 320'h0;
  parameter [319:0] INITVAL_3B = 320'h0;
  parameter [319:0] INITVAL_3C = 320'h0;
  parameter [319:0] INITVAL_3D = 320'h0;
  parameter [319:0] INITVAL_3E = 320'h0;
  parameter [319:0] INITVAL_3F = 320'h0;

  // The 18,432 bits as 1,024 words of 18 (the INITVAL view). A 9-bit unit u is word u / 2, bits
  // 9 * (u % 2); a 4-bit unit u is in 9-bit byte u / 2 at bit 4 * (u % 2); a 36-bit word w is
  // words 2w (data pins 0-17) and 2w + 1 (18-35).
  reg [17:0] mem [0:1023];
  reg [17:0] doa_q, dob_q;
  integer i;
  initial begin
    for (i = 0; i < 16; i = i + 1) mem[0*16 + i] = INITVAL_00[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[1*16 + i] = INITVAL_01[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[2*16 + i] = INITVAL_02[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[3*16 + i] = INITVAL_03[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[4*16 + i] = INITVAL_04[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[5*16 + i] = INITVAL_05[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[6*16 + i] = INITVAL_06[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[7*16 + i] = INITVAL_07[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[8*16 + i] = INITVAL_08[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[9*16 + i] = INITVAL_09[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[10*16 + i] = INITVAL_0A[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[11*16 + i] = INITVAL_0B[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[12*16 + i] = INITVAL_0C[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[13*16 + i] = INITVAL_0D[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[14*16 + i] = INITVAL_0E[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[15*16 + i] = INITVAL_0F[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[16*16 + i] = INITVAL_10[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[17*16 + i] = INITVAL_11[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[18*16 + i] = INITVAL_12[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[19*16 + i] = INITVAL_13[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[20*16 + i] = INITVAL_14[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[21*16 + i] = INITVAL_15[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[22*16 + i] = INITVAL_16[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[23*16 + i] = INITVAL_17[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[24*16 + i] = INITVAL_18[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[25*16 + i] = INITVAL_19[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[26*16 + i] = INITVAL_1A[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[27*16 + i] = INITVAL_1B[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[28*16 + i] = INITVAL_1C[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[29*16 + i] = INITVAL_1D[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[30*16 + i] = INITVAL_1E[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[31*16 + i] = INITVAL_1F[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[32*16 + i] = INITVAL_20[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[33*16 + i] = INITVAL_21[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[34*16 + i] = INITVAL_22[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[35*16 + i] = INITVAL_23[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[36*16 + i] = INITVAL_24[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[37*16 + i] = INITVAL_25[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[38*16 + i] = INITVAL_26[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[39*16 + i] = INITVAL_27[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[40*16 + i] = INITVAL_28[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[41*16 + i] = INITVAL_29[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[42*16 + i] = INITVAL_2A[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[43*16 + i] = INITVAL_2B[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[44*16 + i] = INITVAL_2C[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[45*16 + i] = INITVAL_2D[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[46*16 + i] = INITVAL_2E[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[47*16 + i] = INITVAL_2F[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[48*16 + i] = INITVAL_30[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[49*16 + i] = INITVAL_31[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[50*16 + i] = INITVAL_32[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[51*16 + i] = INITVAL_33[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[52*16 + i] = INITVAL_34[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[53*16 + i] = INITVAL_35[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[54*16 + i] = INITVAL_36[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[55*16 + i] = INITVAL_37[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[56*16 + i] = INITVAL_38[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[57*16 + i] = INITVAL_39[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[58*16 + i] = INITVAL_3A[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[59*16 + i] = INITVAL_3B[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[60*16 + i] = INITVAL_3C[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[61*16 + i] = INITVAL_3D[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[62*16 + i] = INITVAL_3E[i*20 +: 18];
    for (i = 0; i < 16; i = i + 1) mem[63*16 + i] = INITVAL_3F[i*20 +: 18];
    doa_q = 18'd0;
    dob_q = 18'd0;
    if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG" || CSDECODE_A != "0b000" || CSDECODE_B != "0b000" ||
        CLKAMUX != "CLKA" || CLKBMUX != "CLKB") begin
      $display("DP16KD %m: only unregistered outputs, no chip-select decode and true clocks are modelled");
      $finish(1);
    end
    if (!(DATA_WIDTH_A == 4 || DATA_WIDTH_A == 9 || DATA_WIDTH_A == 18 || DATA_WIDTH_A == 36) ||
        !(DATA_WIDTH_B == 4 || DATA_WIDTH_B == 9 || DATA_WIDTH_B == 18 || DATA_WIDTH_B == 36) ||
        ((DATA_WIDTH_A == 36) != (DATA_WIDTH_B == 36))) begin
      $display("DP16KD %m: data widths %0d/%0d are not modelled (4, 9, 18 a port, or 36 on both)", DATA_WIDTH_A, DATA_WIDTH_B);
      $finish(1);
    end
  end

  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
  wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
  wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
  wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
  wire        pdp = DATA_WIDTH_A == 36;

  always @(RSTA or RSTB or CSA0 or CSA1 or CSA2 or CSB0 or CSB1 or CSB2) begin
    if (RSTA === 1'b1 || RSTB === 1'b1 || {CSA2, CSA1, CSA0} !== 3'b000 || {CSB2, CSB1, CSB0} !== 3'b000) begin
      $display("DP16KD %m: a reset or chip select asserted: not modelled");
      $finish(1);
    end
  end

  // The unit of width w at address ad in word (zero-extended to 18 bits).
  function automatic [17:0] unit_of;
    input integer w;
    input [13:0] ad;
    input [17:0] word;
    begin
      case (w)
        18:      unit_of = word;
        9:       unit_of = ad[3] ? {9'd0, word[17:9]} : {9'd0, word[8:0]};
        default: unit_of = {14'd0, word[9 * ad[3] + 4 * ad[2] +: 4]};  // 4
      endcase
    end
  endfunction

  // The word at address ad after a write of width w of d (for 18 bits, ad[1:0] enable the bytes).
  function automatic [17:0] written;
    input integer w;
    input [13:0] ad;
    input [17:0] d;
    input [17:0] word;
    begin
      written = word;
      case (w)
        18: begin
          if (ad[0]) written[8:0] = d[8:0];
          if (ad[1]) written[17:9] = d[17:9];
        end
        9:       if (ad[3]) written[17:9] = d[8:0]; else written[8:0] = d[8:0];
        default: written[9 * ad[3] + 4 * ad[2] +: 4] = d[3:0];
      endcase
    end
  endfunction

  // One port of the true dual-port forms: the read (per WRITEMODE when writing) and the write,
  // the write landing after every read of this clock edge. Automatic: both ports' processes call
  // it at the same clock edge, and a static task's arguments were shared between the calls.
  task automatic port;
    input integer w;
    input [127:0] writemode;
    input we;
    input [13:0] ad;
    input [17:0] d;
    output [17:0] q;
    input [17:0] q_old;
    reg [17:0] old_word, new_word;
    begin
      old_word = mem[ad[13:4]];
      new_word = written(w, ad, d, old_word);
      q = q_old;
      if (we !== 1'b1) q = unit_of(w, ad, old_word);
      else if (writemode == "WRITETHROUGH") q = unit_of(w, ad, new_word);
      else if (writemode == "READBEFOREWRITE") q = unit_of(w, ad, old_word);
      if (we === 1'b1) mem[ad[13:4]] <= new_word;
    end
  endtask

  reg [17:0] qa, qb;
  always @(posedge CLKA) begin
    if (CEA === 1'b1) begin
      if (pdp) begin
        // The write port of the 36-bit form: the byte enables on ADA[3:0], the word on ADA[13:5].
        if (WEA === 1'b1) begin
          if (ada[0]) mem[{ada[13:5], 1'b0}][8:0]  <= dia[8:0];
          if (ada[1]) mem[{ada[13:5], 1'b0}][17:9] <= dia[17:9];
          if (ada[2]) mem[{ada[13:5], 1'b1}][8:0]  <= dib[8:0];
          if (ada[3]) mem[{ada[13:5], 1'b1}][17:9] <= dib[17:9];
        end
      end else begin
        port(DATA_WIDTH_A, WRITEMODE_A, WEA, ada, dia, qa, doa_q);
        doa_q <= qa;
      end
    end
  end

  always @(posedge CLKB) begin
    if (CEB === 1'b1) begin
      if (pdp) begin
        // The read port of the 36-bit form, on both ports' data pins.
        doa_q <= mem[{adb[13:5], 1'b0}];
        dob_q <= mem[{adb[13:5], 1'b1}];
      end else begin
        port(DATA_WIDTH_B, WRITEMODE_B, WEB, adb, dib, qb, dob_q);
        dob_q <= qb;
      end
    end
  end

  assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa_q;
  assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob_q;
endmodule
