#!/bin/sh
# The stacked timeline of nxtop A B against A's timeline alone, in the
# same run, headless at 200x50 on the 10,000,000-event demo cache: the
# first timeline frame, the per-key frame time over one tour (zoom all
# the way in and out, pan, move between rows; stacked, over B's rows
# too) and the window's summary (W: in the stacked view, both sides
# and the comparison); then a search (/name=MATMUL: its first frame with
# the density strip and the count, stacked both sides'), the Results
# view (R: per side, stacked) and n. B is the same cache opened a second time unless
# BENCH_CACHE_B names another. The baseline is A alone; the ratios say
# what stacking B costs.
set -eu
. "$(dirname "$0")/lib.sh"
export XDG_DATA_HOME="$out/data"
b=${BENCH_CACHE_B:-$cache}

dur=$(sqlite3 "$cache" 'select max(end_ns - start_ns) from profile')
steps=$(awk -v d="$dur" 'BEGIN { n = 0; for (w = d / 180; w > 1; w /= 2) n++; print n }')
rep() { i=0; while [ $i -lt "$2" ]; do printf '%s' "$1"; i=$((i + 1)); done; }
# $1: the keys that bring the timeline up (q closes the Compare view)
tour_keys() {
	echo "size 200x50"
	[ -n "$1" ] && echo "keys $1"
	echo "keys $(rep w "$steps")"
	echo "keys $(rep s $((steps + 1)))"
	echo "keys 0$(rep w 5)$(rep d 32)$(rep a 32)"
	echo "keys $(rep j 40)$(rep k 40)$(rep '<PgDown>' 3)$(rep '<PgUp>' 3)"
	echo "keys 0Wq"
	echo "times $2"
}
tour_keys "" alone.times > "$out/alone.keys"
tour_keys q stacked.times > "$out/stacked.keys"
search_keys() {
	echo "size 200x50"
	[ -n "$1" ] && echo "keys $1"
	echo "keys /name=MATMUL<Enter>"
	echo "keys Rqn"
	echo "times $2"
}
search_keys "" alone-s.times > "$out/alone-s.keys"
search_keys q stacked-s.times > "$out/stacked-s.keys"

# key KEY FILE: that key's frame time (the first one)
key() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }
# frames FILE: per-key frame times of the tour (not start, q, W)
frames() { grep -v '^#' "$1" | awk 'NR > 1 && $1 !~ /^(start|q|W)$/ { print $2 }'; }

for run in 1 2 3; do
	"$NXTOP" -q --headless="$out/alone.keys" --dump="$out" "$cache"
	"$NXTOP" -q --headless="$out/stacked.keys" --dump="$out" "$cache" "$b"
	"$NXTOP" -q --headless="$out/alone-s.keys" --dump="$out" "$cache"
	"$NXTOP" -q --headless="$out/stacked-s.keys" --dump="$out" "$cache" "$b"
	a="$out/alone.times" s="$out/stacked.times"
	as="$out/alone-s.times" ss="$out/stacked-s.times"
	echo "$(key start "$a") $(key q "$s") $(frames "$a" | median)" \
		"$(frames "$s" | median) $(frames "$a" | sort -n | tail -n 1)" \
		"$(frames "$s" | sort -n | tail -n 1) $(key W "$a") $(key W "$s")" \
		"$(key '<Enter>' "$as") $(key '<Enter>' "$ss") $(key R "$as")" \
		"$(key R "$ss") $(key n "$as") $(key n "$ss")" \
		>> "$out/stacked-runs"
done
col() { awk -v c="$1" '{ print $c }' "$out/stacked-runs" | median; }
line() {
	printf '%-32s %9.2f ms %9.2f ms  %6.2fx\n' "$1" "$(col "$2")" \
		"$(col "$3")" "$(awk -v a="$(col "$2")" -v s="$(col "$3")" \
		'BEGIN { print (a > 0 ? s / a : 0) }')"
}
echo "nxtop A B stacked: A $cache ($n events), B $b; 200x50, headless, median of 3"
printf '%-32s %12s %12s  %7s\n' "" "A alone" "A and B" "ratio"
line "first timeline frame" 1 2
line "per-key frame, median" 3 4
line "per-key frame, worst" 5 6
line "window summary (W)" 7 8
line "search: first frame (/)" 9 10
line "search: results view (R)" 11 12
line "search: next match (n)" 13 14
rm -f "$out/stacked-runs"
