#!/bin/sh
# hlo_name aggregates are dropped for a row when a bucket of their first
# level holds more than half as many names as instructions (the HLO name
# changes from one instruction to the next: a row per event, nothing
# gained), and kept when instructions come in runs of one HLO name. Both
# ways the summary's hlo_name lines, over the whole profile and over a
# range that cuts buckets, count what sqlite3 counts in the cache. The
# field aggregates start at a level whose buckets hold at least 128
# events each on average, so a track of 20000 events has at most 156
# buckets there, not the 1024 of a large track.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch

# gen FILE RUN: 20000 MATMUL instructions 50 ns apart on one engine, the
# HLO name changing every RUN instructions, cycling through 2000 names
gen() {
	awk -v run="$2" 'BEGIN {
		printf "{\"instruction\":["
		for (i = 0; i < 20000; i++)
			printf "%s{\"timestamp\":%d,\"duration\":%d,\"opcode\":\"MATMUL\",\"label\":\"TensorMatrix\",\"hlo_name\":\"%%op.%d\",\"id\":%d,\"pc\":%d}",
				(i ? "," : ""), 1000 + i * 50, 20 + i % 7,
				(int(i / run) * 17) % 2000, i + 1, i
		print "]}"
	}' > "$1"
}

# check FILE RANGE T0 T1: the summary's hlo_name lines against sqlite3
check() {
	expect 0 "" "$NXTOP" export -q "$1" --range "$2" --format csv
	tr -d '\r' <"$out" | awk -F, '$3 == "hlo_name" { print $4 "," $5 "," $7 }' |
		sort >"$tmp/got"
	sqlite3 -separator , "$1.nxdb" "SELECT n.str, count(*), sum(s.dur)
		FROM slice s JOIN instruction i ON i.slice_id = s.id JOIN string n
		ON n.id = i.hlo_name, profile p WHERE s.ts >= p.start_ns + $3 AND
		s.ts < p.start_ns + $4 GROUP BY n.str" | sort >"$tmp/want"
	[ "$(wc -l <"$tmp/want")" -gt 10 ] || fail "$1 $2: too few HLO names"
	cmp -s "$tmp/got" "$tmp/want" ||
		fail "$1 $2: hlo_name lines differ: $(diff "$tmp/want" "$tmp/got" | head -5)"
}

for run in 1 50; do
	f="$tmp/run$run.json"
	gen "$f" "$run"
	expect 0 "" "$NXTOP" import -q -o "$f.nxdb" "$f"
	kept=$(sqlite3 "$f.nxdb" "SELECT agg_fields & 4 != 0 FROM track
		WHERE n_events > 0")
	rows=$(sqlite3 "$f.nxdb" "SELECT count(*) FROM agg WHERE field = 2")
	case $run in
	1) [ "$kept" = 0 ] || fail "one HLO name per instruction: hlo_name aggregates kept ($rows rows)" ;;
	*) [ "$kept" = 1 ] && [ "$rows" -gt 0 ] ||
		fail "runs of $run: hlo_name aggregates dropped" ;;
	esac
	# buckets of the HLO name aggregates' first level, against the
	# track's events / 128
	if [ "$run" != 1 ]; then
		set -- $(sqlite3 -separator ' ' "$f.nxdb" "SELECT (SELECT
			count(DISTINCT bucket) FROM agg a WHERE a.track_id = t.id AND
			field = 2 AND level = (SELECT min(level) FROM agg WHERE
			track_id = t.id AND field = 2)), n_events / 128 FROM track t
			WHERE n_events > 0")
		[ "$1" -gt 0 ] && [ "$1" -le "$2" ] ||
			fail "runs of $run: $1 buckets of HLO names, more than $2 (events / 128)"
	fi
	# the range in profile time, from the profile's start_ns
	check "$f" 0ns:2ms 0 2000000
	check "$f" 123457ns:876543ns 123457 876543
done
pass
