build/nvidia-sm90/bin/spmv --backend all --deck inputs/minife/n150.deck --json <outdir>/spmv-n150.json --csv <outdir>/spmv-n150.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H100 80GB HBM3, 81559 MiB, 580.159.04, 1980 MHz, 2619 MHz
