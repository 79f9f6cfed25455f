"""What every group of the peers step shares: ProxyPort's options common to all
its runs, and the models that have a public peer with the launch shape each
side uses."""

# every ProxyPort run: its default spin wait named, no bootstrap and no energy meter (neither
# used here; the meter measures idle power first and may repeat rows after the timed ones)
PP_COMMON = ["--gpu-wait", "spin", "--bootstrap", "0", "--ceiling-mib", "64", "--no-energy"]
# BabelStream 5 CUDA's TBSIZE at the pinned commit (256; it also gives each thread 4 elements,
# UNROLL_FACTOR); LLVM's default team size
TPB = {"cuda": 256, "omp": 128}
PEER_MODELS = tuple(TPB)  # ProxyPort's models with a public peer, in every group
