#!/bin/sh
# Chrome trace events that must be paired (B/E, async, flows), and a
# thread's X and instants after its first B/E, go through an external sort (model/writer/spill.c): kept in memory when they fit,
# else sorted runs in a temporary file, merged. NXTOP_TEST_SPILL_RUN (for
# tests only) makes runs of a few hundred bytes, so the merge runs here:
# each fixture, and a generated trace whose threads' B/E events arrive
# interleaved and out of order, import the same both ways (events,
# flows, summary); the merge leaves no temporary file behind.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch
fx="$srcdir/tests/fixtures"

# the same awk trace as bench/gen_trace would give, but small: 4 threads
# of nested B/E pairs written round robin, each thread's events shuffled
# by a few positions, with async b/e and flow s/f events among them
awk 'BEGIN {
	srand(11); printf "{\"traceEvents\":["; sep = ""
	for (i = 0; i < 3000; i++) {
		t = i % 4; ts = int(i / 4) * 10 + int(rand() * 30)
		printf "%s{\"ph\":\"B\",\"pid\":1,\"tid\":%d,\"name\":\"n%d\",\"ts\":%d}", sep, t, i % 9, ts
		sep = ","
		printf ",{\"ph\":\"E\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"args\":{\"i\":%d}}", t, ts + 5 + int(rand() * 4), i
		if (i % 50 == 0)
			printf ",{\"ph\":\"b\",\"cat\":\"a\",\"id\":%d,\"pid\":1,\"tid\":%d,\"name\":\"as\",\"ts\":%d},{\"ph\":\"e\",\"cat\":\"a\",\"id\":%d,\"pid\":1,\"tid\":%d,\"name\":\"as\",\"ts\":%d}", i, t, ts, i, t, ts + 40
		if (i % 70 == 0)
			printf ",{\"ph\":\"s\",\"cat\":\"f\",\"id\":%d,\"pid\":1,\"tid\":%d,\"name\":\"fl\",\"ts\":%d},{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"f\",\"id\":%d,\"pid\":1,\"tid\":%d,\"name\":\"fl\",\"ts\":%d}", i, t, ts + 1, i, (t + 1) % 4, ts + 20
	}
	print "]}" }' >"$tmp/gen.json"

# outputs CACHE PREFIX: what is compared
outputs() {
	{ "$NXTOP" export -q --what events --format csv "$1" &&
		"$NXTOP" export -q --what flows --format csv "$1" &&
		"$NXTOP" summary -q "$1"; } >"$2" 2>&1 || fail "$1: export failed: $(tail -n 3 "$2")"
}

n=0
for f in "$fx"/chrome_*.json* "$tmp/gen.json"; do
	name=$(basename "$f")
	[ "$f" = "$tmp/$name" ] || cp "$f" "$tmp/$name"
	"$NXTOP" import -q -o "$tmp/mem.nxdb" "$tmp/$name" ||
		fail "$name: import failed"
	mkdir -p "$tmp/sorttmp"
	TMPDIR="$tmp/sorttmp" SQLITE_TMPDIR= NXTOP_TEST_SPILL_RUN=300 \
		"$NXTOP" import -q -o "$tmp/runs.nxdb" "$tmp/$name" ||
		fail "$name: import with small runs failed"
	[ -z "$(ls -A "$tmp/sorttmp")" ] ||
		fail "$name: temporary files left: $(ls "$tmp/sorttmp")"
	outputs "$tmp/mem.nxdb" "$tmp/mem.out"
	outputs "$tmp/runs.nxdb" "$tmp/runs.out"
	cmp -s "$tmp/mem.out" "$tmp/runs.out" ||
		fail "$name: merged runs differ: $(diff "$tmp/mem.out" "$tmp/runs.out" | head -5)"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n traces compared"
# the generated trace nests and pairs: B/E slices at depth 1, async
# slices and flows
set -- $(sqlite3 -separator ' ' "$tmp/runs.nxdb" "SELECT count(*),
	max(depth) FROM slice; SELECT count(*) FROM flow")
[ "$1" -ge 3000 ] && [ "$2" -ge 1 ] && [ "$3" -ge 40 ] ||
	fail "generated trace: $1 slices, depth $2, $3 flows"

# A thread's X and instant events after its first B/E are sorted with
# its B/E events; before it, they are written as they come. The file's
# order must not matter: the same events, once in time order (X inside
# B/E pairs, instants between) and once with every X and instant first,
# give the same slices, depths and parents.
awk 'BEGIN {
	srand(5)
	for (i = 0; i < 2000; i++) {
		t = i % 3; ts = i * 100
		b = sprintf("{\"ph\":\"B\",\"pid\":1,\"tid\":%d,\"name\":\"p%d\",\"ts\":%d}", t, i % 5, ts)
		x = sprintf("{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":\"x%d\",\"ts\":%d,\"dur\":%d,\"args\":{\"i\":%d}}", t, i % 4, ts + 10, 20 + int(rand() * 30), i)
		ins = sprintf("{\"ph\":\"i\",\"pid\":1,\"tid\":%d,\"name\":\"mark\",\"ts\":%d}", t, ts + 80)
		e = sprintf("{\"ph\":\"E\",\"pid\":1,\"tid\":%d,\"ts\":%d}", t, ts + 70)
		print b > "'"$tmp"'/be.lines"
		print x > "'"$tmp"'/x.lines"
		print ins > "'"$tmp"'/x.lines"
		print e > "'"$tmp"'/be.lines"
		print b; print x; print e; print ins
	}
}' >"$tmp/timed.lines"
for v in timed xfirst; do
	case $v in
	timed) cat "$tmp/timed.lines" ;;
	xfirst) cat "$tmp/x.lines" "$tmp/be.lines" ;;
	esac | awk 'BEGIN { printf "{\"traceEvents\":[" } { printf "%s%s", (NR > 1 ? "," : ""), $0 } END { print "]}" }' >"$tmp/$v.json"
	"$NXTOP" import -q -o "$tmp/$v.nxdb" "$tmp/$v.json" || fail "$v: import failed"
	sqlite3 "$tmp/$v.nxdb" "SELECT t.name, s.ts, s.dur, s.depth, s.flags,
		n.str, coalesce(p.ts, -1), coalesce(a.args, '') FROM slice s
		JOIN track t ON t.id = s.track_id JOIN string n ON n.id = s.name
		LEFT JOIN slice p ON p.id = s.parent_id
		LEFT JOIN arg a ON a.slice_id = s.id
		ORDER BY t.name, s.ts, s.depth" >"$tmp/$v.rows"
done
[ "$(wc -l <"$tmp/timed.rows")" -eq 6000 ] ||
	fail "X inside B/E: $(wc -l <"$tmp/timed.rows") slices, want 6000"
[ "$(awk -F'|' '$6 ~ /^x/ && $4 != 1' "$tmp/timed.rows" | wc -l)" -eq 0 ] ||
	fail "X inside B/E not at depth 1: $(awk -F'|' '$6 ~ /^x/ && $4 != 1' "$tmp/timed.rows" | head -3)"
cmp -s "$tmp/timed.rows" "$tmp/xfirst.rows" ||
	fail "X and instants sorted with B/E differ from written first: $(diff "$tmp/timed.rows" "$tmp/xfirst.rows" | head -5)"
pass
