#!/bin/sh
# The finishing pass (writer_finish in model/writer/writer.c) reads every
# track back and writes its levels of detail, lanes, aggregates and the
# indexes left. It reads through a second connection, the build file in
# WAL mode meanwhile, while another thread writes; where that cannot be
# (NXTOP_TEST_ONE_CONNECTION asks for it) one connection does both in
# turn. Both ways give the same rows, table by table as sqlite3 reads
# them, for a device profile (counters, instructions, DMA, flows), a
# nested B/E trace and a flow trace; the cache is left in rollback mode
# with no -wal or -shm file beside it.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch
"$NXTOP" demo --events 40000 --seed 11 --write "$tmp/dev.json" >/dev/null 2>&1 ||
	fail "demo failed"
"$builddir/bench/gen_trace" json-be 60000 "$tmp/be.json" 2>/dev/null ||
	fail "gen_trace json-be"
"$builddir/bench/gen_trace" pftrace-flows 30000 "$tmp/fl.pftrace" 2>/dev/null ||
	fail "gen_trace pftrace-flows"

tables="lod:1,2,3 lane_lod:1,9,2,3 counter_lod:1,2,3 agg:1,2,3,4,5 track:id flow:1,2,3 flow_mark:1,2,3,4"
for f in dev.json be.json fl.pftrace; do
	expect 0 "" "$NXTOP" import -q -f "$tmp/$f" -o "$tmp/two.nxdb"
	expect 0 "" env NXTOP_TEST_ONE_CONNECTION=1 "$NXTOP" import -q -f \
		"$tmp/$f" -o "$tmp/one.nxdb"
	for t in $tables; do
		q="SELECT * FROM ${t%%:*} ORDER BY ${t#*:}"
		sqlite3 "$tmp/two.nxdb" "$q" > "$tmp/two.txt" || fail "$f: $q"
		sqlite3 "$tmp/one.nxdb" "$q" > "$tmp/one.txt" || fail "$f: $q"
		cmp -s "$tmp/two.txt" "$tmp/one.txt" ||
			fail "$f: ${t%%:*} differs: $(diff "$tmp/one.txt" "$tmp/two.txt" | head -4)"
	done
	# the summaries are there to compare
	[ "$(sqlite3 "$tmp/two.nxdb" "SELECT (SELECT count(*) FROM lod) > 0 AND
		(SELECT count(*) FROM agg) > 0")" = 1 ] || fail "$f: no summaries"
	for c in two one; do
		[ "$(sqlite3 "$tmp/$c.nxdb" "PRAGMA journal_mode")" = delete ] ||
			fail "$f ($c): not in rollback mode"
		for s in -wal -shm; do
			[ -e "$tmp/$c.nxdb$s" ] && fail "$f ($c): $c.nxdb$s is left"
		done
		expect 0 "" "$NXTOP" summary -q "$tmp/$c.nxdb"
		sed 's/[0-9.]* ms//' "$out" > "$tmp/$c.summary"
	done
	cmp -s "$tmp/two.summary" "$tmp/one.summary" || fail "$f: summaries differ"
	rm -f "$tmp/one.nxdb" "$tmp/two.nxdb"
done
pass
