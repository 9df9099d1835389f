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
# tour on this cache: first frame under 150 ms, per-key median under
# 16 ms, worst under 50 ms); drilling from an nrt_execute into its
# device profile, already imported, showing that profile's first frame
# under 200 ms: on this cache, and on a bundle whose device profiles
# hold 1,000,000 events each (100,000 with BENCH_QUICK). The drill's
# baseline: sqlite3 counting the device profile's events.
#
# System view first (issue 16): the viewer on a bundle not yet imported
# shows the system view within 0.3x of the full import time of the same
# bundle, two device profiles of 600,000 events each (60,000 with
# BENCH_QUICK), measured in the same run.
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

# The viewer, headless at 200x50, finds the first nrt_execute of the
# NeuronCore whose device profile the demo holds (NeuronCore 0 of process
# 2000), shows it (Enter) and drills (Enter again); the drill key's frame
# time, median of 5 runs, and a check that the device profile is what is
# on screen.
drill_ms() {
	printf 'size 200x50\nkeys /name=nrt_execute process=2000 nc=0<Enter>n<Enter>\nkeys <Enter>\ntimes drill.times\ndump drill.screen\n' \
		> "$out/drill.keys"
	: > "$out/drill.ms"
	for _ in 1 2 3 4 5; do
		"$NXTOP" -q --headless="$out/drill.keys" --dump="$out" "$1"
		grep -v '^#' "$out/drill.times" | tail -n 1 | awk '{ print $2 }' >> "$out/drill.ms"
	done
	head -n 1 "$out/drill.screen" | grep -q "› .* › .* device" ||
		{ echo "the drill did not open a device profile:" >&2; cat "$out/drill.screen" >&2; exit 1; }
	sort -n "$out/drill.ms" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# sqlite3 counting the events of the device profile the drill opens
drill_base_ms() {
	t0=$(date +%s%N)
	sqlite3 "$1" "select count(*) from slice where track_id in (select id from track where profile_id = (select id from profile where kind = 'device' and state = 'ready' order by nc_idx, model, path, id limit 1))" > "$out/drill.count"
	t1=$(date +%s%N)
	echo "($t1 - $t0) / 1000000" | bc -l
}

drill_line() {	# label, cache
	ms=$(drill_ms "$2")
	base=$(drill_base_ms "$2")
	printf '%-44s %7.2f ms  budget 200 ms  %-11s %.3fx of baseline (%s events counted in %.1f ms)\n' \
		"$1" "$ms" "$(awk -v v="$ms" 'BEGIN { print (v < 200 ? "ok" : "OVER BUDGET") }')" \
		"$(echo "$ms / $base" | bc -l)" "$(cat "$out/drill.count")" "$base"
}

echo "== drilling into a device profile, already imported (headless, 200x50)"
drill_line "from the 8-NeuronCore cache, small device" "$out/system.nxdb"
dn=1000000
[ "${BENCH_QUICK:-0}" = 1 ] && dn=100000
ddir="$out/drill-$dn"
[ -s "$ddir/system_profile.json" ] ||
	"$NXTOP" demo --events "$dn" --system-events 10000 --write "$ddir"
"$NXTOP" import -q "$ddir"
drill_line "into a $dn-event device profile" "$ddir.nxdb"

# The viewer on a bundle it has not imported: the system profile is
# imported and shown first, the device profiles after it in the
# background. The headless script quits at the first frame of the system
# view, before any device profile imports (a headless run imports them
# only on a "wait" line). Baseline, in the same run: the full import of
# the same bundle, everything imported before it exits.
fn=600000
[ "${BENCH_QUICK:-0}" = 1 ] && fn=60000
echo "== system view first: a bundle of 2 device profiles x $fn events"
fdir="$out/first-$fn"
[ -s "$fdir/system_profile.json" ] ||
	"$NXTOP" demo --events "$fn" --write "$fdir" >/dev/null 2>&1
printf 'dump first.screen\nkeys Q\n' > "$out/first.keys"
rm -f "$fdir.nxdb" "$fdir.nxdb-wal" "$fdir.nxdb-shm" "$out/first.nxdb"
set -- $(measure "$NXTOP" -q --headless="$out/first.keys" --dump="$out" "$fdir")
first_secs=$1
head -n 1 "$out/first.screen" | grep -q "system_profile" ||
	{ echo "the first frame is not the system view:" >&2; cat "$out/first.screen" >&2; exit 1; }
set -- $(measure "$NXTOP" import -q -f "$fdir" -o "$out/first.nxdb")
full_secs=$1
printf 'first system frame  %7.2f s\nfull import         %7.2f s\n' "$first_secs" "$full_secs"
printf 'ratio               the system view appears after %.3fx the full import time (budget < 0.3x)\n' \
	"$(echo "$first_secs / $full_secs" | bc -l)"
rm -f "$fdir.nxdb" "$fdir.nxdb-wal" "$fdir.nxdb-shm" "$out/first.nxdb"
