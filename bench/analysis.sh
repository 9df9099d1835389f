#!/bin/sh
# Analysis benchmark: on the 10,000,000-event demo cache, headless at
# 200x50, the time from the key to the complete frame for
#   - a search for an opcode across the whole profile (/opcode=MATMUL
#     Enter at the fit: the query, the highlighted tracks, the density
#     strip and the matches counted in view), then n, R and G in the list;
#     and, for comparison, a query that reads the events (dur>300ns);
#   - a box select over the whole profile and every row, summarised
#     (Enter), and the window summary (W) at the fit;
#   - a box over a seventh of the profile (1.5M events in the 10M demo:
#     the values' distributions counted in one pass), summarised;
#   - the layer table opening (L).
# Each is measured in 5 fresh viewers: the first as the page cache finds
# the cache, then the median. Prints the figures, the budgets, and ratios
# against a baseline measured in the same run: sqlite3 counting the
# cache's events (one pass over the event table).
#
# BENCH_EVENTS (default 10000000) sets the demo's size; BENCH_CACHE uses
# an existing cache instead. The demo cache is built once and kept in
# BENCH_DIR (bench/out), where bench/import.sh and bench/tui.sh leave it.
set -eu
. "$(dirname "$0")/lib.sh"
runs=5
export XDG_DATA_HOME="$out/data" NXTOP_EXPORT_DIR="$out"
dur=$(sqlite3 "$cache" 'select max(end_ns - start_ns) from profile')

verdict() { awk -v v="$1" -v b="$2" 'BEGIN { print (v < b ? "ok" : "OVER BUDGET") }'; }
ratio() { awk -v v="$1" -v b="$base" 'BEGIN { printf "%.3fx", v / b }'; }

# Runs script $1 (a name in $out) $runs times; $2 is the times line to
# take: "last" (the last key) or an awk pattern on the key column with
# the occurrence to take, e.g. "n 1". Leaves the first run's figure in
# $first and the median in $med.
measure() {
	: > "$out/$1.all"
	i=0
	while [ $i -lt $runs ]; do
		"$NXTOP" -q --headless="$out/$1.keys" --dump="$out" "$cache"
		if [ "$2" = last ]; then
			grep -v '^#' "$out/$1.times" | tail -n 1 | awk '{ print $2 }'
		else
			awk -v k="${2% *}" -v nth="${2#* }" \
				'$1 == k && ++seen == nth { print $2 }' "$out/$1.times"
		fi >> "$out/$1.all"
		i=$((i + 1))
	done
	first=$(head -n 1 "$out/$1.all")
	med=$(median < "$out/$1.all")
}

line() {	# label, first, median, budget (ms or "-")
	if [ "$4" = - ]; then
		printf '  %-44s first %8.1f ms  median %8.1f ms                   %s of baseline\n' \
			"$1" "$2" "$3" "$(ratio "$3")"
	else
		printf '  %-44s first %8.1f ms  median %8.1f ms  budget %4d ms  %-11s %s of baseline\n' \
			"$1" "$2" "$3" "$4" "$(verdict "$3" "$4")" "$(ratio "$3")"
	fi
}

# the search: the frame after Enter has every highlight in it
{
	echo "size 200x50"
	echo "keys /opcode=MATMUL<Enter>nR<PgDown>G"
	echo "times search.times"
} > "$out/search.keys"
# a query the per-name summaries cannot answer reads the events
{
	echo "size 200x50"
	echo "keys /opcode=MATMUL dur>300ns<Enter>"
	echo "times slow.times"
} > "$out/slow.keys"
# the box: from the start on the first row to the end on the last
{
	echo "size 200x50"
	echo "keys v:goto ${dur}ns<Enter><PgDown><PgDown><PgDown><PgDown>"
	echo "keys <Enter>"
	echo "times box.times"
} > "$out/box.keys"
# a seventh: distributions counted, not read value by value
{
	echo "size 200x50"
	echo "keys v:goto $((dur / 7))ns<Enter><PgDown><PgDown><PgDown><PgDown>"
	echo "keys <Enter>"
	echo "times box7.times"
} > "$out/box7.keys"
printf 'size 200x50\nkeys W\ntimes window.times\n' > "$out/window.keys"
printf 'size 200x50\nkeys L\ntimes layers.times\n' > "$out/layers.keys"

echo "nxtop analysis: $cache ($n events), 200x50, headless, $runs fresh viewers each"
printf '  %-44s %8d ms\n' "baseline: sqlite3 count(*) over slice" "$base"
measure search "<Enter> 1"
line "search opcode=MATMUL, to the highlighted frame" "$first" "$med" 300
measure search "n 1"
line "  n (the next match)" "$first" "$med" -
measure search "R 1"
line "  R (the list of matches opens)" "$first" "$med" -
measure search "G 1"
line "  G (the last page of the list)" "$first" "$med" -
measure slow last
line "search opcode=MATMUL dur>300ns (events read)" "$first" "$med" -
measure box last
line "box select of the whole profile, summarised" "$first" "$med" 1000
measure box7 last
line "box select of a seventh, summarised" "$first" "$med" 1000
measure window last
line "window summary (W) at the fit" "$first" "$med" 1000
measure layers last
line "layer table opens (L)" "$first" "$med" 100
