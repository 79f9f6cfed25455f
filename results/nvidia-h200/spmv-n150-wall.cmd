build/nvidia-sm90/bin/spmv --backend all --deck inputs/minife/n150.deck --timer wall --json <outdir>/spmv-n150-wall.json --csv <outdir>/spmv-n150-wall.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H200, 143771 MiB, 580.159.04, 1980 MHz, 3201 MHz
