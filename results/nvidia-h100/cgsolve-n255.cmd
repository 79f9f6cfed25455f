build/nvidia-sm90/bin/cgsolve --backend all --deck inputs/minife/n255.deck --backend omp,ompx,cuda --warmup 1 --samples 5 --json <outdir>/cgsolve-n255.json --csv <outdir>/cgsolve-n255.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H100 80GB HBM3, 81559 MiB, 580.159.04, 1980 MHz, 2619 MHz
