#!/bin/sh
# Chrome trace-event JSON import benchmark: generated traces of
# NX_CHROME_EVENTS events (default 1,000,000; bench/gen_trace), slices as
# X events, the same gzip-compressed, and slices as B/E pairs. Baseline:
# `jq '.traceEvents | length'` on the same (decompressed) file, measured
# in the same run; the .json.gz import is measured against the plain
# file's.
#
# A second baseline, for the X file: sqlite3 alone storing the slices the
# import wrote (the cache's slice table and its time index, rows in id
# order as the import writes them) in a fresh file with the import's
# settings. The import cannot take less than that; "import/store" says
# how much of its time the rest (parsing, nesting, arguments, levels of
# detail, aggregates, other indexes) adds.
#
# Budget (issue 16): X events import at >= 1,000,000 events/s, in at
# most 0.25x jq's time, with peak RSS < 200 MB; B/E at >= 500,000
# events/s; .json.gz within 1.3x of the plain file.
set -eu
NXTOP=${NXTOP:-./nxtop}
GEN=${BENCH_GEN:-$(dirname "$NXTOP")/bench/gen_trace}
out=${BENCH_DIR:-bench/out}
n=${NX_CHROME_EVENTS:-1000000}
mkdir -p "$out"

# seconds and peak RSS (KB) of a command: "secs kb"
measure() {
	/usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" ||
		{ cat "$out/stderr.txt" >&2; exit 1; }
	cat "$out/time.txt"
}

ratio() { echo "$1 / ($2 + 0.005)" | bc -l; }

# import FILE: prints its line and leaves the import time in $secs
run() {
	label=$1 file=$2
	size=$(gzip -dcf "$file" | wc -c)	# JSON text, decompressed
	set -- $(measure sh -c 'gzip -dcf "$1" | jq ".traceEvents | length"' jq "$file")
	jq_secs=$1
	set -- $(measure "$NXTOP" import -q -f -o "$out/chrome.nxdb" "$file")
	secs=$1 kb=$2
	printf '%-8s %8d events %6.1f MB  %5.2f s  %8.0f events/s  %6.1f MB/s  peak RSS %5.1f MB  jq %5.2f s  import/jq %4.2fx\n' \
		"$label" "$n" "$(echo "$size / 1048576" | bc -l)" "$secs" \
		"$(echo "$n / ($secs + 0.005)" | bc -l)" \
		"$(echo "$size / 1048576 / ($secs + 0.005)" | bc -l)" \
		"$(echo "$kb / 1024" | bc -l)" "$jq_secs" "$(ratio "$secs" "$jq_secs")"
	[ "${keep:-0}" = 1 ] || rm -f "$out/chrome.nxdb"
}

# store: the time sqlite3 takes to write $out/chrome.nxdb's slices and
# their index into a fresh file, after reading them into memory
store() {
	rm -f "$out/store.db"
	sqlite3 "$out/store.db" >"$out/store.txt" <<-EOF || exit 1
	PRAGMA page_size=32768; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
	PRAGMA cache_size=-32768; PRAGMA temp_store=MEMORY;
	ATTACH '$out/chrome.nxdb' AS c;
	CREATE TEMP TABLE src AS SELECT * FROM c.slice ORDER BY id;
	CREATE TABLE slice AS SELECT * FROM c.slice WHERE 0;
	CREATE INDEX slice_track ON slice(track_id, depth, ts, dur, name, cat, size);
	.timer on
	INSERT INTO slice SELECT * FROM temp.src;
	EOF
	awk '/^Run Time/ { print $4 }' "$out/store.txt"
	rm -f "$out/store.db"
}

echo "== Chrome JSON import, $n events per file (budget: X >= 1000000 events/s," \
	"import/jq <= 0.25x, RSS < 200 MB; B/E >= 500000 events/s; gz/plain <= 1.3x)"
"$GEN" json-x "$n" "$out/chrome-x.json"
keep=1 run json-x "$out/chrome-x.json"
plain=$secs
slices=$(sqlite3 "$out/chrome.nxdb" 'SELECT count(*) FROM slice')
floor=$(store)
printf 'store    %8d slices %5.2f s (sqlite3 writing them and their index)  import/store %4.2fx\n' \
	"$slices" "$floor" "$(ratio "$plain" "$floor")"
rm -f "$out/chrome.nxdb"
gzip -1 -c "$out/chrome-x.json" >"$out/chrome-x.json.gz"
run json-gz "$out/chrome-x.json.gz"
printf 'gz/plain %4.2fx\n' "$(ratio "$secs" "$plain")"
rm -f "$out/chrome-x.json" "$out/chrome-x.json.gz"
"$GEN" json-be "$n" "$out/chrome-be.json"
run json-be "$out/chrome-be.json"
rm -f "$out/chrome-be.json"
