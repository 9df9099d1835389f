#!/bin/sh
# Nested system events import with the right depths and rows, whatever
# the order they come in: 1100 calls deep (deeper than the 255 levels
# kept: deeper calls are stored at 255), parents first (depths as the
# events come) and children first (the nesting pass); and calls that
# start together, end where others start or take no time. Each import
# runs under a time limit, so an endless loop fails instead of hanging.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v sqlite3 >/dev/null; then
	echo "no sqlite3: skipping the nesting tests"
	exit 77
fi

# CACHE: "depth|events" for every depth
depths() {
	sqlite3 -separator '|' "$1" \
		"select depth, count(*) from slice group by depth order by depth"
}

# 3 threads x 2 stacks x 1100 calls: each stack one call per level
depth=1100 rows=3 stacks=6
awk -v s=$stacks -v d=$depth 'BEGIN {
	for (i = 0; i < 255; i++) print i "|" s
	print "255|" s * (d - 255) }' > "$tmp/want"
for order in start end; do
	awk -v n=$((stacks * depth)) -v depth=$depth -v rows=$rows -v order=$order \
		-f "$srcdir/bench/gen_system.awk" > "$tmp/deep-$order.json"
	expect 0 "" timeout 60 "$NXTOP" import -q -f "$tmp/deep-$order.json" \
		-o "$tmp/deep-$order.nxdb"
	depths "$tmp/deep-$order.nxdb" > "$tmp/got"
	diff "$tmp/want" "$tmp/got" > "$tmp/diff" ||
		fail "depths, $order order: $(head -5 "$tmp/diff")"
	got=$(sqlite3 "$tmp/deep-$order.nxdb" "select group_concat(name || ':' ||
		n_events || ':' || max_depth, ' ') from (select name, n_events,
		max_depth from track where kind <> 'group' order by sort_key)")
	[ "$got" = "gid32-nc0-tid1000-neuron_rt:2200:255 gid33-nc1-tid1001-neuron_rt:2200:255 gid34-nc2-tid1002-neuron_rt:2200:255" ] ||
		fail "rows, $order order: $got"
done

# Calls of one thread that start together, end where the next starts, or
# take no time, in start order (longer first at the same start). By hand,
# with the rule that a call ending at t holds a call of no time at t:
#   ts  dur  depth
#    0  100  0      A
#    0   50  1      B, inside A
#    0    0  2      inside B
#   50   10  1      B ended at 50: inside A
#   50    0  2      inside the 10 ns call
#  100   20  0      A ended at 100
#  100    0  1      inside the 20 ns call
#  100    0  2      inside the call of no time before it
cat > "$tmp/ties.txt" <<'END'
A 0 100
B 0 50
C 0 0
E 50 10
D 50 0
G 100 20
F 100 0
H 100 0
END
# REV: the events as a system profile, in that order (0) or reversed (1)
ties_json() {
	awk -v rev="$1" '{ l[NR] = sprintf("{\"name\": \"%s\", \"timestamp\":" \
		" 1000000000000000%03d, \"duration\": %d, \"thread_id\": 7," \
		" \"process_id\": \"1\", \"trace_event_source\": \"neuron_rt\"}",
		$1, $2, $3) }
	END { print "{\"trace_event\": ["
		for (i = 1; i <= NR; i++)
			print l[rev ? NR + 1 - i : i] (i < NR ? "," : "")
		print "]}" }' "$tmp/ties.txt"
}
ties_json 0 > "$tmp/ties.json"
ties_json 1 > "$tmp/ties-reversed.json"
printf '%s\n' "0|100|0" "0|50|1" "0|0|2" "50|10|1" "50|0|2" "100|20|0" \
	"100|0|1" "100|0|2" > "$tmp/want"
for f in ties ties-reversed; do
	expect 0 "" timeout 60 "$NXTOP" import -q -f "$tmp/$f.json" -o "$tmp/$f.nxdb"
	sqlite3 -separator '|' "$tmp/$f.nxdb" "select ts - 1000000000000000000,
		dur, depth from slice order by ts, dur desc, depth" > "$tmp/got"
	diff "$tmp/want" "$tmp/got" > "$tmp/diff" ||
		fail "depths of $f.json: $(cat "$tmp/diff")"
done
pass
