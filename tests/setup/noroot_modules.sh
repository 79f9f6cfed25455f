#!/usr/bin/env bash
# The centre route as a user without root: compilers only from environment
# modules (Lmod), nothing installed, everything from a site file.
#   1. as root: Lmod (Debian's lmod package; --install-lmod installs it when
#      missing: the scripts/test step's scaffolding), a copy of the source tree (tracked and untracked files, as a
#      user's own clone), module files pp-llvm/19 and pp-gcc/12 whose bin/ holds
#      only clang-19 / gcc-12, a PATH with every command of /usr/bin and /bin
#      except the compilers, and apt-get/apt/sudo/su/dpkg replaced by traps that
#      record any call and fail;
#   2. as uid 65534 (nobody) with its own HOME: scripts/run --site noroot.toml
#      (configure, build of microbench and spmv, suite --scale small --fast) for
#      each build of the site file: clang-19 (cpu preset) and gcc-12 (host-gcc).
# Fails if a step fails, a trap was called, a suite row did not validate, a result
# lacks the compiler of its module, the site file (site_file, from PP_SITE_FILE) or
# the module in its system record, or a compiler was found without its module
# Planted faults (each must make the test fail): NOROOT_FAULT=path-leak puts
# clang-19 back on the user's PATH; NOROOT_FAULT=apt makes the copy's
# scripts/setup call apt-get first, as a setup that installs unasked would;
# NOROOT_FAULT=no-site-record unsets PP_SITE_FILE in the copy's scripts/run
# before the suite (the results then lack the site file).
# Exit 77 (CTest: skipped) without root, or without Lmod (and no --install-lmod).
# Usage: tests/setup/noroot_modules.sh [--install-lmod] [--keep]   (--keep: leave the work folder)
set -euo pipefail
keep=0 install_lmod=0
for a; do
  case $a in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --keep) keep=1 ;;
    --install-lmod) install_lmod=1 ;;
    *) echo "noroot_modules: unknown argument '$a' (see --help)" >&2; exit 2 ;;
  esac
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[[ $(id -u) == 0 ]] || skip "needs root to drop to another user and to lay out the module tree (run as root in CI)"
command -v setpriv >/dev/null || skip "setpriv (util-linux) not found"
lmod_init=/usr/share/lmod/lmod/init/bash
if [[ ! -r $lmod_init ]]; then
  ((install_lmod)) || skip "Lmod not installed (apt-get install lmod, or run this with --install-lmod)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 lmod >/dev/null 2>&1 ||
    skip "Lmod not installed and 'apt-get install lmod' failed (no network?)"
fi
[[ -r $lmod_init ]] || skip "Lmod's $lmod_init not found after installing lmod"
for c in clang-19 gcc-12 cmake python3; do command -v "$c" >/dev/null || skip "$c not installed"; done

uid=65534 gid=65534
work=$(mktemp -d "${TMPDIR:-/tmp}/pp-noroot.XXXXXX")
((keep)) || trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/src" "$work/home" "$work/sysbin" "$work/traps" "$work/modules/pp-llvm" "$work/modules/pp-gcc" \
  "$work/tools/llvm-19/bin" "$work/tools/gcc-12/bin"

# The source tree as a user's clone has it (no build outputs).
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r cp --parents -d -t "$work/src" 2>/dev/null) ||
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
     [[ -e $f || -L $f ]] && cp --parents -d "$f" "$work/src"; done)

# PATH without compilers: every command of /usr/bin and /bin but these.
is_compiler() { [[ $1 =~ ^(cc|c\+\+|c89|c99|cpp|gcc|g\+\+|clang|clang\+\+|.*-gcc|.*-g\+\+|.*-cc)(-[0-9.]+)?$ ||
                   $1 =~ ^(clang|gcc|g\+\+|cpp|clang-cpp|clang\+\+|nvcc|hipcc|mpicc|mpicxx|mpic\+\+|ld\.lld|lld)(-[0-9.]+)?$ ]]; }
for d in /usr/local/bin /usr/bin /bin; do
  for f in "$d"/*; do
    n=${f##*/}
    [[ -e $work/sysbin/$n ]] && continue
    is_compiler "$n" && continue
    ln -s "$f" "$work/sysbin/$n"
  done
done
# Traps: any package manager or privilege call is recorded and fails.
for t in apt-get apt apt-cache sudo su dpkg pip pip3; do
  rm -f "$work/sysbin/$t"
  printf '#!/bin/sh\necho "%s $*" >> %s/traps/called\necho "noroot test: %s is not allowed here" >&2\nexit 100\n' \
    "$t" "$work" "$t" > "$work/sysbin/$t"
  chmod 755 "$work/sysbin/$t"
done
if [[ ${NOROOT_FAULT:-} == path-leak ]]; then ln -s /usr/bin/clang-19 "$work/sysbin/clang-19"; fi

# Module files: one compiler each (its LLVM/GCC finds its own tools from its real path).
ln -s /usr/bin/clang-19 "$work/tools/llvm-19/bin/clang-19"
ln -s /usr/bin/gcc-12 "$work/tools/gcc-12/bin/gcc-12"
cat > "$work/modules/pp-llvm/19.lua" <<EOF
whatis("LLVM 19 (Debian's clang-19), for the noroot test")
family("compiler")
prepend_path("PATH", "$work/tools/llvm-19/bin")
EOF
cat > "$work/modules/pp-gcc/12.lua" <<EOF
whatis("GCC 12 (Debian's gcc-12), for the noroot test")
family("compiler")
prepend_path("PATH", "$work/tools/gcc-12/bin")
EOF

# The site file: both builds, their modules, a small suite of two apps.
cat > "$work/noroot.toml" <<EOF
format = "proxyport-site/1"
[site]
name = "noroot"
description = "module-only build as a user without root (tests/setup/noroot_modules.sh)"
[run]
scale = "small"
apps = ["microbench", "spmv"]
repeat = 1
fast = true
env = { OMP_NUM_THREADS = "2", OMP_WAIT_POLICY = "passive" }
[scheduler]
type = "local"
[[build]]
name = "clang-19"
preset = "cpu"
cc = "clang-19"
module_use = ["$work/modules"]
modules = ["pp-llvm/19"]
cmake = ["-DPP_BUILD_TESTS=OFF", "-DPP_ENABLE_MPI=OFF"]
default = true
[[build]]
name = "gcc-12"
preset = "host-gcc"
cc = "gcc-12"
module_use = ["$work/modules"]
modules = ["pp-gcc/12"]
cmake = ["-DPP_BUILD_TESTS=OFF", "-DPP_ENABLE_MPI=OFF"]
EOF
chown -R "$uid:$gid" "$work/src" "$work/home" "$work/traps"

# As the user: a login-like environment with no compiler and no root.
as_user() {
  setpriv --reuid="$uid" --regid="$gid" --clear-groups --reset-env -- \
    env -i HOME="$work/home" USER=nobody LOGNAME=nobody PATH="$work/sysbin" LANG=C.UTF-8 TMPDIR="$work/home" \
    bash --noprofile --norc -c "$1"
}
as_user 'test "$(id -u)" != 0' || fail "the user step still runs as root"
leak=$(as_user 'command -v clang-19 gcc-12 cc gcc clang 2>/dev/null' || true)
[[ -z $leak ]] || fail "compilers are on the user's PATH without a module: $leak"
as_user "source $lmod_init && module use $work/modules && module load pp-llvm/19 && command -v clang-19 >/dev/null" ||
  fail "module load pp-llvm/19 does not give clang-19"

rc=0
if [[ ${NOROOT_FAULT:-} == no-site-record ]]; then  # scripts/run no longer passes PP_SITE_FILE on
  sed -i 's/^  eval "\$code"$/  eval "$code"; unset PP_SITE_FILE/' "$work/src/scripts/run"
  grep -q 'unset PP_SITE_FILE' "$work/src/scripts/run" || fail "could not plant no-site-record"
fi
if [[ ${NOROOT_FAULT:-} == apt ]]; then
  sed -i '0,/^set -euo pipefail$/s//set -euo pipefail\napt-get -y -q update/' "$work/src/scripts/setup"
fi
for b in clang-19 gcc-12; do
  echo "==== build $b: scripts/run --site noroot.toml --build $b"
  t0=$(date +%s)
  # the user's shell has no module function: the site reader initializes Lmod itself
  as_user "cd $work/src && scripts/run --site $work/noroot.toml --build $b -j 2 --out $work/home/runs-$b" \
    > "$work/run-$b.log" 2>&1 || { rc=$?; tail -n 25 "$work/run-$b.log"; echo "FAIL: build $b: scripts/run exit $rc"; }
  echo "build $b: $(( $(date +%s) - t0 )) s"
  [[ -f $work/traps/called ]] && { cat "$work/traps/called"; fail "a package manager or sudo was called (above)"; }
  ((rc == 0)) || exit 1
  PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" python3 -B - "$work/home/runs-$b" "$b" "$work/noroot.toml" <<'EOF' || exit 1
import glob, json, os, sys

from modules_loaded import loaded

out, build, site = sys.argv[1:4]
files = sorted(glob.glob(os.path.join(out, "*", "run1.json")))
apps = {os.path.basename(os.path.dirname(f)) for f in files}
errors = [] if apps == {"microbench", "spmv"} else [f"results of {sorted(apps)}, want microbench and spmv"]
want_cc = {"clang-19": "clang", "gcc-12": "gcc"}[build]
want_mod = {"clang-19": "pp-llvm/19", "gcc-12": "pp-gcc/12"}[build]
for f in files:
    d = json.load(open(f))
    if not d.get("validated") or not d["results"] or not all(r["valid"] for r in d["results"]):
        errors.append(f"{f}: not every row validated")
    cc = json.dumps(d.get("build", {})).lower()
    if want_cc not in cc:
        errors.append(f"{f}: build record does not name {want_cc}")
    sf = d.get("site_file")
    if not isinstance(sf, dict) or sf.get("path") != site:
        errors.append(f"{f}: site_file is not {site} (PP_SITE_FILE): {str(sf)[:80]}")
    if want_mod not in set(loaded(d.get("system"))):
        errors.append(f"{f}: the system record's loaded modules lack {want_mod}")
print(("FAIL " + "; ".join(errors)) if errors else
      f"PASS build {build}: {len(files)} result files validated, compiler from its module {want_mod}, "
      "the site file and the module recorded")
sys.exit(1 if errors else 0)
EOF
done
grep -q "PP_SITE_FILE=$work/noroot.toml" "$work/run-clang-19.log" || fail "setup did not export PP_SITE_FILE"
echo "PASS: configure, build and suite as uid $uid with compilers only from modules, no package manager, no root"
