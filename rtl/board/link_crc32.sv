// One byte of CRC-32/ISO-HDLC (zlib, Ethernet): the reflected polynomial 0xEDB88320, shifted right
// bit by bit (eight steps unrolled, combinational). The register starts at 0xFFFFFFFF; the CRC of a
// message is the register after its bytes, inverted. Running the register over a message followed
// by its CRC (little-endian) leaves the constant residue 0xDEBB20E3, which is how the receiver checks
// a frame without knowing where its CRC starts.
module link_crc32 (
  input  logic [31:0] crc_i,
  input  logic [7:0]  data_i,
  output logic [31:0] crc_o
);
  always_comb begin
    crc_o = crc_i ^ {24'h0, data_i};
    for (int i = 0; i < 8; i++) begin
      crc_o = crc_o[0] ? ((crc_o >> 1) ^ 32'hEDB88320) : (crc_o >> 1);
    end
  end
endmodule
