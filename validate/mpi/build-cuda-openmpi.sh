#!/usr/bin/env bash
# Builds a CUDA-aware Open MPI 4.1.x (same libmpi.so.40 soname as Debian 12's 4.1.4) without root,
# packs it as PREFIX.tar.xz with a relocatable `activate`. Why: binaries linked against the
# distribution's Open MPI pick this library up through LD_LIBRARY_PATH and then see
# MPIX_Query_cuda_support() = 1, so cgsolve's --halo mpi-device can run on a node whose own
# Open MPI was built without CUDA. See README.md beside this script.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: build-cuda-openmpi.sh SRC PREFIX
  SRC     Open MPI 4.1.x source: an unpacked tree with a generated ./configure, or its .tar.{gz,bz2,xz}
  PREFIX  install prefix (created); also writes PREFIX.tar.xz and PREFIX/activate
environment:
  CUDA_HOME   CUDA toolkit with include/cuda.h (default /usr/local/cuda)
  BUILD_DIR   out-of-tree build directory (default PREFIX-build; kept for rebuilds)
  JOBS        make -j (default 2); the build runs under nice -n 19
  KEEP_DOCS=1 keep man pages (removed by default to keep the tarball small)
USAGE
}
die() { echo "build-cuda-openmpi.sh: $*" >&2; exit 2; }

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -eq 2 ] || die "expected SRC PREFIX (see --help)"
src=$1
prefix=$2
cuda=${CUDA_HOME:-/usr/local/cuda}
jobs=${JOBS:-2}
[ -e "$src" ] || die "SRC '$src' does not exist"
[ -f "$cuda/include/cuda.h" ] || die "no cuda.h under '$cuda/include' (set CUDA_HOME)"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "JOBS '$jobs' is not a positive integer"
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
build=${BUILD_DIR:-$prefix-build}
mkdir -p "$build"
build=$(cd "$build" && pwd)

# A tarball is unpacked into the build directory; a tree is built out of tree (VPATH).
if [ -f "$src" ]; then
  tar -C "$build" -xf "$src"
  src=$(find "$build" -mindepth 2 -maxdepth 2 -name configure -path '*/openmpi-*' | head -1)
  [ -n "$src" ] || die "no openmpi-*/configure inside the tarball"
  src=$(dirname "$src")
fi
src=$(cd "$src" && pwd)
[ -x "$src/configure" ] || die "'$src' has no generated ./configure (a git checkout needs autogen.pl)"
ver=$(sed -n 's/^major=//p;s/^minor=//p' "$src/VERSION" | paste -sd.)
[ "$ver" = "4.1" ] || die "Open MPI $ver in '$src': want 4.1.x (libmpi.so.40 like Debian 12's 4.1.4)"

# C bindings only. Every component linked into the libraries (fewer files to carry) through
# --enable-mca-static: --disable-mca-dso would also turn dlopen off, and the CUDA support opens
# libcuda.so.1 at run time. Bundled hwloc/libevent/PMIx: the prefix needs nothing from the node
# but libc and the driver. No network transports: within one node ob1 with the smcuda BTL
# carries device buffers. ROMIO is left out (no suite app uses MPI-IO).
args=(--prefix="$prefix" --with-cuda="$cuda"
  --disable-mpi-fortran --disable-mpi-java --disable-mpi-cxx --disable-oshmem
  --enable-mca-static --disable-io-romio --disable-dependency-tracking
  --with-hwloc=internal --with-libevent=internal --with-pmix=internal
  --without-ucx --without-verbs --without-ofi --without-psm --without-psm2
  --without-portals4 --without-tm --without-lsf
  --enable-mca-no-build=reachable-netlink   # would need libnl-3, which the node may lack
  CFLAGS=-O2)
# Configured again, from empty, only when the options changed since the last run (without
# dependency tracking make would keep objects built under the old options).
if [ "$(cat "$build/obj/configure.args" 2>/dev/null)" != "${args[*]}" ]; then
  rm -rf "$build/obj"
  mkdir -p "$build/obj"
  cd "$build/obj"
  nice -n 19 "$src/configure" "${args[@]}" > configure.log 2>&1 ||
    { tail -30 configure.log >&2; die "configure failed (see $build/obj/configure.log)"; }
  echo "${args[*]}" > configure.args
fi
cd "$build/obj"
nice -n 19 make -j"$jobs" > make.log 2>&1 || { tail -40 make.log >&2; die "make failed (see $build/obj/make.log)"; }
nice -n 19 make install > install.log 2>&1 || { tail -20 install.log >&2; die "make install failed"; }

# Smaller carry: no man pages or libtool archives, symbols stripped.
[ "${KEEP_DOCS:-0}" = 1 ] || rm -rf "$prefix/share/man" "$prefix/share/doc"
find "$prefix/lib" -name '*.la' -delete
find "$prefix/lib" "$prefix/bin" -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c \
  'file -b "$1" | grep -q ELF && strip --strip-unneeded "$1"' _ {} \;

# activate: everything relative to where the prefix is unpacked (OPAL_PREFIX relocates it).
# Plain sh has no way to name the sourced file: there it must be sourced from the prefix's parent.
name=$(basename "$prefix")
cat > "$prefix/activate" <<ACT
# CUDA-aware Open MPI (validate/mpi/build-cuda-openmpi.sh): source this file. OPAL_PREFIX,
# PATH and LD_LIBRARY_PATH point at the folder it lies in, wherever that was unpacked.
if [ -n "\${BASH_SOURCE:-}" ]; then _om=\${BASH_SOURCE[0]}
elif [ -n "\${ZSH_VERSION:-}" ]; then eval '_om=\${(%):-%x}'
else _om=$name/activate   # plain sh: relative to the current folder
fi
_om=\$(cd "\$(dirname "\$_om")" && pwd)
export OPAL_PREFIX="\$_om"
export PATH="\$_om/bin\${PATH:+:\$PATH}"
export LD_LIBRARY_PATH="\$_om/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
unset _om
ACT

parent=$(dirname "$prefix")
tar -C "$parent" -cf - "$name" | xz -9 -T1 > "$prefix.tar.xz"
echo "installed: $prefix"
echo "packed:    $prefix.tar.xz ($(du -k "$prefix.tar.xz" | cut -f1) KiB)"
"$prefix/bin/ompi_info" --parsable --all | grep mpi_built_with_cuda_support:value
