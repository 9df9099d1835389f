#!/bin/sh
# Import memory against nesting depth: system profiles of 2,000,000
# trace events in one row (bench/gen_system.awk), flat, nested 16 deep
# as the runtime writes calls (innermost first, so the nesting pass
# sorts the row), nested 64 deep in start order (deeper than the
# level-of-detail pass merges by depth, so it sorts the row), nested
# 1000 deep, and one call stack as deep as the profile is long (each
# call inside the one before, past the 255 levels kept); each imported
# once, its peak RSS compared with the flat profile's, measured in the
# same run. BENCH_QUICK=1 uses 500,000 events.
#
# Budget (issue 10, item 12): every nested import within 1.2x the flat
# one's peak RSS.
set -eu
NXTOP=${NXTOP:-./nxtop}
out=${BENCH_DIR:-bench/out}
here=$(dirname "$0")
mkdir -p "$out"
n=2000000
[ "${BENCH_QUICK:-0}" = 1 ] && n=500000

# seconds and peak RSS (KB) of an import: "secs kb"
measure() {
	rm -f "$out/nesting.nxdb"
	/usr/bin/time -f '%e %M' -o "$out/time.txt" timeout 600 \
		"$NXTOP" import -q -f "$1" -o "$out/nesting.nxdb" >/dev/null 2>"$out/stderr.txt" ||
		{ cat "$out/stderr.txt" >&2; exit 1; }
	cat "$out/time.txt"
}

profile() {	# depth order: the file's path, written once
	f="$out/nesting-$n-$1-$2.json"
	[ -s "$f" ] || awk -v n="$n" -v depth="$1" -v rows=1 -v order="$2" \
		-f "$here/gen_system.awk" > "$f"
	echo "$f"
}

echo "== import peak RSS against nesting depth, $n events in one row"
set -- $(measure "$(profile 1 start)")
flat_kb=$2
printf '%-34s %7.2f s  peak RSS %6.1f MB  (baseline)\n' "flat" "$1" "$(echo "$2 / 1024" | bc -l)"
worst=0
for cfg in "16 end" "64 start" "1000 end" "$n start"; do
	set -- $cfg
	label="nested $1 deep, $2 order"
	set -- $(measure "$(profile "$1" "$2")")
	ratio=$(echo "$2 / $flat_kb" | bc -l)
	printf '%-34s %7.2f s  peak RSS %6.1f MB  %.2fx flat  %s\n' "$label" "$1" \
		"$(echo "$2 / 1024" | bc -l)" "$ratio" \
		"$(awk -v r="$ratio" 'BEGIN { print (r <= 1.2 ? "ok" : "OVER BUDGET") }')"
	worst=$(echo "if ($ratio > $worst) $ratio else $worst" | bc -l)
done
printf 'ratio          the deepest nesting takes %.2fx the flat import'"'"'s peak RSS (budget <= 1.2x)\n' "$worst"
rm -f "$out/nesting.nxdb"
