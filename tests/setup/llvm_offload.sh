#!/usr/bin/env bash
# llvm_offload.sh: scripts/llvm-offload's refusals, without building anything, in an
# empty PP_TOOLCHAIN with apt-get and sudo replaced by traps that record a call and
# fail: usage errors exit 2; --check of an empty folder exits 1; a tarball whose sha256
# is not LLVM 22.1.8's is refused (exit 1, one line) before any package or download is
# touched; with --no-install the run stops with one line (the missing packages, or the
# download that the trap refuses), never a partial toolchain; scripts/setup of a clang22
# preset goes through it. Exit 0 when every check holds.
# shellcheck disable=SC2016,SC2317  # the checks are strings eval'd by check()
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pp-llvm-offload.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$repo/tests/harness/traps.sh"
traps "$work" apt-get sudo
fails=0
check() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
lo() { PP_TOOLCHAIN=$work/tc PATH=$work/trap:$PATH "$repo/scripts/llvm-offload" "$@" > "$work/out" 2>&1; echo $? > "$work/rc"; }
rc() { cat "$work/rc"; }
errors() { grep -c 'ERROR' "$work/out"; }

lo --help
check "--help exits 0 and names the sha256" '[[ $(rc) == 0 ]] && grep -q b49b9277aef97616 "$work/out"'
lo --bogus
check "an unknown argument exits 2" '[[ $(rc) == 2 ]]'
lo -j x
check "-j x exits 2" '[[ $(rc) == 2 ]]'
lo --check
check "--check of an empty folder exits 1 and makes nothing" '[[ $(rc) == 1 && ! -e $work/tc ]]'
echo "not LLVM" > "$work/fake.tar.xz"
lo --source "$work/fake.tar.xz" --no-install
check "a tarball of another sha256 is refused in one line, nothing touched" \
  '[[ $(rc) == 1 && $(errors) == 1 ]] && grep -q "refused" "$work/out" && [[ ! -e $work/called && ! -e $work/tc ]]'
rm -f "$work/called"
lo --no-install
check "--no-install stops in one line (missing packages, or the refused download)" \
  '[[ $(rc) == 1 && $(errors) == 1 ]] && grep -qE "missing packages|not downloaded|source index|update" "$work/out" && [[ ! -e $work/tc/llvm-22/toolchain.txt ]]'
echo "  (it said: $(grep ERROR "$work/out"))"
rm -f "$work/called"
PP_TOOLCHAIN=$work/tc PATH=$work/trap:$PATH "$repo/scripts/setup" --preset nvidia-sm90-clang22 --no-install --deps-only \
  > "$work/out" 2>&1
check "scripts/setup --preset nvidia-sm90-clang22 goes through scripts/llvm-offload" \
  'grep -q "llvm-offload" "$work/out" && ! grep -q "^==> setup: dependencies ready" "$work/out"'
((fails == 0)) && echo "llvm_offload.sh: all checks passed"
exit $((fails > 0))
