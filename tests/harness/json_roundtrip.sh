#!/bin/sh
# json_roundtrip.sh NAME [check_json.py options] -- COMMAND...: runs COMMAND
# with --json NAME.json --csv NAME.csv, then parses both files back.
name=$1
shift
checks=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do checks="$checks $1"; shift; done
shift
rm -f "$name.json" "$name.csv"
"$@" --json "$name.json" --csv "$name.csv" || { echo "json_roundtrip: command failed ($?)"; exit 1; }
python3 "$(dirname "$0")/check_json.py" "$name.json" $checks || exit 1
rows=$(python3 -c "import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r['valid']=='PASS'))" "$name.csv")
nrows=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['results']))" "$name.json")
[ "$rows" = "$nrows" ] || { echo "json_roundtrip: CSV has $rows PASS rows, JSON $nrows rows"; exit 1; }
echo "json_roundtrip: JSON and CSV agree ($rows rows)"
