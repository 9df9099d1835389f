#!/bin/sh
# Nesting lanes benchmark: the viewer's tour of bench/tui.sh (zoom all
# the way in and out, pan, jump between events, move between rows),
# headless at 200x50, run twice in the same run: with every track on one
# line (:lanes 1, folded) and with nested tracks on 4 lanes (:lanes 4,
# unfolded, the default). On the 10M-event demo cache (its device rows do
# not nest, so the two should match) and on a generated trace whose
# threads nest 4 deep (bench/gen_trace pftrace, BENCH_LANE_EVENTS events,
# default 5,000,000). Prints the per-key frame times of each, the
# budgets of bench/tui.sh, and unfolded / folded. Then the flow marks:
# the same tour unfolded with the marks hidden (:flows off) and shown,
# on the demo (no flows: every row's read finds none) and on the same
# nested trace with half its slices linked by flows across threads
# (bench/gen_trace pftrace-flows), with shown / hidden.
set -eu
. "$(dirname "$0")/lib.sh"
export XDG_DATA_HOME="$out/data"
GEN=${BENCH_GEN:-$(dirname "$NXTOP")/bench/gen_trace}
lane_events=${BENCH_LANE_EVENTS:-5000000}

rep() { i=0; while [ $i -lt "$2" ]; do printf '%s' "$1"; i=$((i + 1)); done; }

# tour_keys CACHE LANES FLOWS > FILE
tour_keys() {
	dur=$(sqlite3 "$1" 'select max(end_ns - start_ns) from profile')
	steps=$(awk -v d="$dur" 'BEGIN { n = 0; for (w = d / 180; w > 1; w /= 2) n++; print n }')
	mid=$(awk -v d="$dur" 'BEGIN { printf "%dns", d / 2 }')
	echo "size 200x50"
	echo "keys :lanes $2<Enter>:flows $3<Enter>"
	echo "keys $(rep w "$steps")"
	echo "keys $(rep s $((steps + 1)))"
	echo "keys 0$(rep w 5)$(rep d 64)$(rep '<Right>' 32)$(rep a 32)"
	echo "keys :goto $mid<Enter>$(rep w $((steps - 6)))"
	echo "keys jj$(rep . 60)$(rep , 60)"
	echo "keys jjj$(rep . 40)k$(rep , 40)"
	echo "keys $(rep j 30)$(rep k 30)$(rep '<PgDown>' 3)$(rep '<PgUp>' 3)"
	echo "keys 0"
	echo "times lanes.times"
}

verdict() { awk -v v="$1" -v b="$2" 'BEGIN { print (v < b ? "ok" : "OVER BUDGET") }'; }

# tour CACHE LANES [FLOWS]: "median worst" of the per-key frame times
# (ms), warm (after a first run), each key's the least of three runs:
# on a machine shared with other work, a frame another process held up
# once is not the viewer's
tour() {
	tour_keys "$1" "$2" "${3:-on}" > "$out/lanes.keys"
	# not timed: the first frame and the keys of the two commands
	setup=":lanes $2:flows ${3:-on}"
	for run in 0 1 2 3; do
		"$NXTOP" -q --headless="$out/lanes.keys" --dump="$out" "$1"
		grep -v '^#' "$out/lanes.times" |
			awk -v skip=$((1 + ${#setup} + 2)) 'NR > skip { print $2 }' \
			> "$out/run$run"
	done
	paste "$out/run1" "$out/run2" "$out/run3" | awk '{ m = $1;
		if ($2 < m) m = $2; if ($3 < m) m = $3; print m }' > "$out/all"
	echo "$(median < "$out/all") $(sort -n "$out/all" | tail -n 1)"
}

# line LABEL MEDIAN WORST
line() {
	printf '    %-31s median %7.2f ms (budget 16 ms, %s)  worst %7.2f ms (budget 50 ms, %s)\n' \
		"$1" "$2" "$(verdict "$2" 16)" "$3" "$(verdict "$3" 50)"
}

# ratio LABEL MEDIAN_A WORST_A MEDIAN_B WORST_B: a / b
ratio() {
	printf '    %-31s median %.2fx  worst %.2fx\n' "$1" \
		"$(awk -v a="$2" -v b="$4" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
		"$(awk -v a="$3" -v b="$5" 'BEGIN { print (b > 0 ? a / b : 0) }')"
}

compare() {	# label cache
	set -- "$1" "$2" $(tour "$2" 1) $(tour "$2" 4)
	[ $# -eq 6 ] || { echo "bench/lanes.sh: the tour of $2 failed" >&2; exit 1; }
	echo "  $1:"
	line "folded (:lanes 1)" "$3" "$4"
	line "unfolded (:lanes 4)" "$5" "$6"
	ratio "unfolded / folded" "$5" "$6" "$3" "$4"
}

marks() {	# label cache
	set -- "$1" "$2" $(tour "$2" 4 off) $(tour "$2" 4 on)
	[ $# -eq 6 ] || { echo "bench/lanes.sh: the tour of $2 failed" >&2; exit 1; }
	echo "  $1:"
	line "flow marks hidden (:flows off)" "$3" "$4"
	line "flow marks shown" "$5" "$6"
	ratio "shown / hidden" "$5" "$6" "$3" "$4"
}

# trace_cache MODE: the generated trace's cache, built once
trace_cache() {
	c="$out/lanes-$1-$lane_events.nxdb"
	if [ ! -f "$c" ]; then
		"$GEN" "$1" "$lane_events" "$out/lanes.pftrace"
		"$NXTOP" import -q -o "$c" "$out/lanes.pftrace"
		rm -f "$out/lanes.pftrace"
	fi
	echo "$c"
}

echo "nxtop lanes: per-key frame times, folded vs unfolded, 200x50, headless"
compare "demo, $n events" "$cache"
trace=$(trace_cache pftrace)
compare "nested trace, $(sqlite3 "$trace" 'select count(*) from slice') slices, depth <= $(sqlite3 "$trace" 'select max(max_depth) from track')" "$trace"
echo "nxtop flow marks: per-key frame times, unfolded, marks hidden vs shown"
marks "demo, $n events, no flows" "$cache"
trace=$(trace_cache pftrace-flows)
marks "nested trace, $(sqlite3 "$trace" 'select count(*) from slice') slices, $(sqlite3 "$trace" 'select count(*) from flow') flows" "$trace"
