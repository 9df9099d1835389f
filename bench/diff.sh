#!/bin/sh
# nxtop diff of two 10,000,000-event demo caches of different seeds (the
# shared demo cache, seed 1, against one of seed 2 built once beside
# it): the overall comparison and every other device table, against
# `nxtop summary` of each side in the same run (the baseline: the two
# commands a comparison by hand takes). Each is run 3 times; the median
# counts. Budget: 5 s for the overall comparison.
#
# BENCH_EVENTS and BENCH_CACHE as for the other benchmarks (bench/lib.sh);
# BENCH_CACHE_B names B's cache instead of the seed 2 demo.
set -eu
. "$(dirname "$0")/lib.sh"
runs=3
budget=5000

b=${BENCH_CACHE_B:-}
if [ -z "$b" ]; then
	b="$out/demo-$events-seed2.nxdb"
	if [ ! -f "$b" ]; then
		echo "building the $events-event demo cache of seed 2 once, in $b ..."
		[ -s "$out/demo-$events-seed2.json" ] ||
			"$NXTOP" demo --events "$events" --seed 2 \
				--write "$out/demo-$events-seed2.json"
		"$NXTOP" import -q -o "$b" "$out/demo-$events-seed2.json"
	fi
fi

# times_ms CMD...: the median wall time of CMD over $runs runs; a run
# that fails ends the benchmark (a time of nothing measures nothing)
times_ms() {
	i=0
	rm -f "$out/diff-times"
	while [ $i -lt $runs ]; do
		t0=$(now_ms)
		if ! "$@" > /dev/null; then
			echo "bench/diff.sh: failed: $*" >&2
			return 1
		fi
		t1=$(now_ms)
		echo $((t1 - t0)) >> "$out/diff-times"
		i=$((i + 1))
	done
	median < "$out/diff-times"
	rm -f "$out/diff-times"
}

sa=$(times_ms "$NXTOP" summary -q "$cache")
sb=$(times_ms "$NXTOP" summary -q "$b")
sum=$((sa + sb))
[ "$sum" -gt 0 ] || sum=1
d=$(times_ms "$NXTOP" diff -q "$cache" "$b")
verdict=$(awk -v v="$d" -v b="$budget" 'BEGIN { print (v < b ? "ok" : "OVER BUDGET") }')
echo "events                 $n (A), $(sqlite3 "$b" 'select count(*) from slice') (B)"
echo "nxtop summary A + B    ${sum} ms (${sa} + ${sb}; baseline)"
echo "nxtop diff A B         ${d} ms (budget ${budget} ms: $verdict)" \
	"$(awk -v v="$d" -v b="$sum" 'BEGIN { printf "%.3fx the summaries", v / b }')"
for w in engines layers opcodes hlo dma; do
	t=$(times_ms "$NXTOP" diff -q "$cache" "$b" --what "$w")
	echo "  --what $(printf '%-10s' "$w") ${t} ms"
done
