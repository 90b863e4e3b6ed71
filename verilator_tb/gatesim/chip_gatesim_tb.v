// Gate-level check of the chip (scripts/fpga gatesim, docs/fpga.md): replays a bus record written by
// `deepblue ... --bus-record FILE` (host/chip/bus_recorder.h) on the netlist Yosys made for a board
// family, simulated with that family's cell models (by Verilator, --binary --timing, or by Icarus
// Verilog: scripts/fpga gatesim --simulator), and compares every answer with the one the
// reference model gave. It clocks the netlist as verilator_tb/chip_harness.cpp
// clocks the verilated chip: inputs change with the clock low, an access is one rising edge with
// req_i high, and the registered response is read just after that edge.
//
// Plain Verilog-2005 (the netlist and the cell models are), for both simulators.
//   +record=FILE   the bus record (required)
//   +progress=N    print a line every N events (0: none)
//   +trace=1       print the debug port after every clock (to compare two netlists, or a netlist
//                  and the RTL compiled in its place, clock by clock)
// Prints "GATESIM PASS <events> events <clocks> clocks" or "GATESIM FAIL ..." as its last line.
`timescale 1ns / 1ps
module chip_gatesim_tb;
  reg         clk = 1'b0;
  reg         rst_n = 1'b1;
  reg         req = 1'b0;
  reg         we = 1'b0;
  reg  [16:0] addr = 17'd0;
  reg  [31:0] wdata = 32'd0;
  wire        rvalid;
  wire [31:0] rdata;
  wire        err;
  wire [3:0]  dbg_state;
  wire [5:0]  dbg_ply;
  wire [15:0] dbg_move;
  wire [31:0] dbg_nodes;
  wire [15:0] dbg_leaf;
  wire [7:0]  dbg_flags;

  chip_top u_dut (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .req_i      (req),
    .we_i       (we),
    .addr_i     (addr),
    .wdata_i    (wdata),
    .rvalid_o   (rvalid),
    .rdata_o    (rdata),
    .err_o      (err),
    .dbg_state_o(dbg_state),
    .dbg_ply_o  (dbg_ply),
    .dbg_move_o (dbg_move),
    .dbg_nodes_o(dbg_nodes),
    .dbg_leaf_o (dbg_leaf),
    .dbg_flags_o(dbg_flags)
  );

  // One clock: rising edge, settle, sample (the caller), then the falling edge before new inputs.
  reg [63:0] clocks = 64'd0;
  integer trace;
  task rise;
    begin
      #5 clk = 1'b1;
      #1 clocks = clocks + 64'd1;
      if (trace != 0)
        $display("trace %0d state %h ply %h move %h nodes %h leaf %h flags %h", clocks, dbg_state, dbg_ply,
                 dbg_move, dbg_nodes, dbg_leaf, dbg_flags);
    end
  endtask
  task fall;
    begin
      #4 clk = 1'b0;
    end
  endtask

  reg [8*1024-1:0] path;
  reg [8*256-1:0]  rest;
  integer fd, code, line_no, events, failures, progress, kind;
  reg [31:0] rec_addr, rec_data, rec_err;
  reg [63:0] n, i;

  initial begin
    if (!$value$plusargs("record=%s", path)) begin
      $display("GATESIM FAIL no +record=FILE");
      $finish;
    end
    if (!$value$plusargs("progress=%d", progress)) progress = 0;
    if (!$value$plusargs("trace=%d", trace)) trace = 0;
    fd = $fopen(path, "r");
    if (fd == 0) begin
      $display("GATESIM FAIL cannot open %0s", path);
      $finish;
    end
    // Power-on reset as the harness does it: rst_ni low across one clock.
    rst_n = 1'b0;
    rise;
    fall;
    rst_n = 1'b1;
    line_no = 0;
    events = 0;
    failures = 0;
    while (!$feof(fd) && failures < 10) begin
      kind = $fgetc(fd);
      line_no = line_no + 1;
      if (kind == "#" || kind == "\n") begin
        if (kind == "#") code = $fgets(rest, fd);
      end else if (kind == "T") begin
        code = $fscanf(fd, " %d\n", n);
        for (i = 0; i < n; i = i + 1) begin
          rise;
          fall;
        end
        events = events + 1;
      end else if (kind == "W" || kind == "R") begin
        code = $fscanf(fd, " %h %h %d\n", rec_addr, rec_data, rec_err);
        if (code != 3) begin
          $display("GATESIM FAIL line %0d: malformed access", line_no);
          $finish;
        end
        req = 1'b1;
        we = (kind == "W");
        addr = rec_addr[16:0];
        wdata = (kind == "W") ? rec_data : 32'd0;
        rise;
        if (err !== rec_err[0] || (kind == "R" && rdata !== rec_data)) begin
          failures = failures + 1;
          $display("mismatch at line %0d (clock %0d): %0s %05h: model data %08h err %0d, netlist data %08h err %b",
                   line_no, clocks, (kind == "W") ? "write" : "read", rec_addr, rec_data, rec_err, rdata, err);
        end
        fall;
        req = 1'b0;
        we = 1'b0;
        events = events + 1;
      end else if (kind >= 0) begin
        $display("GATESIM FAIL line %0d: unknown event '%c'", line_no, kind);
        $finish;
      end
      if (progress > 0 && events > 0 && events % progress == 0 && (kind == "W" || kind == "R" || kind == "T"))
        $display("progress %0d events %0d clocks", events, clocks);
    end
    if (failures == 0) $display("GATESIM PASS %0d events %0d clocks", events, clocks);
    else $display("GATESIM FAIL %0d mismatches (stopped at 10) after %0d events", failures, events);
    $finish;
  end
endmodule
