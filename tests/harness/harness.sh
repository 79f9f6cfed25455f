# Sourced by the shell test drivers after they set T (their name in messages):
# a scratch folder $w removed on exit, fail MESSAGE (exit 1), and
# run CMD... (its output in $out, last lines shown, exit code in $rc).
w=$(mktemp -d "${TMPDIR:-/tmp}/pp-test.XXXXXX")
trap 'rm -rf "$w"' EXIT
fail() { echo "$T: $*"; exit 1; }
run() { out=$("$@" 2>&1); rc=$?; printf '%s\n' "$out" | tail -3; }
