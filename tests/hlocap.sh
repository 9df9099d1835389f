#!/bin/sh
# The finishing pass's two ways to the HLO names of instruction slices
# (model/writer/finish.c): kept in memory as the writer takes them, or,
# past SLICE_HLO_MAX slices (16M), joined from the instruction table.
# NXTOP_TEST_HLO_CAP, read only for this test, lowers that cap so the
# join runs here: each Parquet device folder (and a device JSON) is
# imported both ways, and the summaries, the events export and the
# level-of-detail rows (which carry the dominant HLO name) are the same
# byte for byte. test_import checks that the variable sets the cap.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch
fx="$srcdir/tests/fixtures"

# both CACHE-OUT-PREFIX: every output compared, of the cache at $1.nxdb
outputs() {
	"$NXTOP" summary -q "$1.nxdb" > "$2.summary" &&
		"$NXTOP" export -q --what events --format csv "$1.nxdb" \
			> "$2.events" ||
		fail "$1: summary or export failed"
	for t in lod lane_lod agg; do
		sqlite3 "$1.nxdb" "SELECT * FROM $t ORDER BY 1, 2, 3, 4, 5"
	done > "$2.lod"
}

# compare INPUT CAP: INPUT imported with no cap and with CAP
compare() {
	name=$(basename "$1")
	for way in kept joined; do
		rm -rf "$tmp/$way"
		mkdir "$tmp/$way"
		cp -R "$1" "$tmp/$way/$name"
		chmod -R u+w "$tmp/$way"
	done
	"$NXTOP" import -q -o "$tmp/kept.nxdb" "$tmp/kept/$name" ||
		fail "$name: import failed"
	NXTOP_TEST_HLO_CAP=$2 "$NXTOP" import -q -o "$tmp/joined.nxdb" \
		"$tmp/joined/$name" || fail "$name: import with cap $2 failed"
	# the fixtures hold HLO names, so the comparison says something
	[ "$(sqlite3 "$tmp/kept.nxdb" 'SELECT count(DISTINCT hlo_name)
		FROM instruction')" -gt 1 ] || fail "$name: no HLO names"
	outputs "$tmp/kept" "$tmp/k"
	outputs "$tmp/joined" "$tmp/j"
	[ -s "$tmp/k.summary" ] && [ -s "$tmp/k.events" ] ||
		fail "$name: no summary or events"
	for o in summary events lod; do
		cmp -s "$tmp/k.$o" "$tmp/j.$o" ||
			fail "$name, cap $2: $o differs: $(diff "$tmp/k.$o" "$tmp/j.$o" | head)"
	done
}

compare "$fx/parquet-device/device_screen@latest" 1
compare "$fx/parquet-device/device_screen@latest" 500
compare "$fx/parquet-device/device_small@latest" 1
compare "$fx/parquet-device/screen_split@latest" 7
compare "$fx/device_screen.json" 1

pass
