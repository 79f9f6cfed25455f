#!/bin/sh
# reframe_check.sh OUT [reframe options...]: ReFrame with the checks of
# validate/reframe and the site config validate/reframe/config/$PP_RFM_SITE.py
# (default local), stage and output under OUT. Uses $PP_REFRAME,
# else validate/reframe/.venv/bin/reframe (validate/reframe/install.sh), else
# reframe on PATH; without any, exits 77 (CTest: skipped).
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$1; shift
rf=${PP_REFRAME:-}
[ -n "$rf" ] || { [ -x "$repo/validate/reframe/.venv/bin/reframe" ] && rf=$repo/validate/reframe/.venv/bin/reframe; }
[ -n "$rf" ] || rf=$(command -v reframe) ||
  { echo "reframe_check: ReFrame is not installed (validate/reframe/install.sh)"; exit 77; }
# the checks import the tools' package (validate/pptools), whichever ReFrame runs them
export PYTHONPATH="$repo/validate${PYTHONPATH:+:$PYTHONPATH}"
exec "$rf" -C "$repo/validate/reframe/config/${PP_RFM_SITE:-local}.py" -c "$repo/validate/reframe" --prefix "$out" "$@"
