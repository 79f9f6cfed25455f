#!/bin/sh
# Installs ReFrame (PyPI "reframe-hpc", 4.x) into validate/reframe/.venv and
# prints its version; idempotent. Then: validate/reframe/.venv/bin/reframe ...
set -e
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/.venv/bin/python" ] || python3 -m venv "$here/.venv"
"$here/.venv/bin/python" -c 'import reframe' 2>/dev/null ||
  "$here/.venv/bin/pip" install --quiet 'reframe-hpc>=4.6,<5'
"$here/.venv/bin/reframe" --version
