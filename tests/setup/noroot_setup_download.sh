#!/usr/bin/env bash
# noroot_setup_download.sh PRESET none|download: scripts/setup --deps-only
# --no-install for PRESET with an empty toolchain folder (PP_TOOLCHAIN) and
# apt-get/sudo replaced by traps that record a call and fail. "none": setup
# must succeed without calling them (no legacy CUDA root download: the cpu
# preset never uses it); "download": it must try the download (an NVIDIA
# preset with clang-19 and CUDA >= 13 needs the root), so the trap must fire.
set -u
preset=${1:?PRESET} want=${2:?none|download}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pp-setup-dl.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$repo/tests/harness/traps.sh"
traps "$work" apt-get sudo
PP_TOOLCHAIN=$work/tc PATH=$work/trap:$PATH "$repo/scripts/setup" --preset "$preset" --no-install --deps-only
rc=$?
echo "setup exit $rc; trap calls: $(head -n 2 "$work/called" 2>/dev/null | tr '\n' ';')"
case $want in
  none) [[ $rc == 0 && ! -e $work/called && ! -e $work/tc/cuda-legacy ]] && echo "PASS: no download" && exit 0 ;;
  download) [[ -e $work/called ]] && echo "PASS: the download was tried" && exit 0 ;;
esac
echo "FAIL: want $want"
exit 1
