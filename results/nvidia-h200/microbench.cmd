build/nvidia-sm90/bin/microbench --backend all --size 2^24,2^26 --json <outdir>/microbench.json --csv <outdir>/microbench.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H200, 143771 MiB, 580.159.04, 1980 MHz, 3201 MHz
