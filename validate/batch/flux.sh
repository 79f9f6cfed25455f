#!/bin/bash
# Flux (e.g. LLNL's El Capitan family, or any Flux instance): the reportable
# suite on every GPU of the job's nodes, one suite per GPU (documented, not run here).
# Build first, from the repository root (clean tree), without MPI, e.g.
#   scripts/setup --preset nvidia-sm80 --no-build &&
#   cmake --preset nvidia-sm80 -DPP_ENABLE_MPI=OFF && cmake --build --preset nvidia-sm80 -j 16
# Submit from the repository root:
#   PP_PRESET=nvidia-sm80 PP_GPUS_PER_NODE=4 flux batch -N 1 validate/batch/flux.sh
#   PP_PRESET=nvidia-sm80 PP_GPUS_PER_NODE=4 flux batch -N 4 validate/batch/flux.sh
# (flux batch passes the submitting environment; -N on the command line wins over the lines below.)
#flux: --job-name=proxyport-suite
#flux: -N 1
#flux: --exclusive
#flux: -t 60m
#flux: --output=proxyport-suite-{{id}}.out
set -euo pipefail
export PP_PRESET=${PP_PRESET:-nvidia-sm80} PP_JOB=${FLUX_JOB_ID:-flux}
source validate/batch/common.sh
nodes=$(flux getattr size)  # one broker per node of this batch instance
per_node=${PP_GPUS_PER_NODE:-4}
# One task per GPU; gpu-affinity=per-task gives each task its own GPU
# (CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES), cpu-affinity its own cores.
flux run -N "$nodes" -n $((nodes * per_node)) -g 1 -o gpu-affinity=per-task -o cpu-affinity=per-task \
  validate/batch/suite-task && rc=0 || rc=$?
pp_report "$rc"
