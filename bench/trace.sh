#!/bin/sh
# Trace import benchmark: generated traces of NX_BENCH_EVENTS events each
# (default 5,000,000; bench/gen_trace): a Perfetto trace, Chrome JSON
# with slices as X events, and Chrome JSON with slices as B/E pairs
# (those go through the external sort). Baseline: `cat FILE >/dev/null`
# on the same file, measured in the same run.
#
# Budget (issue 6): the Perfetto trace imports at >= 1,000,000 events/s
# with peak RSS < 200 MB; the Chrome JSON figures are reported.
set -eu
NXTOP=${NXTOP:-./nxtop}
GEN=${BENCH_GEN:-$(dirname "$NXTOP")/bench/gen_trace}
out=${BENCH_DIR:-bench/out}
n=${NX_BENCH_EVENTS:-5000000}
mkdir -p "$out"

# seconds and peak RSS (KB) of a command: "secs kb"
measure() {
	/usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" ||
		{ cat "$out/stderr.txt" >&2; exit 1; }
	cat "$out/time.txt"
}

run() {
	kind=$1 file=$2
	"$GEN" "$kind" "$n" "$file"
	size=$(stat -c %s "$file")
	cat "$file" >/dev/null
	set -- $(measure cat "$file")
	base=$1
	set -- $(measure "$NXTOP" import -q -f -o "$out/trace.nxdb" "$file")
	secs=$1 kb=$2
	printf '%-8s %9d events %7.1f MB  %6.2f s  %8.0f events/s  %5.1f MB/s  peak RSS %6.1f MB  cat %5.2f s  import/cat %5.0fx\n' \
		"$kind" "$n" "$(echo "$size / 1048576" | bc -l)" "$secs" \
		"$(echo "$n / $secs" | bc -l)" "$(echo "$size / 1048576 / $secs" | bc -l)" \
		"$(echo "$kb / 1024" | bc -l)" "$base" "$(echo "$secs / ($base + 0.005)" | bc -l)"
	rm -f "$file" "$out/trace.nxdb"
}

echo "== trace import, $n events per file (budget for pftrace: >= 1000000 events/s, peak RSS < 200 MB)"
run pftrace "$out/trace.pftrace"
run json-x "$out/trace-x.json"
run json-be "$out/trace-be.json"
