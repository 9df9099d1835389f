#!/bin/sh
# nxtop analyze and nxtop summary on the 10,000,000-event demo cache:
# every rule over the whole profile, and the profile summary, against
# sqlite3 reading every event of the same cache once in the same run
# (the baseline: `SELECT count(*), sum(dur) FROM slice`). Each is run 3
# times; the median counts. Budget: analyze 5 s.
#
# BENCH_EVENTS and BENCH_CACHE as for the other benchmarks (bench/lib.sh).
set -eu
. "$(dirname "$0")/lib.sh"
runs=3
budget=5000

# times_ms CMD...: the median wall time of CMD over $runs runs
times_ms() {
	i=0
	while [ $i -lt $runs ]; do
		a=$(now_ms)
		"$@" > /dev/null
		b=$(now_ms)
		echo $((b - a))
		i=$((i + 1))
	done | median
}

base=$(times_ms sqlite3 "$cache" 'SELECT count(*), sum(dur) FROM slice')
sum=$(times_ms "$NXTOP" summary -q "$cache")
an=$(times_ms "$NXTOP" analyze -q "$cache")
[ "$base" -gt 0 ] || base=1
verdict=$(awk -v v="$an" -v b="$budget" 'BEGIN { print (v < b ? "ok" : "OVER BUDGET") }')
echo "events                 $n"
echo "sqlite3 every event    ${base} ms (baseline)"
echo "nxtop summary          ${sum} ms" \
	"$(awk -v v="$sum" -v b="$base" 'BEGIN { printf "%.2fx baseline", v / b }')"
echo "nxtop analyze          ${an} ms (budget ${budget} ms: $verdict)" \
	"$(awk -v v="$an" -v b="$base" 'BEGIN { printf "%.2fx baseline", v / b }')"
for r in $("$NXTOP" analyze -q "$cache" --format json | jq -r '.rules[].id'); do
	t=$(times_ms "$NXTOP" analyze -q "$cache" --rule "$r")
	echo "  --rule $(printf '%-14s' "$r") ${t} ms"
done
