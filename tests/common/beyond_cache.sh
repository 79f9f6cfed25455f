#!/bin/sh
# beyond_cache.sh APP -- COMMAND...: runs COMMAND with every @BIG@ in its
# arguments replaced by the smallest multiple N of 2^20, N >= 2^24, whose rows
# stream from memory on this host: 16 N bytes (a copy's working set) at least the
# host's copy_ceiling_min_row_bytes (4 x the last-level cache, as APP reports
# it). Rows below it show no %copy by design, so a fixed size would test the
# cache size of the machine instead of the ceiling.
app=$1
shift 2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$app" --backend host --size 1024 --kernels copy --warmup 0 --samples 1 --bootstrap 0 \
  --ceiling-mib 1 --quiet --json "$tmp/probe.json" >/dev/null ||
  { echo "beyond_cache: the probe run of $app failed"; exit 1; }
big=$(python3 - "$tmp/probe.json" <<'PY'
import json, sys
need = next((d.get("copy_ceiling_min_row_bytes") for d in json.load(open(sys.argv[1]))["devices"]
             if d.get("model") == "host"), None)
if not isinstance(need, (int, float)) or need <= 0:
    sys.exit("no copy_ceiling_min_row_bytes for the host in the probe's result file")
step = 1 << 20  # not the next power of two: that could double the memory the test needs
n = max(1 << 24, -(-int(need) // (16 * step)) * step)
print(n)
PY
) || exit 1
echo "beyond_cache: @BIG@ = $big"
i=0 n=$#
while [ $i -lt $n ]; do
  a=$1; shift
  case $a in *@BIG@*) a=$(printf '%s' "$a" | sed "s/@BIG@/$big/g") ;; esac
  set -- "$@" "$a"
  i=$((i + 1))
done
"$@"
