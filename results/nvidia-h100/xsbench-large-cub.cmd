build/nvidia-sm90/bin/xsbench_like --backend all -s large --backend cuda --variant sorted-material,sorted-energy --sort vendor --json <outdir>/xsbench-large-cub.json --csv <outdir>/xsbench-large-cub.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H100 80GB HBM3, 81559 MiB, 580.159.04, 1980 MHz, 2619 MHz
