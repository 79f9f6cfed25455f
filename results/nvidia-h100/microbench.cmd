build/nvidia-sm90/bin/microbench --backend all --backend omp,ompx,cuda --size 2^24,2^26 --json <outdir>/microbench.json --csv <outdir>/microbench.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H100 80GB HBM3, 81559 MiB, 580.159.04, 1980 MHz, 2619 MHz
