build/nvidia-sm90/bin/xsbench_like --backend all -s large --variant all --json <outdir>/xsbench-large.json --csv <outdir>/xsbench-large.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H200, 143771 MiB, 580.159.04, 1980 MHz, 3201 MHz
