#!/usr/bin/env bash
# gpu_present.sh CASE: scripts/gpu-present, and scripts/run with a GPU preset, on a
# machine made to look as CASE says: stand-ins for nvidia-smi / rocminfo first on
# PATH, the driver's files under an empty folder (PP_GPU_PROBE_ROOT), so no real GPU
# or driver of the test machine is seen. Prints what the command printed; exits with
# its exit code (CTest's EXPECT checks both).
# The run_* cases also put traps for apt-get, sudo, cmake, curl and wget on PATH, each
# recording its call: run_refuses must exit before any is called (exit 99 if one was:
# something was installed, downloaded or configured), run_build_only must get past the
# check to one of them (exit 98 if it stopped at the check).
set -u
case_=${1:?CASE}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pp-gpu-present.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/bin" "$work/root"
export PP_GPU_PROBE_ROOT=$work/root
stub() {  # stub NAME EXIT TEXT: a command that prints TEXT and exits EXIT
  printf '#!/bin/sh\ncat <<"EOF"\n%s\nEOF\nexit %s\n' "$3" "$2" > "$work/bin/$1"
  chmod 755 "$work/bin/$1"
}
# PATH without any real nvidia-smi/rocminfo: the stand-ins folder, then a folder of links
# to every other command of the test machine's PATH (for run_refuses_user, of the folders
# that user may search: root's own, such as a pyenv's shims, are left out)
mkdir -p "$work/sys"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  if [[ $case_ == run_refuses_user && $(id -u) == 0 ]] && ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$d" 2>/dev/null; then
    continue
  fi
  for f in "$d"/*; do
    n=${f##*/}
    [[ -x $f && ! -e $work/sys/$n && $n != nvidia-smi && $n != rocminfo ]] && ln -s "$f" "$work/sys/$n"
  done
done
export PATH=$work/bin:$work/sys

probe() { "$repo/scripts/gpu-present" "$@"; }
kfd_node() {  # kfd_node N GFX_TARGET_VERSION
  mkdir -p "$work/root/dev" "$work/root/sys/class/kfd/kfd/topology/nodes/$1"
  : > "$work/root/dev/kfd"
  echo "gfx_target_version $2" > "$work/root/sys/class/kfd/kfd/topology/nodes/$1/properties"
}
run_traps() {
  for t in apt-get sudo cmake curl wget; do
    # shellcheck disable=SC2016  # $1 and $* belong to the stand-in
    printf '#!/bin/sh\n[ "$1" = --version ] && [ %s = cmake ] && { echo "cmake version 3.28.0"; exit 0; }\necho "%s $*" >> "%s/called"\nexit 100\n' \
      "$t" "$t" "$work" > "$work/bin/$t"
    chmod 755 "$work/bin/$t"
  done
}
as_user() {  # the command as uid 65534 with its own HOME, when this runs as root
  [[ $(id -u) == 0 ]] || { echo "SKIP: needs root to run as another user"; exit 77; }
  command -v setpriv >/dev/null || { echo "SKIP: setpriv not found"; exit 77; }
  mkdir -p "$work/home" && chown 65534:65534 "$work/home"
  HOME=$work/home setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

case $case_ in
  nvidia_none) probe nvidia sm_90 ;;
  nvidia_other_arch) stub nvidia-smi 0 "NVIDIA A100-SXM4-80GB, 8.0"; probe nvidia sm_90 ;;
  nvidia_right_arch) stub nvidia-smi 0 $'NVIDIA H100 80GB HBM3, 9.0\nNVIDIA H100 80GB HBM3, 9.0'; probe nvidia sm_90 ;;
  nvidia_no_devices) stub nvidia-smi 6 "No devices were found"; probe nvidia sm_90 ;;
  nvidia_no_driver) stub nvidia-smi 9 "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
                    probe nvidia sm_80 ;;
  nvidia_driver_only) mkdir -p "$work/root/proc/driver/nvidia/gpus/0000:01:00.0"; probe nvidia sm_90 ;;
  amd_rocminfo_right) stub rocminfo 0 $'Agent 1\n  Name:                    AMD EPYC 7A53\nAgent 2\n  Name:                    gfx90a\n  Marketing Name:          AMD Instinct MI250X'
                      probe amd gfx90a ;;
  amd_kfd_other_arch) kfd_node 0 0; kfd_node 1 90402; probe amd gfx90a ;;
  amd_none) stub rocminfo 1 "ROCk module is NOT loaded, possibly no GPU devices"; probe amd gfx90a ;;
  run_refuses|run_refuses_user|run_build_only)
    run_traps
    args=(--preset nvidia-sm90 -B "$work/build")
    [[ $case_ == run_build_only ]] && args+=(--build-only --no-install)
    export PP_TOOLCHAIN=$work/toolchain
    if [[ $case_ == run_refuses_user ]]; then
      as_user "$repo/scripts/run" "${args[@]}"
    else
      "$repo/scripts/run" "${args[@]}"
    fi
    rc=$?
    if [[ $case_ == run_build_only ]]; then
      [[ -e $work/called ]] || { echo "FAIL: --build-only stopped before configuring or downloading"; exit 98; }
      echo "went on to: $(head -n1 "$work/called")"
      exit 0
    fi
    [[ ! -e $work/called ]] || { echo "FAIL: called before refusing: $(tr '\n' ';' < "$work/called")"; exit 99; }
    [[ ! -e $work/build ]] || { echo "FAIL: $work/build was made"; exit 99; }
    exit $rc ;;
  *) echo "gpu_present.sh: no case '$case_'" >&2; exit 2 ;;
esac
