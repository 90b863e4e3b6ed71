## Digilent Arty A7-100T (xc7a100tcsg324-1): the pins arty_top uses (sites from Digilent's
## Arty-A7-100-Master.xdc). Place and route is Vivado's or openXC7's (not in Debian).

## 100 MHz oscillator; the MMCM in arty_top makes the chip's 24 MHz from it.
set_property -dict { PACKAGE_PIN E3 IOSTANDARD LVCMOS33 } [get_ports { clk_100mhz }];
create_clock -add -name sys_clk_pin -period 10.00 -waveform {0 5} [get_ports { clk_100mhz }];

## FT2232HQ channel B UART. uart_txd_in is the FTDI's output (the FPGA receives it).
set_property -dict { PACKAGE_PIN A9  IOSTANDARD LVCMOS33 } [get_ports { uart_txd_in }];
set_property -dict { PACKAGE_PIN D10 IOSTANDARD LVCMOS33 } [get_ports { uart_rxd_out }];

## The red RESET button, low when pressed.
set_property -dict { PACKAGE_PIN C2 IOSTANDARD LVCMOS33 } [get_ports { ck_rst_n }];

## LD4-LD7 (active high): 0 busy, 1 done, 2 link error, 3 MMCM locked.
set_property -dict { PACKAGE_PIN H5  IOSTANDARD LVCMOS33 } [get_ports { led[0] }];
set_property -dict { PACKAGE_PIN J5  IOSTANDARD LVCMOS33 } [get_ports { led[1] }];
set_property -dict { PACKAGE_PIN T9  IOSTANDARD LVCMOS33 } [get_ports { led[2] }];
set_property -dict { PACKAGE_PIN T10 IOSTANDARD LVCMOS33 } [get_ports { led[3] }];

set_property CFGBVS VCCO [current_design];
set_property CONFIG_VOLTAGE 3.3 [current_design];
