#!/bin/sh
# json_utf8.sh TEST_INPUT APP APP_ARGS...: the JSON result file stays valid
# (strict UTF-8 JSON, as Python reads it) whatever bytes the command holds:
# a file name that is not UTF-8, control characters, and a command longer
# than the recorded 1023 bytes cut where a character would be split.
set -u
ti=$1
shift
T=json_utf8.sh
. "$(dirname "$0")/../harness/harness.sh"
load='import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8", errors="strict")); c=d["command"]'

# 1. The app, with a CSV file name that is not UTF-8 (\377) and holds \001.
csv=$(printf '%s/bad\377name\001.csv' "$w")
"$@" --json "$w/r.json" --csv "$csv" >/dev/null 2>&1 || fail "the run failed"
python3 -c "$load
assert '\ufffd' in c and '\x01' in c, repr(c)
print('app command:', ascii(c[-40:]))" "$w/r.json" || fail "invalid JSON from a non-UTF-8 file name"

# 2. A command cut at 1023 bytes: with 2-byte characters at every offset
# parity, the cut never splits one, and the JSON loads.
for pad in a aa; do
  long=$(python3 -c "print('$pad' + '\u00e9' * 700)")
  "$ti" command-json "$w/c.json" --name "$long" >/dev/null || fail "test_input failed"
  python3 -c "$load
assert '\ufffd' not in c and c.endswith('...'), ascii(c[-20:])
assert d['command_bytes'] <= 1023 and len(c.encode()) == d['command_bytes']
print('cut command:', d['command_bytes'], 'bytes, ends', ascii(c[-6:]))" "$w/c.json" || fail "bad cut command"
done

# 3. Control characters, quotes and backslashes are escaped, not written raw.
"$ti" command-json "$w/e.json" --name "$(printf 'q"b\\\\t\t\033[2J\177')" >/dev/null || fail "test_input failed"
LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$w/e.json" && fail "raw control bytes in the JSON"
python3 -c "$load"'
want = "q\"b\\\\t\t\x1b[2J\x7f"
assert c.endswith(want), ascii(c)' "$w/e.json" || fail "escapes do not round-trip"
echo "json_utf8.sh: ok"
