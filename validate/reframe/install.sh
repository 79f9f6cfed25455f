#!/bin/sh
# Installs ReFrame (PyPI "reframe-hpc", 4.x) into validate/reframe/.venv, puts
# validate/ on that environment's path (pptools.pth: the checks import the tools'
# package, validate/pptools; run this again after moving the repository) and
# prints its version; idempotent. Then: validate/reframe/.venv/bin/reframe ...
#   install.sh --download DIR [PYVER]  wheels for a machine without PyPI (default
#                                      Python 3.12, x86_64 Linux) into DIR, ~9 MB:
#                                      polars, which only ReFrame's results
#                                      database uses, is left out
#   install.sh --offline DIR           install from those wheels
set -e
here=$(cd "$(dirname "$0")" && pwd)
spec='reframe-hpc>=4.6,<5'
case ${1:-} in
  --download)
    python3 -m pip download --quiet --only-binary=:all: --python-version "${3:-3.12}" \
      --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
      -d "$2" "$spec"
    rm -f "$2"/polars*.whl
    ls "$2"; exit 0 ;;
esac
[ -x "$here/.venv/bin/python" ] || python3 -m venv "$here/.venv"
if ! "$here/.venv/bin/python" -c 'import reframe' 2>/dev/null; then
  case ${1:-} in
    --offline) "$here/.venv/bin/pip" install --quiet --no-index --no-deps "$2"/*.whl ;;
    *) "$here/.venv/bin/pip" install --quiet "$spec" ;;
  esac
fi
site=$("$here/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
(cd "$here/.." && pwd) > "$site/pptools.pth"
"$here/.venv/bin/reframe" --version
