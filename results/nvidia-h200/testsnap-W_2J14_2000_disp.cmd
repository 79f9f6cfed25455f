build/nvidia-sm90/bin/testsnap --backend all --case W_2J14_2000_disp --json <outdir>/testsnap-W_2J14_2000_disp.json --csv <outdir>/testsnap-W_2J14_2000_disp.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H200, 143771 MiB, 580.159.04, 1980 MHz, 3201 MHz
