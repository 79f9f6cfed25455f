#!/usr/bin/env bash
# The models are listed once, in PP_MODELS (common/include/pp/model.h);
# everything that names them all is generated from or reads that list. Fails
# on a hand-written list elsewhere: per-model getter declarations, a table of
# the names, a per-model dispatch macro (C); two or more model names side by
# side in CMake (`foreach(m omp ompx)`, `HOST OMP OMPX CUDA HIP`) or as Python
# strings (`("cuda", "hip")`). (The apps are listed once, in apps.txt, and what
# is known of each in its manifest, <app>/app.toml: the test new_app_from_copy
# proves a new app needs nothing else.)
# It first runs on the planted lists of tests/fixtures/listed-once/ (the names filled in
# from the list), each of which it must report, so that it is not blind.
# Usage: tests/common/models_listed_once.sh SOURCE_DIR
set -u
cd "${1:?usage: models_listed_once.sh SOURCE_DIR}" || exit 2
src=$PWD
# the list itself
mapfile -t models < <(sed -nE 's/^ *X\(([A-Z0-9_]+), *([a-z0-9_]+),.*/\2/p' common/include/pp/model.h)
((${#models[@]} >= 2)) || { echo "models_listed_once: no models read from common/include/pp/model.h"; exit 2; }
m_re=$(IFS='|'; echo "${models[*]}")
M_re=${m_re^^}

# kind FILE: c, cmake, python, shell or other (by name, else by its #! line)
kind() {
  case $1 in
    *.c|*.h|*.cu|*.hip) echo c; return ;;
    */CMakeLists.txt|CMakeLists.txt|*.cmake) echo cmake; return ;;
    *.py) echo python; return ;;
    *.sh|*.sbatch) echo shell; return ;;
  esac
  case $(head -c 64 "$1" 2>/dev/null | head -n 1) in
    '#!'*python*) echo python ;;
    '#!'*sh*) echo shell ;;
    *) echo other ;;
  esac
}

# scan ROOT [EXCLUDED_DIR...]: prints "file:line: what" for every hand-written list
# under ROOT (relative paths), skipping Markdown, results/ and the dirs given.
scan() {
  local root=$1 f k
  shift
  local skip='^results/|\.md$'
  for d in "$@"; do skip+="|^$d/"; done
  # a checkout: its files and the new ones git does not ignore (not virtualenvs,
  # build trees); else (a source tarball, a Spack stage) every file but the build's
  if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files -co --exclude-standard)
  else
    (cd "$root" && find . \( -name build -o -name .toolchain -o -name runs -o -name 'spack-build*' -o -name '.*' \
      ! -name . \) -prune -o -type f -print | sed 's|^\./||')
  fi | grep -vE "$skip" | sort |
  while IFS= read -r f; do
    [[ -f $root/$f ]] || continue # deleted in the work tree
    grep -Iq . "$root/$f" 2>/dev/null || continue # text files only
    k=$(kind "$root/$f")
    awk -v file="$f" -v kind="$k" -v mre="$m_re" -v Mre="$M_re" '
      function report(what) { print file ":" FNR ": " what; hit = 1 }
      {
        # outside comments
        code = $0
        if (kind == "cmake" || kind == "python" || kind == "shell") sub(/#.*/, "", code)
        if (kind == "cmake") gsub(/"[^"]* [^"]*"/, "\"\"", code) # messages and patterns are prose
        if (kind == "cmake" && (code ~ ("(^|[^A-Za-z0-9_])(" mre ")[\"; ]+(" mre ")([^A-Za-z0-9_]|$)") ||
                                code ~ ("(^|[^A-Za-z0-9_])(" Mre ")[\"; ]+(" Mre ")([^A-Za-z0-9_]|$)")))
          report("models listed by hand in CMake (loop over PP_MODELS, cmake/Models.cmake)")
        if (kind == "python" && code ~ ("[\"'"'"'](" mre ")[\"'"'"'] *, *[\"'"'"'](" mre ")[\"'"'"']"))
          report("models listed by hand in Python (read them from the build record or PP_MODELS)")
        if (kind == "c" && code ~ ("^const [A-Za-z_]+ \\*[A-Za-z_]+_(" mre ")\\(void\\);"))
          report("per-model getter declarations (PP_DECLARE_MODEL_GETTERS)")
        if (kind == "c" && code ~ ("\"" models1 "\", *\"" models2 "\""))
          report("a table of the models names (PP_MODELS)")
        if (kind == "c" && code ~ ("define PP_IF_(" Mre ")_\\("))
          report("a per-model dispatch macro (PP_MODEL_DISPATCH)")
      }' models1="${models[0]}" models2="${models[1]}" "$root/$f"
  done
}

# The planted lists: each fixture file must be reported, at the line marked
# "planted"; the lines without it must not be.
fix=$(mktemp -d)
trap 'rm -rf "$fix"' EXIT
for t in tests/fixtures/listed-once/*; do
  sed -e "s/@M1@/${models[0]}/g; s/@M2@/${models[1]}/g; s/@M1U@/${models[0]^^}/g; s/@M2U@/${models[1]^^}/g" \
      "$t" > "$fix/${t##*/}"
done
found=$(scan "$fix")
blind=0
for t in "$fix"/*; do
  name=${t##*/}
  want=$(grep -n 'planted' "$t" | cut -d: -f1 | sort)
  got=$(printf '%s\n' "$found" | sed -n "s/^$name:\([0-9]*\):.*/\1/p" | sort -u)
  if [[ $want != "$got" ]]; then
    printf 'models_listed_once: blind or wrong on the planted %s: expected lines [%s], reported [%s]\n' \
      "tests/fixtures/listed-once/$name" "${want//$'\n'/ }" "${got//$'\n'/ }"
    blind=1
  fi
done
((blind)) && exit 1

# The repository, less this test's fixtures.
hits=$(scan "$src" tests/fixtures/listed-once)
if [[ -n $hits ]]; then
  printf '%s\n' "$hits"
  echo "models_listed_once: hand-written lists above; the one list is PP_MODELS (common/include/pp/model.h)"
  exit 1
fi
echo "models listed once: PP_MODELS (checked: ${#models[@]} models, $(ls tests/fixtures/listed-once | wc -l) planted lists found)"
