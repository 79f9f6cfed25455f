#!/usr/bin/env bash
# Checks out the public reference codes at the commits validate/refs was
# built and checked with, from bare git dirs MIRROR_ROOT/<owner>+<name>/repo
# (or from a git host such as https://github.com), into SRC_ROOT for build.sh.
set -euo pipefail
if [ $# -ne 2 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  cat <<'EOF'
usage: validate/refs/sources.sh MIRROR_ROOT SRC_ROOT
  MIRROR_ROOT/<owner>+<name>/repo: bare git dirs of ANL-CESAR/XSBench,
  UoB-HPC/BabelStream, FitSNAP/TestSNAP, kokkos/kokkos, kokkos/code-examples
  (the papers' CGSolve: branch europar2024) and rgayatri23/kokkos (the
  kernel-mode Kokkos fork: branch europar2024) (git clone --bare);
  or a URL (https://github.com): MIRROR_ROOT/<owner>/<name> is cloned.
  SRC_ROOT: a new folder outside this repository.
Also downloads nvml.h (PyPI wheel nvidia-nvml-dev 13.0.87, header only) with pip.
EOF
  exit 2
fi
M=$1; mkdir -p "$2"; S=$(cd "$2" && pwd)
# name  owner+repo  commit (kokkos: tag 4.6.01; code-examples and kokkos-kmode:
# the heads of their branches europar2024, the branch of rgayatri23/kokkos that
# code-examples' papers/europar-2024/README.md checks out)
pins="XSBench ANL-CESAR+XSBench ba08e5221af6106252b866e50ea123c69d31a4e2
BabelStream UoB-HPC+BabelStream 57637d572532fc028b6c0964944f1afc27ff5436
TestSNAP FitSNAP+TestSNAP d11d3a8ee55514d3ffb97c23cd4bcffe4d536b22
kokkos kokkos+kokkos 1b1383c6001f3bfe9fe309ca923c2d786600cc79
code-examples kokkos+code-examples 89da74fc3e28f61c169124f73a7c1d5fa08400f7
kokkos-kmode rgayatri23+kokkos 9189ab98e6a518c2ece43fdf37f689d5d881d136"
while read -r name repo rev; do
  case $M in *://*) src=$M/${repo/+//} ;; *) src=$M/$repo/repo ;; esac
  [ -d "$S/$name/.git" ] || git clone -q --no-checkout "$src" "$S/$name"
  # TestSNAP's refdata_2J8/2J14 headers are missing blobs in the public
  # mirrors (also code-examples' copy under papers/europar-2024/TestSNAP):
  # check out everything else (build.sh generates the 2J14 one).
  git -C "$S/$name" update-ref --no-deref HEAD "$rev"
  git -C "$S/$name" checkout -q "$rev" -- . ':(exclude,glob)**/src/refdata_2J8_W.h' ':(exclude,glob)**/src/refdata_2J14_W.h'
  echo "sources.sh: $name $(git -C "$S/$name" rev-parse HEAD)"
done <<< "$pins"
if [ ! -e "$S/nvml" ]; then
  pip download -q --no-deps -d "$S/nvml-wheel" 'nvidia-nvml-dev==13.0.87'
  python3 -m zipfile -e "$S"/nvml-wheel/*.whl "$S/nvml"
fi
find "$S/nvml" -name nvml.h
