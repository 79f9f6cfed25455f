# Sourced by the tests that must never install anything: traps DIR TOOL... writes a
# stand-in DIR/trap/TOOL for each TOOL that records its call in DIR/called and fails
# (exit 100); put DIR/trap first on PATH.
traps() {
  _d=$1; shift
  mkdir -p "$_d/trap"
  for _t in "$@"; do
    printf '#!/bin/sh\necho "%s $*" >> "%s/called"\nexit 100\n' "$_t" "$_d" > "$_d/trap/$_t"
    chmod 755 "$_d/trap/$_t"
  done
}
