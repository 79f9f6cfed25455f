#!/bin/sh
# layout.sh TESTS_DIR: tests/ is by subject (tests/README.md): its only files are
# CMakeLists.txt and README.md, every folder in it has its row in README.md's table
# ("| `NAME/` |"), and every row there is a folder. Exit 1 with one line for each test
# file dropped at the top, folder without its row or row without its folder; 0 none.
# layout.sh --planted TESTS_DIR: the check on a copy of TESTS_DIR's top level (linked)
# with a test file planted at the top and a folder no row describes: it must report
# both, and nothing else (exit 0 then).
set -u
if [ "${1:-}" = --planted ]; then
  src=$(cd "$2" && pwd) || exit 2
  w=$(mktemp -d) || exit 2
  trap 'rm -rf "$w"' EXIT
  for e in "$src"/*; do ln -s "$e" "$w/${e##*/}"; done
  printf 'int main(void) { return 0; }\n' > "$w/test_planted.c"
  mkdir "$w/planted"
  out=$(sh "$0" "$w" 2>&1); rc=$?
  printf '%s\n' "$out"
  [ $rc = 1 ] || { echo "layout --planted: exit $rc, not 1"; exit 1; }
  printf '%s\n' "$out" | grep -q "^layout: tests/test_planted.c: a file at the top" ||
    { echo "layout --planted: the planted file was not reported"; exit 1; }
  printf '%s\n' "$out" | grep -q "^layout: tests/planted/: a folder without its row" ||
    { echo "layout --planted: the planted folder was not reported"; exit 1; }
  [ "$(printf '%s\n' "$out" | grep -c '^layout: tests/')" = 2 ] ||
    { echo "layout --planted: not exactly the two planted entries"; exit 1; }
  echo "layout --planted: both planted entries reported"
  exit 0
fi
dir=${1:?usage: layout.sh [--planted] TESTS_DIR}
[ -f "$dir/README.md" ] || { echo "layout: $dir/README.md: no such file"; exit 2; }
bad=0 folders=0
for e in "$dir"/* "$dir"/.[!.]*; do
  [ -e "$e" ] || continue
  n=${e##*/}
  if [ -d "$e" ]; then
    [ "$n" = __pycache__ ] && continue # Python's, ignored by git
    folders=$((folders + 1))
    grep -q "^| \`$n/\` |" "$dir/README.md" ||
      { echo "layout: tests/$n/: a folder without its row in tests/README.md"; bad=1; }
  else
    case $n in
      CMakeLists.txt|README.md) ;;
      *) echo "layout: tests/$n: a file at the top of tests/ (only CMakeLists.txt and README.md are;" \
              "a test goes to the folder of its subject, tests/README.md)"; bad=1 ;;
    esac
  fi
done
for n in $(sed -n 's/^| `\([^`/]*\)\/` |.*/\1/p' "$dir/README.md"); do
  [ -d "$dir/$n" ] || { echo "layout: tests/README.md: a row for tests/$n/, which is not a folder"; bad=1; }
done
[ $bad = 0 ] && echo "layout: tests/ by subject: $folders folders, each with its row in tests/README.md"
exit $bad
