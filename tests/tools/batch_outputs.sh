#!/bin/sh
# batch_outputs.sh [FILE...]: the file each job script of validate/batch makes
# its scheduler write (Slurm --output, Flux --output, PBS's NAME.oID / NAME.eID
# in the submission folder, usually the checkout) is ignored by git, so a job
# never leaves an uncommitted change that a later reportable run must refuse.
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
# A release tarball (Spack's stage) has no git to ask: skipped (77) with the reason.
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "skipped: $repo is not a git checkout"; exit 77; }
[ $# -gt 0 ] || set -- validate/batch/*
rc=0 n=0
for f; do
  names=$(sed -n \
    -e 's/^#SBATCH  *--output=\([^ ]*\).*/\1/p' -e 's/^#SBATCH  *-o  *\([^ ]*\).*/\1/p' \
    -e 's/^#flux:  *--output=\([^ ]*\).*/\1/p' "$f" |
    sed -e 's/%j/4242/g' -e 's/%x/job/g' -e 's/{{id}}/f4242/g')
  pbs=$(sed -n 's/^#PBS  *-N  *\([^ ]*\).*/\1/p' "$f")
  [ -n "$pbs" ] && names="$names $pbs.o4242 $pbs.e4242"
  for name in $names; do
    n=$((n + 1))
    if ! git check-ignore -q --no-index -- "$name"; then
      echo "batch_outputs: $f: the job writes '$name' into the tree, and git does not ignore it"
      rc=1
    fi
  done
done
[ $rc = 0 ] && echo "batch_outputs: $n job output names, all ignored by git"
exit $rc
