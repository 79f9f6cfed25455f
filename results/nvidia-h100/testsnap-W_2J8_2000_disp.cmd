build/nvidia-sm90/bin/testsnap --backend all --case W_2J8_2000_disp --backend omp,ompx,cuda --json <outdir>/testsnap-W_2J8_2000_disp.json --csv <outdir>/testsnap-W_2J8_2000_disp.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H100 80GB HBM3, 81559 MiB, 580.159.04, 1980 MHz, 2619 MHz
