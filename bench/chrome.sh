#!/bin/sh
# Chrome trace-event JSON import benchmark: generated traces of
# NX_CHROME_EVENTS events (default 1,000,000; bench/gen_trace), slices as
# X events, the same gzip-compressed, and slices as B/E pairs. Baseline:
# `jq '.traceEvents | length'` on the same (decompressed) file, measured
# in the same run; the .json.gz import is measured against the plain
# file's.
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
	rm -f "$out/chrome.nxdb"
}

echo "== Chrome JSON import, $n events per file (budget: X >= 1000000 events/s," \
	"import/jq <= 0.25x, RSS < 200 MB; B/E >= 500000 events/s; gz/plain <= 1.3x)"
"$GEN" json-x "$n" "$out/chrome-x.json"
run json-x "$out/chrome-x.json"
plain=$secs
gzip -1 -c "$out/chrome-x.json" >"$out/chrome-x.json.gz"
run json-gz "$out/chrome-x.json.gz"
printf 'gz/plain %4.2fx\n' "$(ratio "$secs" "$plain")"
rm -f "$out/chrome-x.json" "$out/chrome-x.json.gz"
"$GEN" json-be "$n" "$out/chrome-be.json"
run json-be "$out/chrome-be.json"
rm -f "$out/chrome-be.json"
