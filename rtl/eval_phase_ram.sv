// The game phase RAM of the fast evaluation: 1024 words of 16 bits addressed by the two sides'
// material signatures, in three copies that the host always writes together. Two copies are read
// every clock with the next clock's signatures (the word for white's view and the word with the
// signatures swapped, black's view), so their words always belong to the current counts; a host
// write of the word being read shows at once (write-first, the bypass comparing the addresses).
// The third copy serves host reads: the word of a request clock's address is on host_rdata_o in
// the response clock; a clock that writes does not read it. Block RAM on an FPGA (one DP16KD a
// copy on ECP5); no reset, as a RAM macro. A module of its own so that the whole-chip synthesis
// check treats it as a black box instead of building 48 kbit of flip-flops.
module eval_phase_ram (
  input  logic        clk_i,
  input  logic        we_i,
  input  logic [9:0]  addr_i,          // host port: write address, or read address when !we_i
  input  logic [15:0] wdata_i,
  output logic [15:0] host_rdata_o,
  input  logic [9:0]  phase_addr_i,    // next clock's signatures, white's view
  input  logic [9:0]  swap_addr_i,     // next clock's signatures, swapped
  output logic [15:0] phase_o,
  output logic [15:0] swap_o
);
  (* ram_style = "block" *) logic [15:0] ram_phase [1024];
  (* ram_style = "block" *) logic [15:0] ram_swap [1024];
  (* ram_style = "block" *) logic [15:0] ram_host [1024];
  logic [15:0] phase_q, swap_q, host_q, wdata_q;
  logic        phase_hit_q, swap_hit_q;
  logic        phase_hit, swap_hit;
  // Write-first without asking Yosys to infer it: a clock that writes the word a copy reads skips
  // that read (so there is no read-during-write collision) and remembers the written word, which
  // the output shows instead of the RAM's (stale) register for that one clock. Inside the whole
  // chip, Yosys 0.23 could not map a bypass written before the read register ("soft transparency
  // logic is inconsistent"); after it, each copy is a plain DP16KD with 17 flip-flops beside it.
  assign phase_hit = we_i && addr_i == phase_addr_i;
  assign swap_hit  = we_i && addr_i == swap_addr_i;
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      ram_phase[addr_i] <= wdata_i;
      ram_swap[addr_i]  <= wdata_i;
      ram_host[addr_i]  <= wdata_i;
    end else begin
      host_q <= ram_host[addr_i];
    end
    if (!phase_hit) phase_q <= ram_phase[phase_addr_i];
    if (!swap_hit) swap_q <= ram_swap[swap_addr_i];
    phase_hit_q <= phase_hit;
    swap_hit_q  <= swap_hit;
    wdata_q     <= wdata_i;
  end
  assign host_rdata_o = host_q;
  assign phase_o      = phase_hit_q ? wdata_q : phase_q;
  assign swap_o       = swap_hit_q ? wdata_q : swap_q;
endmodule
