#!/bin/sh
# readme_length.sh FILE [MAX]: the README stays a page (default at most 250
# lines); what does not fit goes to docs/.
n=$(wc -l < "${1:?usage: readme_length.sh FILE [MAX]}") || exit 2
max=${2:-250}
echo "readme_length.sh: $1 has $n lines (at most $max)"
[ "$n" -le "$max" ]
