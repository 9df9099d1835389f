#!/bin/sh
# Viewer benchmark: on a 10,000,000-event demo cache, headless at 200x50,
# the time from start to the first complete frame, the frame time of each
# key over a scripted tour (zoom all the way in and out, pan across, jump
# between events, move between rows), and the peak RSS while browsing;
# the same tour with --no-mouse (what taking the mouse costs the keys),
# and a tour by mouse (Ctrl+wheel zooms around the pointer, clicks on
# tracks, wheel scrolls, a drag and a double-click) against the keys'
# frames.
# Prints the figures, the budgets, and ratios against a baseline measured
# in the same run: sqlite3 counting the cache's events (one pass over the
# event table).
#
# BENCH_EVENTS (default 10000000) sets the demo's size; BENCH_CACHE uses
# an existing cache instead. The demo cache is built once and kept in
# BENCH_DIR (bench/out), where bench/import.sh leaves it too.
set -eu
. "$(dirname "$0")/lib.sh"
# the viewer keeps its history in the bench folder, not in the home one
export XDG_DATA_HOME="$out/data"

# first frame: a script that only sets the size ends after the first frame
printf 'size 200x50\ntimes first.times\n' > "$out/first.keys"
: > "$out/first.wall"
: > "$out/first.inside"
for i in 1 2 3 4 5; do
	t0=$(now_ms)
	"$NXTOP" -q --headless="$out/first.keys" --dump="$out" "$cache"
	t1=$(now_ms)
	echo $((t1 - t0)) >> "$out/first.wall"
	awk '$1 == "start" { print $2 }' "$out/first.times" >> "$out/first.inside"
done
first_wall=$(median < "$out/first.wall")
first_inside=$(median < "$out/first.inside")

# the tour: zoom steps double or halve the column width; from the fit
# (about 180 columns at 200x50) to 1 ns per column takes log2(duration /
# 180) steps
dur=$(sqlite3 "$cache" 'select max(end_ns - start_ns) from profile')
steps=$(awk -v d="$dur" 'BEGIN { n = 0; for (w = d / 180; w > 1; w /= 2) n++; print n }')
mid=$(awk -v d="$dur" 'BEGIN { printf "%dns", d / 2 }')
rep() { i=0; while [ $i -lt "$2" ]; do printf '%s' "$1"; i=$((i + 1)); done; }
{
	echo "size 200x50"
	echo "keys $(rep w "$steps")"
	echo "keys $(rep s $((steps + 1)))"
	echo "keys 0$(rep w 5)$(rep d 64)$(rep '<Right>' 32)$(rep a 32)"
	echo "keys :goto $mid<Enter>$(rep w $((steps - 6)))"
	echo "keys jj$(rep . 60)$(rep , 60)"
	echo "keys jjj$(rep . 40)k$(rep , 40)"
	echo "keys <Enter>$(rep . 20)<Esc>"
	echo "keys $(rep j 30)$(rep k 30)$(rep '<PgDown>' 3)$(rep '<PgUp>' 3)"
	echo "keys 0"
	echo "times tour.times"
} > "$out/tour.keys"

# the mouse tour, over the track area right of the labels (at most 60
# columns of 200): zoom in and out around the pointer, clicks across
# the screen, the rows scrolled down and up, a box dragged and
# summarised, a double-click's details
{
	echo "size 200x50"
	i=0
	while [ $i -lt "$steps" ]; do echo "mouse wheel up 130 10 zoom"; i=$((i + 1)); done
	i=0
	while [ $i -le "$steps" ]; do echo "mouse wheel down 130 10 zoom"; i=$((i + 1)); done
	i=0
	while [ $i -lt 60 ]; do
		echo "mouse click $((70 + i * 2)) $((6 + i % 30))"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 10 ]; do echo "mouse wheel down 100 20"; i=$((i + 1)); done
	i=0
	while [ $i -lt 10 ]; do echo "mouse wheel up 100 20"; i=$((i + 1)); done
	echo "mouse drag 80 8 150 20"
	echo "keys <Esc>"
	echo "mouse double 120 12"
	echo "keys <Esc>"
	echo "times mouse.times"
} > "$out/mouse.keys"

verdict() { awk -v v="$1" -v b="$2" 'BEGIN { print (v < b ? "ok" : "OVER BUDGET") }'; }
ratio() { awk -v v="$1" -v b="$base" 'BEGIN { printf "%.3fx", v / b }'; }

stats() {	# label, awk pattern on the key column
	grep -v '^#' "$times" | awk -v p="$2" 'NR > 1 && $1 ~ p { print $2 }' > "$out/sel"
	cnt=$(wc -l < "$out/sel")
	med=$(median < "$out/sel")
	worst=$(sort -n "$out/sel" | tail -n 1)
	printf '    %-20s %5d keys  median %7.2f ms  worst %7.2f ms\n' "$1" "$cnt" "$med" "${worst:-0}"
}

# Runs the tour (with the options after the label) and prints its
# figures. The first run reads what the page cache does not hold yet;
# the second shows a warm cache.
tour() {
	label=$1
	shift
	"$NXTOP" -q "$@" --headless="$out/tour.keys" --dump="$out" "$cache"
	times="$out/tour.times"
	grep -v '^#' "$times" | awk 'NR > 1 { print $2 }' > "$out/all"
	med=$(median < "$out/all")
	worst=$(sort -n "$out/all" | tail -n 1)
	rss=$(awk '$1 == "#rss_kb" { print $2 }' "$times")
	echo "  tour, $label ($(wc -l < "$out/all") keys):"
	printf '    %-36s %8s ms  budget 16 ms   %-11s %s of baseline\n' \
		"per-key frame, median" "$med" "$(verdict "$med" 16)" "$(ratio "$med")"
	printf '    %-36s %8s ms  budget 50 ms   %-11s %s of baseline\n' \
		"per-key frame, worst" "$worst" "$(verdict "$worst" 50)" "$(ratio "$worst")"
	stats "zoom (w s 0)" '^[ws0]$'
	stats "pan (a d Left Right)" '^([ad]|<Left>|<Right>)$'
	stats "jump (. ,)" '^[.,]$'
	stats "rows (j k PgUp PgDn)" '^([jk]|<PgUp>|<PgDown>)$'
	printf '    %-36s %8s MB  budget 100 MB  %s\n' "peak RSS while browsing" \
		"$(awk -v k="${rss:-0}" 'BEGIN { printf "%.1f", k / 1024 }')" \
		"$(verdict "${rss:-0}" 102400)"
}

echo "nxtop viewer: $cache ($n events), 200x50, headless"
printf '%-40s %8d ms\n' "baseline: sqlite3 count(*) over slice" "$base"
printf '%-40s %8s ms  budget 150 ms  %-11s %s of baseline\n' \
	"first frame (process start to frame)" "$first_wall" \
	"$(verdict "$first_wall" 150)" "$(ratio "$first_wall")"
printf '%-40s %8s ms  (from the viewer'"'"'s start, median of 5)\n' \
	"first frame (inside the viewer)" "$first_inside"
tour "first run"
tour "again, warm"
tour "again, --no-mouse" --no-mouse

# The mouse tour; then the key tour once more with the mouse on and off,
# three times in turn, for medians of the same conditions.
"$NXTOP" -q --headless="$out/mouse.keys" --dump="$out" "$cache"
times="$out/mouse.times"
echo "  mouse tour ($(grep -c '^mouse' "$times") events), against the keys of the tour just above:"
stats "zoom (Ctrl+wheel)" '^mouse-wheel$'
stats "click" '^mouse-click$'
stats "drag, double-click" '^mouse-(drag|double)$'
stats "mouse, all" '^mouse-'
times="$out/tour.times"
stats "zoom (w s 0)" '^[ws0]$'
stats "keys, all" '.'
: > "$out/on.med"
: > "$out/off.med"
for i in 1 2 3; do
	for mode in on off; do
		opt=
		[ $mode = off ] && opt=--no-mouse
		# shellcheck disable=SC2086
		"$NXTOP" -q $opt --headless="$out/tour.keys" --dump="$out" "$cache"
		grep -v '^#' "$out/tour.times" | awk 'NR > 1 { print $2 }' |
			median >> "$out/$mode.med"
	done
done
on=$(median < "$out/on.med")
off=$(median < "$out/off.med")
printf '  %-38s %8s ms  with --no-mouse %s ms  ratio %s\n' \
	"key tour median frame, mouse on (x3)" "$on" "$off" \
	"$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }')"
