#!/bin/sh
# Import benchmark: a 1,000,000-event demo profile imported by nxtop,
# against `jq '.instruction | length'` on the same file as the baseline,
# measured in the same run. Then a 10,000,000-event profile to show peak
# memory does not grow with the file. BENCH_QUICK=1 skips the 10M run.
#
# Budgets (issue 2): import at least as fast as the jq run; peak RSS under
# 200 MB for both sizes.
set -eu
NXTOP=${NXTOP:-./nxtop}
out=${BENCH_DIR:-bench/out}
mkdir -p "$out"

# seconds and peak RSS (KB) of a command: "secs kb"
measure() {
	/usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" ||
		{ cat "$out/stderr.txt" >&2; exit 1; }
	cat "$out/time.txt"
}

events_of() {
	sqlite3 "$1" "select (select count(*) from slice) + (select count(*) from counter)"
}

run() {
	n=$1
	json="$out/demo-$n.json"
	[ -s "$json" ] || "$NXTOP" demo --events "$n" --write "$json"
	size=$(stat -c %s "$json")
	set -- $(measure "$NXTOP" import -q -f "$json" -o "$out/demo-$n.nxdb")
	secs=$1 kb=$2
	ev=$(events_of "$out/demo-$n.nxdb")
	printf 'nxtop import  %9d records  %6.1f MB  %7.2f s  %8.0f events/s  %6.1f MB/s  peak RSS %6.1f MB\n' \
		"$n" "$(echo "$size / 1048576" | bc -l)" "$secs" "$(echo "$ev / $secs" | bc -l)" \
		"$(echo "$size / 1048576 / $secs" | bc -l)" "$(echo "$kb / 1024" | bc -l)"
	echo "$secs $kb" > "$out/last.txt"
}

echo "== import, 1,000,000 records"
run 1000000
nx=$(cat "$out/last.txt")
set -- $(measure jq '.instruction | length' "$out/demo-1000000.json")
jq_secs=$1 jq_kb=$2
printf 'jq baseline   %7.2f s  peak RSS %6.1f MB\n' "$jq_secs" "$(echo "$jq_kb / 1024" | bc -l)"
set -- $nx
printf 'ratio         nxtop import takes %.2fx the time of jq (budget <= 1.00); peak RSS %.0f MB (budget < 200)\n' \
	"$(echo "$1 / $jq_secs" | bc -l)" "$(echo "$2 / 1024" | bc -l)"
rss1=$2

if [ "${BENCH_QUICK:-0}" != 1 ]; then
	echo "== import, 10,000,000 records"
	run 10000000
	set -- $(cat "$out/last.txt")
	printf 'ratio         peak RSS at 10M is %.2fx the RSS at 1M (budget: about 1, < 200 MB)\n' \
		"$(echo "$2 / $rss1" | bc -l)"
	rm -f "$out/demo-10000000.json"
fi
