#!/bin/sh
# compare.sh XSBENCH_LIKE [NAME_REGEX] [-- EXTRA ARGS]: runs xsbench_like with
# the arguments of each run recorded in checksums.txt (XSBench's own
# spellings) and requires the checksum XSBench printed. Default extra
# arguments: --backend host.
bin=$1; shift
re=${1:-.}; [ $# -gt 0 ] && shift
[ "$1" = "--" ] && shift
extra=${*:---backend host}
dir=$(dirname "$0")
fail=0
grep -v '^#' "$dir/checksums.txt" | grep -E "^($re)" | while IFS='|' read -r name args sum word; do
  name=$(echo $name); sum=$(echo $sum)
  out=$("$bin" $args --expect-checksum "$sum" --warmup 0 --samples 1 --bootstrap 0 --ceiling-mib 8 --quiet $extra 2>&1)
  rc=$?
  got=$(printf '%s\n' "$out" | sed -n 's/^checksum \([0-9]*\)$/\1/p' | sort -u | tr '\n' ' ')
  echo "$name: XSBench $sum, xsbench_like $got(exit $rc)"
  [ $rc -eq 0 ] || { printf '%s\n' "$out" | tail -5; echo FAIL > /tmp/xs-compare-failed.$$; }
done
[ -e /tmp/xs-compare-failed.$$ ] && { rm -f /tmp/xs-compare-failed.$$; echo "compare.sh: FAIL"; exit 1; }
echo "compare.sh: every run matched"
