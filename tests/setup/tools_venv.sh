#!/usr/bin/env bash
# tools_venv.sh CASE: the figures without root (scripts/tools-venv).
#   setup_hint   scripts/setup --no-install with a python3 that has no matplotlib: its one
#                warning names scripts/tools-venv, never pip install --user (Debian 12 and
#                Ubuntu 24.04 refuse it, PEP 668) nor a package only root can install
#   user_venv    as uid 65534 on a copy of the tree that user owns (a user's clone), with
#                Debian's own python3 (no matplotlib): scripts/setup --deps-only makes .venv
#                (scripts/tools-venv), and the suite run with it writes figures (the summary
#                of a run of spmv: the published H200 file, validate/suite --summarize). Needs
#                root to become that user and PyPI (or PIP_INDEX_URL): skipped (77) without.
set -u
case_=${1:?CASE}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pp-tools-venv.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

case $case_ in
  setup_hint)
    # python3 on PATH: a bare venv (no matplotlib, no pip); no tools' venv made yet
    python3 -m venv --without-pip "$work/py" || fail "python3 -m venv --without-pip failed"
    out=$(PATH=$work/py/bin:$PATH PP_TOOLS_VENV=$work/none "$repo/scripts/setup" --preset cpu -B "$work/build" \
          --no-install --deps-only 2>&1)
    echo "$out"
    line=$(grep 'matplotlib' <<<"$out") || fail "setup said nothing of the missing matplotlib"
    [[ $line == *"scripts/tools-venv"* ]] || fail "the hint does not name scripts/tools-venv: $line"
    [[ $line != *"--user"* && $line != *"python3-matplotlib"* ]] || fail "the hint needs root or PEP 668's exception: $line"
    [[ ! -e $work/none ]] || fail "--no-install made the venv"
    echo "PASS: $line" ;;
  user_venv)
    [[ $(id -u) == 0 ]] || skip "needs root to run as another user"
    command -v setpriv >/dev/null || skip "setpriv not found"
    [[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3"
    index=${PIP_INDEX_URL:-https://pypi.org/simple}
    /usr/bin/python3 -c "import urllib.request as u; u.urlopen('${index%/}/pip/', timeout=15)" 2>/dev/null ||
      skip "no package index at $index"
    mkdir -p "$work/src" "$work/home/run/spmv"
    cp "$repo/results/nvidia-h200/spmv/run1.json" "$work/home/run/spmv/run1.json"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r cp --parents -d -t "$work/src")
    chown -R 65534:65534 "$work/src" "$work/home"
    # Debian's python3 and the system's commands only: no root's pyenv nor ~/.local
    # shellcheck disable=SC2016  # the script runs as that user and expands there
    setpriv --reuid=65534 --regid=65534 --clear-groups env -i HOME="$work/home" PATH=/usr/local/bin:/usr/bin:/bin \
      LANG=C.UTF-8 ${PIP_INDEX_URL:+PIP_INDEX_URL=$PIP_INDEX_URL} bash -c '
        set -e; cd "$1"
        scripts/setup --preset cpu --deps-only >&2   # makes the venv: python3 has no matplotlib
        py=$(scripts/tools-venv --check)
        "$py" validate/suite --summarize "$HOME/run"' _ "$work/src" > "$work/out" 2>&1
    rc=$?; cat "$work/out"
    ((rc == 0)) || fail "as a user: tools-venv or the suite with it failed (exit $rc)"
    [[ -s $work/home/run/figures/spmv.png ]] || fail "no figures/spmv.png"
    grep -q 'no figure' "$work/home/run/summary.md" && fail "summary.md: $(grep 'no figure' "$work/home/run/summary.md")"
    echo "PASS: as uid 65534, .venv made and figures/spmv.png written" ;;
  *) echo "tools_venv.sh: no case '$case_'" >&2; exit 2 ;;
esac
