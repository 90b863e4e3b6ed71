// The controller's move stack: per ply, the move searched there (the generator's "last move") and
// what unmaking it needs. Two write ports: the entry of the move made at the current ply, and a
// move word anywhere (the generator resets a ply's move to 0 when it starts it). One read port, at
// the current ply. Model twin: host/chip/model/ctrl_stack.h.
module ctrl_stack (
  input  logic                 clk_i,
  input  logic [4:0]           ply_i,          // read address; the entry port writes here too
  output logic [15:0]          move_o,
  output ctrl_pkg::stk_entry_t entry_o,
  input  logic                 entry_we_i,
  input  ctrl_pkg::stk_entry_t entry_wdata_i,
  input  logic                 move_we_i,
  input  logic [4:0]           move_waddr_i,
  input  logic [15:0]          move_wdata_i
);
  localparam int StackDepth = chip_pkg::STACK_DEPTH;

  // No reset: entries are written before they are read.
  logic [15:0]          move_q  [StackDepth];
  // The entries are stored as plain vectors: Yosys 0.23 drops the unpacked dimension of an array
  // of a packed struct type (it made one entry of 32), which the gate-level check found
  // (docs/fpga.md); Verilator reads both forms alike.
  logic [$bits(entry_wdata_i)-1:0] entry_q [StackDepth];

  always_ff @(posedge clk_i) begin
    if (entry_we_i) entry_q[ply_i] <= entry_wdata_i;
    if (move_we_i) move_q[move_waddr_i] <= move_wdata_i;
  end

  assign move_o  = move_q[ply_i];
  assign entry_o = entry_q[ply_i];
endmodule
