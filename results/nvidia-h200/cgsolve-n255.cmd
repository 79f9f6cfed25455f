build/nvidia-sm90/bin/cgsolve --backend all --deck inputs/minife/n255.deck --backend omp,ompx,cuda --warmup 1 --samples 5 --json <outdir>/cgsolve-n255.json --csv <outdir>/cgsolve-n255.csv
name, memory.total [MiB], driver_version, clocks.max.sm [MHz], clocks.max.memory [MHz]
NVIDIA H200, 143771 MiB, 580.159.04, 1980 MHz, 3201 MHz
