#!/bin/sh
# planted.sh links|paths|drift|numbers|tables|published|energy-cost|manifest SRC: runs links.py / outside_paths.py /
# drift.py / numbers.py / validate/doc-tables / validate/published on a copy of
# the documents with faults planted, and passes only if every planted fault
# is reported (exit 1, one line each) and nothing else is.
set -u
what=$1 src=$(cd "$2" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d) || exit 2
trap 'rm -rf "$w"' EXIT
fail() { echo "planted.sh: $*"; exit 1; }

case $what in
links)
  # A copy of the real README and docs beside the rest of the tree (linked),
  # then one broken file link and one broken anchor.
  for e in "$src"/* "$src"/.[!.]*; do
    case ${e##*/} in README.md|docs|.git|build) ;; *) [ -e "$e" ] && ln -s "$e" "$w/${e##*/}" ;; esac
  done
  cp "$src/README.md" "$w/" && mkdir "$w/docs" && { cp "$src"/docs/*.md "$w/docs/" 2>/dev/null || true; }
  printf '\nSee [gone](docs/no-such-page.md) and [bad anchor](README.md#no-such-heading).\n' >> "$w/README.md"
  printf '\n[fine](../README.md) and `[in code](nowhere.md)`\n' >> "$w/docs/planted.md"
  out=$(python3 "$here/links.py" "$w" README.md docs/planted.md 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || fail "exit $rc, not 1"
  printf '%s\n' "$out" | grep -q "README.md:[0-9]*: link 'docs/no-such-page.md': no such file" || fail "missing file not reported"
  printf '%s\n' "$out" | grep -q "no heading with anchor '#no-such-heading' in README.md" || fail "missing anchor not reported"
  printf '%s\n' "$out" | grep -q "nowhere.md" && fail "a link inside a code span was checked"
  [ "$(printf '%s\n' "$out" | grep -c ': link ')" = 2 ] || fail "not exactly the two planted faults"
  ;;
paths)
  # Lines a docs page or script might carry, built here so that this file
  # does not hold them; one under results/ (excluded: raw records).
  up=.. wk=work
  mkdir -p "$w/docs" "$w/scripts" "$w/results/m"
  printf 'pack it with %s/%s/gpu/omp-runtime.sh\n' "$up" shared > "$w/docs/a.md"
  printf 'cd /%s/main && make\n' "$wk" > "$w/scripts/b.sh"
  printf 'clean line\nfrom the %s tool\n' fetch > "$w/docs/c.md"
  printf 'ran in /%s/main\n' "$wk" > "$w/results/m/raw.txt"
  printf 'fine: $work/root/bin and build/%s/x\n' "$wk" > "$w/docs/ok.md"
  out=$(python3 "$here/outside_paths.py" "$w" 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || fail "exit $rc, not 1"
  for hit in "docs/a.md:1:" "scripts/b.sh:1:" "docs/c.md:2:"; do
    printf '%s\n' "$out" | grep -q "^$hit" || fail "$hit not reported"
  done
  printf '%s\n' "$out" | grep -q "^results/\|^docs/ok.md" && fail "an excluded file or a relative path was reported"
  [ "$(printf '%s\n' "$out" | grep -c '^[a-z]*/[a-z.]*:[0-9]*:')" = 3 ] || fail "not exactly the three planted lines"
  ;;
drift)
  # The real tree (linked) with a copy of the README and docs, then four drifts: a past
  # release named as current, a count of tests, a folder that is not there (beside a
  # placeholder that is fine), a published machine without its docs/results.md row.
  for e in "$src"/* "$src"/.[!.]*; do
    case ${e##*/} in README.md|docs|.git|build) ;; *) [ -e "$e" ] && ln -s "$e" "$w/${e##*/}" ;; esac
  done
  cp "$src/README.md" "$w/" && mkdir "$w/docs" && cp "$src"/docs/*.md "$w/docs/"
  printf '\nRelease 0.0.9 is the one to use.\n' >> "$w/README.md"
  printf '\nThe cpu preset has 712 tests.\n' >> "$w/docs/testing.md"
  printf 'See `validate/no-such-folder/` and `tests/APP.cmake`.\n' > "$w/docs/planted.md"
  grep -v '^| \[nvidia-h100-x4\]' "$src/docs/results.md" > "$w/docs/results.md"
  out=$(python3 "$here/drift.py" "$w" 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || fail "exit $rc, not 1"
  for hit in "^README.md:[0-9]*: names release 0.0.9 as current" "^docs/testing.md:[0-9]*: '712 tests'" \
             "^docs/planted.md:1: \`validate/no-such-folder/\` does not exist" \
             "^docs/results.md:1: results/nvidia-h100-x4/ is published but has no row here"; do
    printf '%s\n' "$out" | grep -q "$hit" || fail "not reported: $hit"
  done
  [ "$(printf '%s\n' "$out" | grep -c '^[^ ]*:[0-9]*: ')" = 4 ] || fail "not exactly the four planted drifts"
  ;;
numbers)
  # a measured figure typed into the prose of a copy of the README: reported, with its line
  cp "$src/README.md" "$w/README.md" && printf '\nomp reaches 0.93 of cuda on triad (4.2 ms).\n' >> "$w/README.md"
  out=$(python3 "$here/numbers.py" "$src" "$w/README.md" 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || fail "exit $rc, not 1"
  [ "$(printf '%s\n' "$out" | grep -c ": typed figure '")" = 2 ] || fail "not exactly the two planted figures"
  ;;
tables)
  # a generated table of docs/performance.md with one figure changed: --check calls it stale
  sed 's/| 0\.\([0-9]\)\([0-9]*\) |/| 0.\1\19 |/' "$src/docs/performance.md" > "$w/performance.md"
  cmp -s "$src/docs/performance.md" "$w/performance.md" && fail "nothing planted (no figure to change)"
  python3 "$src/validate/doc-tables" --check "$w/performance.md"; rc=$?
  [ $rc = 1 ] || fail "exit $rc, not 1"
  ;;
published)
  # a copy of one published set with a folder named after a commit and a file no run lists
  mkdir "$w/results" && cp -r "$src/results/nvidia-h200-x4" "$w/results/" || exit 2
  mkdir "$w/results/nvidia-h200-x4/staged-4bb87db" && echo x > "$w/results/nvidia-h200-x4/staged-4bb87db/a.txt"
  out=$(python3 "$src/validate/published" check "$w/results" 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || fail "exit $rc, not 1"
  printf '%s\n' "$out" | grep -q "staged-4bb87db: a folder named after a commit" || fail "commit-named folder not reported"
  printf '%s\n' "$out" | grep -q "staged-4bb87db/a.txt: in no run's files" || fail "unlisted file not reported"
  ;;
manifest)
  # validate/published manifest on a copy of the reference set without its manifest: one run
  # per step of its publish.log (a step logged twice once), the suite's files its apps' folders
  # only, and the copy then passes the check
  mkdir "$w/results" && cp -r "$src/results/nvidia-h200" "$w/results/" || exit 2
  s=$w/results/nvidia-h200
  rm -f "$s/manifest.toml" && rm -rf "$s/clang-22" "$s/papers" "$s/gpu-check.txt" "$s"/node-*.txt
  python3 "$src/validate/published" manifest "$s" || fail "manifest: exit $?"
  m=$s/manifest.toml
  [ "$(grep -c '^\[\[run\]\]' "$m")" = "$(cut -f1 "$s/publish.log" | sort -u | grep -c .)" ] ||
    fail "not one run per step of publish.log"
  grep -q '^files = \["suite.json".*"no-energy' "$m" && fail "the suite's files take no-energy/"
  grep -q '^files = \["no-energy/\*"\]' "$m" || fail "no run for no-energy/"
  grep -q '^files = \["peers/\*"\]' "$m" || fail "no run for peers/"
  python3 "$src/validate/published" check "$w/results" || fail "the written manifest does not pass the check"
  ;;
energy-cost)
  # a copy of the reference set with its suite without energy at half the suite's time (the
  # meter 2x) and one metered row marked below the counter's resolution
  mkdir "$w/results" && cp -r "$src/results/nvidia-h200" "$w/results/" || exit 2
  s=$w/results/nvidia-h200
  [ -f "$s/no-energy/suite.json" ] || fail "the reference set has no no-energy/suite.json"
  python3 - "$s" <<'PY' || exit 2
import json, sys
s = sys.argv[1]
d = json.load(open(f"{s}/suite.json"))
for r in d["runs"]:
    r["seconds"] = r["seconds"] / 2
json.dump(d, open(f"{s}/no-energy/suite.json", "w"))
f = f"{s}/microbench/run1.json"
d = json.load(open(f))
next(r for r in d["results"] if isinstance(r["energy"], dict))["energy"]["below_counter_resolution"] = True
json.dump(d, open(f, "w"))
PY
  out=$(python3 "$src/validate/published" check "$w/results" 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || fail "exit $rc, not 1"
  printf '%s\n' "$out" | grep -q "with its energy meter, .* without: 2.00x, more than 1.5x" || fail "the meter's cost not reported"
  printf '%s\n' "$out" | grep -q "microbench/run1.json: .*: energy below the counter's resolution" || fail "the row below resolution not reported"
  [ "$(printf '%s\n' "$out" | grep -c '^published: FAIL')" = 2 ] || fail "not exactly the two planted faults"
  ;;
*) echo "usage: planted.sh links|paths|drift|numbers|tables|published SRC" >&2; exit 2 ;;
esac
echo "planted.sh: every planted fault reported"
