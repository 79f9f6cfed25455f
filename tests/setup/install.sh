#!/bin/sh
# install.sh BUILD_DIR SOURCE_DIR: `cmake --install` into a prefix, the prefix
# moved elsewhere, then every app of its share/proxyport/apps.txt must answer
# --version from it, testsnap's default case (its inputs, found beside the
# executable) and every app's small run (its installed manifest's, read by the
# installed tools) must run and validate from it, with no path of the source or
# build tree in the binaries;
# a binary copied without its share/ must say where it looked (exit 2).
set -u
build=$1 src=$2
T=install.sh
. "$(dirname "$0")/../harness/harness.sh"
unset PP_INPUTS
cmake --install "$build" --prefix "$w/first" >"$w/install.log" 2>&1 || { cat "$w/install.log"; fail "cmake --install failed"; }
mv "$w/first" "$w/moved" || fail "cannot move the prefix"
p=$w/moved
# the app list, as the tools of the install read it, is the source tree's
cmp -s "$src/apps.txt" "$p/share/proxyport/apps.txt" || fail "share/proxyport/apps.txt is not the source's apps.txt"
apps=$(grep -v '^[[:space:]]*#' "$p/share/proxyport/apps.txt" | tr -d '[:blank:]' | grep .)
[ -n "$apps" ] || fail "share/proxyport/apps.txt lists no app"
for f in share/proxyport/inputs/testsnap share/proxyport/validate/compare share/doc/proxyport/README.md; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done
# the site files, checked by the installed tools against the installed schema
for s in debian perlmutter frontier; do
  python3 "$p/share/proxyport/validate/site" check "$p/share/proxyport/site/$s.toml" >/dev/null 2>&1 ||
    fail "share/proxyport/site/$s.toml: not installed, or the installed tools cannot check it"
done
for app in $apps; do
  [ -x "$p/bin/$app" ] || fail "bin/$app is not installed"
  if strings "$p/bin/$app" | grep -qF -e "$src/inputs" -e "$build"; then fail "$app holds a source or build path"; fi
  "$p/bin/$app" --version >/dev/null 2>&1 || fail "$app --version from the moved prefix: exit $?"
done
fast="--warmup 0 --bootstrap 0 --ceiling-mib 8 --quiet --backend host"
cd "$w" || fail "no scratch folder"
run "$p/bin/testsnap" --warmup 0 --steps 1 --quiet --backend host
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q "W_2J14_2000_disp" || fail "testsnap's default case from the moved prefix: exit $rc"
# every app's small run, as its installed manifest says, read by the installed tools
tools() { PYTHONPATH="$p/share/proxyport/validate" python3 -m pptools.apps "$@"; }
for app in $apps; do
  small=$(tools get "$app" tests.small --set "inputs=$p/share/proxyport/inputs") ||
    fail "$app: the installed tools cannot read share/proxyport/$app/app.toml"
  steps=$(tools get "$app" steps_are_samples --default false)
  [ "$steps" = true ] || small="$small --samples 1"
  run "$p/bin/$app" $small $fast; [ "$rc" = 0 ] || fail "$app $(echo $small): exit $rc"
done
# the decks of the other apps, by the installed path
run "$p/bin/cgsolve" --deck "$p/share/proxyport/inputs/minife/tiny.deck" --samples 1 $fast
[ "$rc" = 0 ] || fail "cgsolve --deck of the install: exit $rc"
# a lone binary: no inputs beside it, and it says so
mkdir -p "$w/lone" && cp "$p/bin/testsnap" "$w/lone/"
run "$w/lone/testsnap" --steps 1 --quiet --backend host
[ "$rc" = 2 ] && printf '%s\n' "$out" | grep -q "no inputs folder.*share/proxyport/inputs.*--inputs DIR or set PP_INPUTS" ||
  fail "a lone testsnap: exit $rc, expected 2 naming where it looked"
# PP_INPUTS and --inputs point it at the moved install's inputs
PP_INPUTS=$p/share/proxyport/inputs run "$w/lone/testsnap" --case W_2J8_2000 --steps 1 --quiet --backend host
[ "$rc" = 0 ] || fail "PP_INPUTS: exit $rc"
run "$w/lone/testsnap" --inputs "$p/share/proxyport/inputs" --case W_2J8_2000 --steps 1 --quiet --backend host
[ "$rc" = 0 ] || fail "--inputs: exit $rc"
echo "install.sh: the moved prefix ran testsnap's default case and every app's small run"
