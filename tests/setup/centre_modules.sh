#!/usr/bin/env bash
# A centre's site file and preset, driven through its own module names on this
# machine: an Lmod tree whose module files stand in for the HPE Cray programming
# environment, then scripts/setup --site site/<centre>.toml (its modules loaded by
# the site reader, its preset configured, one app built) and a host-only run whose
# record names the modules. The stand-ins only choose the compiler and set the
# variables the real modules set; nothing here ran on the centre's machine.
#   perlmutter: build gnu  PrgEnv-gnu (cc: gcc-12, GCC NVPTX offload), cudatoolkit
#               (CUDA of /usr/local/cuda), craype-accel-nvidia80
#   frontier:   build amd  PrgEnv-amd (cc: clang-19, standing in for amdclang),
#               craype-accel-amd-gfx90a; rocm (Debian's ROCm) for the cray build,
#               which is not built: no stand-in for CCE
# Checks: the modules' cc built the app (its calls are logged), its build log passes
# the warnings gate (validate/warnings-gate), the build record's
# offload target is the centre's GPU, the run's record lists the loaded modules,
# and a module that cannot load stops setup in one line naming it.
# Exit 77 (CTest: skipped) without Lmod or the stand-ins' compilers.
# Usage: tests/setup/centre_modules.sh perlmutter|frontier [--keep]
set -euo pipefail
centre=${1:-} keep=0
[[ ${2:-} == --keep ]] && keep=1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
lmod_init=/usr/share/lmod/lmod/init/bash
[[ -r $lmod_init ]] || skip "Lmod not installed (apt-get install lmod; scripts/test installs it)"

case $centre in
  perlmutter)
    build=gnu arch=sm_80 offload=nvidia real_cc=$(command -v gcc-12 || true)
    [[ -d /usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none ]] || skip "gcc-12-offload-nvptx not installed"
    [[ -x /usr/local/cuda/bin/nvcc ]] || skip "no CUDA toolkit in /usr/local/cuda (the cudatoolkit stand-in)" ;;
  frontier)
    build=amd arch=gfx90a offload=amd real_cc=$(command -v clang-19 || true)
    [[ -n $real_cc ]] || skip "clang-19 not installed"
    dpkg -s rocm-device-libs >/dev/null 2>&1 || skip "rocm-device-libs not installed (scripts/setup --hip)" ;;
  *) echo "usage: tests/setup/centre_modules.sh perlmutter|frontier [--keep]" >&2; exit 2 ;;
esac
[[ -n $real_cc ]] || skip "the stand-in compiler is not installed"

work=$(mktemp -d "${TMPDIR:-/tmp}/pp-centre-$centre.XXXXXX")
((keep)) || trap 'rm -rf "$work"' EXIT
mods=$work/modules

# module NAME LUA-BODY: a module file of the stand-in tree
module_file() { mkdir -p "$(dirname "$mods/$1")"; printf '%s\n' "$2" > "$mods/$1.lua"; }
# A programming environment's cc: the compiler driver the Cray wrapper would call,
# each call logged (the build must have used this one, not /usr/bin/cc).
prgenv() {
  mkdir -p "$work/pe/$1/bin"
  printf '#!/bin/sh\necho "$*" >> %s/cc-calls\nexec %s "$@"\n' "$work" "$2" > "$work/pe/$1/bin/cc"
  chmod 755 "$work/pe/$1/bin/cc"
  module_file "PrgEnv-$1/8.5.0" "whatis(\"stand-in for PrgEnv-$1 (tests/setup/centre_modules.sh): cc is $2\")
family(\"PrgEnv\")
setenv(\"PE_ENV\", \"${1^^}\")
prepend_path(\"PATH\", \"$work/pe/$1/bin\")"
}
prgenv gnu "$(command -v gcc-12 || echo /nonexistent)"
prgenv amd "$(command -v clang-19 || echo /nonexistent)"
module_file cudatoolkit/12 'setenv("CUDA_HOME", "/usr/local/cuda")
prepend_path("PATH", "/usr/local/cuda/bin")'
module_file craype-accel-nvidia80 'setenv("CRAY_ACCEL_TARGET", "nvidia80")
setenv("MPICH_GPU_SUPPORT_ENABLED", "1")'
module_file rocm/5 'setenv("ROCM_PATH", "/usr")'
module_file craype-accel-amd-gfx90a 'setenv("CRAY_ACCEL_TARGET", "amd-gfx90a")
setenv("MPICH_GPU_SUPPORT_ENABLED", "1")'

# A login shell of the centre: Lmod, and the tree on MODULEPATH (as the centre's is).
centre_shell() {
  env -u LOADEDMODULES -u _LMFILES_ MODULEPATH="$mods" bash --noprofile --norc -c ". $lmod_init; cd $repo; $1"
}

site=$repo/site/$centre.toml
echo "==== $centre: scripts/setup --site site/$centre.toml --build $build --apps microbench"
t0=$(date +%s)
centre_shell "scripts/setup --site $site --build $build --no-install --apps microbench -j 2 -B $work/build" \
  > "$work/setup.log" 2>&1 || { tail -n 30 "$work/setup.log"; fail "$centre: scripts/setup --site failed (above)"; }
echo "built in $(( $(date +%s) - t0 )) s"
grep -q -- "-c .*microbench" "$work/cc-calls" 2>/dev/null ||
  fail "$centre: the app was not compiled by the PrgEnv module's cc ($work/cc-calls)"
grep -Eq "offload +.*$arch|$arch" "$work/setup.log" || fail "$centre: the configure does not name $arch"
# a quiet build: no warning outside .ci/warnings-allow.toml (GCC's DT_TEXTREL was one)
python3 "$repo/validate/warnings-gate" "$work/setup.log" > "$work/gate.log" 2>&1 ||
  { cat "$work/gate.log"; fail "$centre: the build printed warnings not in .ci/warnings-allow.toml"; }

mb=$work/build/bin/microbench
centre_shell "module load $(python3 -c "import sys, tomllib; b=[b for b in tomllib.load(open(sys.argv[1], 'rb'))['build'] if b['name']==sys.argv[2]][0]; print(' '.join(b['modules']))" "$site" "$build") &&
  $mb --backend host --size 4096 --kernels triad --warmup 0 --samples 2 --bootstrap 0 --json $work/r.json" \
  > "$work/run.log" 2>&1 || { tail -n 20 "$work/run.log"; fail "$centre: the host-only run failed (above)"; }
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 -B - "$work/r.json" "$centre" "$build" "$offload" "$arch" <<'EOF' || exit 1
import json, sys

from modules_loaded import loaded

path, centre, build, offload, arch = sys.argv[1:6]
d = json.load(open(path))
want = {"perlmutter": ["PrgEnv-gnu", "cudatoolkit", "craype-accel-nvidia80"],
        "frontier": ["PrgEnv-amd", "craype-accel-amd-gfx90a"]}[centre]
names = [m.split("/")[0] for m in loaded(d.get("system"))]
b = json.dumps(d.get("build", {}))
errors = [f"module {m} not in the run's record ({names})" for m in want if m not in names]
errors += [] if offload in b and arch in b else [f"build record lacks offload {offload} {arch}: {b[:200]}"]
errors += [] if d.get("validated") else ["the host run did not validate"]
print(("FAIL " + "; ".join(errors)) if errors else
      f"PASS {centre} {build}: built with the PrgEnv module's cc for {arch}, modules {', '.join(want)} recorded")
sys.exit(1 if errors else 0)
EOF

# A module the site file names that this system lacks: setup stops, one line naming it.
rm -f "$mods"/craype-accel-*.lua
rc=0
centre_shell "scripts/setup --site $site --build $build --no-install --no-build -B $work/build-missing" \
  > "$work/missing.log" 2>&1 || rc=$?
((rc != 0)) || fail "$centre: setup went on without its craype-accel module"
grep -q "site: site $centre, build $build: module load .*craype-accel.* failed" "$work/missing.log" ||
  { tail -n 5 "$work/missing.log"; fail "$centre: no line naming the module load that failed"; }
echo "PASS: $centre's site file and preset through stand-in modules (what ran: this machine's compilers, no $centre GPU)"
