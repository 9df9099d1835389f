#!/bin/sh
# Chrome trace events that must be paired (B/E, async, flows) go through
# an external sort (model/writer/spill.c): kept in memory when they fit,
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
pass
