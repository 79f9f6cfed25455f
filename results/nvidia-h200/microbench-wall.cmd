build/nvidia-sm90/bin/microbench --backend all --timer wall --json <outdir>/microbench-wall.json --csv <outdir>/microbench-wall.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H200, 143771 MiB, 580.159.04, 1980 MHz, 3201 MHz
