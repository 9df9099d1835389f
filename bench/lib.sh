# Shared by the viewer benchmarks: the 10M-event demo cache (built once in
# BENCH_DIR, or BENCH_CACHE), the time in ms, a median, and the baseline
# (sqlite3 counting the cache's events: one pass over the event table).
NXTOP=${NXTOP:-./nxtop}
out=${BENCH_DIR:-bench/out}
events=${BENCH_EVENTS:-10000000}
mkdir -p "$out"

cache=${BENCH_CACHE:-}
if [ -z "$cache" ]; then
	cache="$out/demo-$events.nxdb"
	if [ ! -f "$cache" ]; then
		echo "building the $events-event demo cache once, in $cache ..."
		[ -s "$out/demo-$events.json" ] ||
			"$NXTOP" demo --events "$events" --write "$out/demo-$events.json"
		"$NXTOP" import -q -o "$cache" "$out/demo-$events.json"
	fi
fi

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print 0 }'; }

t0=$(now_ms)
n=$(sqlite3 "$cache" 'select count(*) from slice')
t1=$(now_ms)
base=$((t1 - t0))
[ "$base" -gt 0 ] || base=1
