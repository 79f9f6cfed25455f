#!/usr/bin/env bash
# The models are listed once, in PP_MODELS (common/include/pp/model.h), and
# everything that names them all is generated from it. Fails on a hand-written
# list elsewhere: per-model getter declarations, a table of the names, a
# per-model dispatch macro, a CMake loop over the models.
# Usage: tests/models_listed_once.sh SOURCE_DIR
set -u
cd "${1:?usage: models_listed_once.sh SOURCE_DIR}" || exit 2
models='host|omp|ompx|cuda|hip'
fail=0
find_list() { # what, extended regex, grep --include patterns...
  local what=$1 re=$2 hits
  shift 2
  hits=$(grep -rnE --exclude-dir=build --exclude-dir=.git --exclude-dir=.toolchain "${@/#/--include=}" \
    -e "$re" . | grep -v '^./tests/models_listed_once.sh:')
  if [[ -n $hits ]]; then
    printf '%s (generate it from PP_MODELS):\n%s\n' "$what" "$hits"
    fail=1
  fi
}
find_list "per-model getter declarations" "^const [A-Za-z_]+ \*[A-Za-z_]+_($models)\(void\);" '*.h' '*.c'
find_list "a table of the models' names" "\"host\", *\"omp\"" '*.h' '*.c' '*.cu' '*.hip'
find_list "a per-model dispatch macro" "define PP_IF_(${models^^})_\(" '*.h' '*.c'
find_list "a CMake loop over the models" "foreach\(m [A-Z ]*CUDA HIP" 'CMakeLists.txt' '*.cmake'
((fail)) || echo "models listed once: PP_MODELS"
exit $fail
