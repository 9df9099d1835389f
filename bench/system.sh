#!/bin/sh
# System-profile benchmark: a bundle whose system profile has 8
# NeuronCores x 1,000,000 trace events (the runtime's default ring size per
# core), written by `nxtop demo` (2 instances x 4 NeuronCores, two small
# device profiles), imported, then opened again from its cache.
#
# Baseline, measured in the same run: one pass of grep over the same
# system-profile file, i.e. how fast this machine reads and scans those
# bytes. BENCH_QUICK=1 uses 100,000 events per NeuronCore.
#
# Budgets (issue 5): import under 60 s with peak RSS under 300 MB; opening
# the cached bundle under 200 ms; the device list and a first screen's
# worth of events (10 ms of all rows) under 200 ms; browsing the system
# timeline within the device timeline's frame budgets (bench/tui.sh's
# tour on this cache).
set -eu
NXTOP=${NXTOP:-./nxtop}
out=${BENCH_DIR:-bench/out}
mkdir -p "$out"
n=1000000
[ "${BENCH_QUICK:-0}" = 1 ] && n=100000
dir="$out/system-$n"
sys="$dir/system_profile.json"

# seconds and peak RSS (KB) of a command: "secs kb"
measure() {
	/usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" ||
		{ cat "$out/stderr.txt" >&2; exit 1; }
	cat "$out/time.txt"
}

# the best of five runs of a quick command, in ms (wall clock, ns clock)
best_ms() {
	best=
	for _ in 1 2 3 4 5; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>"$out/stderr.txt" || { cat "$out/stderr.txt" >&2; exit 1; }
		t1=$(date +%s%N)
		ms=$(echo "($t1 - $t0) / 1000000" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$ms < $best" | bc -l)" = 1 ]; then
			best=$ms
		fi
	done
	echo "$best"
}

mb() {
	echo "$1 / 1048576" | bc -l
}

[ -s "$sys" ] || "$NXTOP" demo --events 1000 --system-events "$n" --write "$dir"
size=$(stat -c %s "$sys")

echo "== system profile import, 8 NeuronCores x $n events"
# (grep stops at the first match when its output is /dev/null)
set -- $(measure sh -c 'grep -c "\"trace_event_source\"" "$1" > "$2"' grep "$sys" "$out/grep.txt")
grep_secs=$1
printf 'grep baseline  %6.1f MB  %7.2f s  %6.1f MB/s\n' "$(mb "$size")" \
	"$grep_secs" "$(echo "$size / 1048576 / $grep_secs" | bc -l)"

rm -f "$out/system.nxdb"
set -- $(measure "$NXTOP" import -q -f "$dir" -o "$out/system.nxdb")
secs=$1 kb=$2
ev=$(sqlite3 "$out/system.nxdb" "select count(*) from slice s join track t on t.id = s.track_id where t.profile_id = 1")
printf 'nxtop import   %6.1f MB  %7.2f s  %6.1f MB/s  %9d events  %8.0f events/s  peak RSS %6.1f MB\n' \
	"$(mb "$size")" "$secs" "$(echo "$size / 1048576 / $secs" | bc -l)" "$ev" \
	"$(echo "$ev / $secs" | bc -l)" "$(echo "$kb / 1024" | bc -l)"
printf 'ratio          import takes %.1fx the grep pass; %.1f s (budget < 60 s), peak RSS %.0f MB (budget < 300 MB)\n' \
	"$(echo "$secs / $grep_secs" | bc -l)" "$secs" "$(echo "$kb / 1024" | bc -l)"

echo "== the cached bundle"
# the cache beside the folder, as `nxtop DIR` finds it
"$NXTOP" import -q "$dir"
open_ms=$(best_ms "$NXTOP" import -q "$dir")
list_ms=$(best_ms "$NXTOP" export -q --what devices "$dir")
frame_ms=$(best_ms "$NXTOP" export -q --what selection --range 20ms:30ms "$dir")
printf 'open (freshness check)         %6.1f ms  (budget < 200 ms)\n' "$open_ms"
printf 'device list                    %6.1f ms  (budget < 200 ms)\n' "$list_ms"
printf '10 ms of every row summarised  %6.1f ms  (budget < 200 ms)\n' "$frame_ms"
printf 'ratio          opening takes %.4fx the grep pass\n' \
	"$(echo "$open_ms / 1000 / $grep_secs" | bc -l)"

echo "== browsing the system timeline (the viewer tour of bench/tui.sh)"
BENCH_CACHE="$out/system.nxdb" NXTOP="$NXTOP" BENCH_DIR="$out" sh "$(dirname "$0")/tui.sh"
