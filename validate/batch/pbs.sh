#!/bin/bash
# PBS Pro (e.g. ALCF Polaris: 4 x A100 per node, Cray PALS mpiexec): the
# reportable suite on every GPU of the job's nodes, one suite per GPU
# (documented, not run here).
# Build first, from the repository root (clean tree), without MPI, e.g.
#   module use /soft/modulefiles; module load PrgEnv-gnu cudatoolkit-standalone
#   cmake --preset nvidia-sm80 -DPP_ENABLE_MPI=OFF && cmake --build --preset nvidia-sm80 -j 16
# Submit from the repository root (project and queue for your site):
#   qsub -A PROJECT -q debug -v PP_PRESET=nvidia-sm80 validate/batch/pbs.sh
#   qsub -A PROJECT -q prod -l select=4:system=polaris -v PP_PRESET=nvidia-sm80 validate/batch/pbs.sh
#PBS -N proxyport-suite
#PBS -l select=1
#PBS -l walltime=01:00:00
#PBS -l filesystems=home
#PBS -j oe
set -euo pipefail
cd "${PBS_O_WORKDIR:-.}"
export PP_PRESET=${PP_PRESET:-nvidia-sm80} PP_JOB=${PBS_JOBID%%.*}
source validate/batch/common.sh
nodes=$(sort -u "$PBS_NODEFILE" | wc -l)
per_node=${PP_GPUS_PER_NODE:-4}
# PALS' mpiexec binds cores (--depth, --cpu-bind depth) but not GPUs: suite-task
# sets CUDA_VISIBLE_DEVICES to each task's local rank (PALS_LOCAL_RANKID).
export PP_BIND_GPU=1
mpiexec -n $((nodes * per_node)) --ppn "$per_node" --depth 8 --cpu-bind depth \
  validate/batch/suite-task && rc=0 || rc=$?
pp_report "$rc"
