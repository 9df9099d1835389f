#!/bin/sh
# A search over the stacked timeline of nxtop A B counts both sides:
# the results line says "A n · B n matches, A time · B time" as sqlite3
# counts and sums the matches in each cache (on the fixture pair and on
# two demo profiles of different seeds); the density strip holds B's
# matches too, B's offset applied: a query only B matches marks the
# strip, and a column where A's and B's matches meet is the highest.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch
export XDG_CACHE_HOME="$tmp/cache"
a="$tmp/a.json"
b="$tmp/b.json"
cp "$srcdir/tests/fixtures/device_small.json" "$a"
cp "$srcdir/tests/fixtures/device_small_b.json" "$b"
"$NXTOP" demo --events 20000 --seed 1 --write "$tmp/d1.json" >/dev/null ||
	fail "demo 1"
"$NXTOP" demo --events 20000 --seed 2 --write "$tmp/d2.json" >/dev/null ||
	fail "demo 2"
for f in "$a" "$b" "$tmp/d1.json" "$tmp/d2.json"; do
	expect 0 "" "$NXTOP" import -q "$f"
done

# sql CACHE WHERE: count and duration sum of the slices WHERE keeps
sql() {
	sqlite3 -separator ' ' "$1.nxdb" "SELECT count(*), coalesce(sum(s.dur), 0)
		FROM slice s JOIN string n ON n.id = s.name
		JOIN track t ON t.id = s.track_id WHERE $2"
}

# dur NS: a duration as the status line writes it (3 decimals, rounded,
# trailing zeros dropped)
dur() {
	awk -v ns="$1" 'BEGIN {
		if (ns < 1000) { printf "%d ns", ns; exit }
		if (ns < 1e6) { per = 1e3; u = "µs" }
		else if (ns < 1e9) { per = 1e6; u = "ms" }
		else { per = 1e9; u = "s" }
		s = sprintf("%.3f", int(ns * 1000 / per + 0.5) / 1000)
		sub(/0+$/, "", s); sub(/\.$/, "", s)
		printf "%s %s", s, u }'
}

# line A B QUERY WHERE: the search's results line on nxtop A B, the
# whole axis in view, against sqlite3 on both caches
line() {
	printf 'size 200x50\nkeys q/%s<Enter>\ndump s\n' "$3" >"$tmp/s.keys"
	rm -rf "$tmp/s"
	mkdir "$tmp/s"
	"$NXTOP" -q --headless="$tmp/s.keys" --dump="$tmp/s" "$1" "$2" \
		2>"$err" || { fail "'$3' on $1 $2: $(cat "$err")"; return; }
	set -- "$1" "$2" "$3" "$4" $(sql "$1" "$4") $(sql "$2" "$4")
	want="in view: A $5 · B $7 matches, A $(dur "$6") · B $(dur "$8")"
	grep -qF "/$3  $want" "$tmp/s/s" ||
		fail "'$3': no '$want' in: $(grep "^/" "$tmp/s/s")"
}
line "$a" "$b" 'opcode=ACTIVATE' "n.str = 'ACTIVATE'"
line "$a" "$b" 'opcode=TENSOR_REDUCE_V2' "n.str = 'TENSOR_REDUCE_V2'"
line "$a" "$b" 'dur>100ns' 's.dur > 100'
line "$tmp/d1.json" "$tmp/d2.json" 'name=MATMUL' "n.str = 'MATMUL'"
line "$tmp/d1.json" "$tmp/d2.json" 'dur>2us' 's.dur > 2000'

# the strip: the marks after the label
strip() {
	grep '^matches ' "$tmp/s/s" | cut -c 38- | tr -d ' '
}
# only B has TENSOR_REDUCE_V2: one mark, on B's event
line "$a" "$b" 'opcode=TENSOR_REDUCE_V2' "n.str = 'TENSOR_REDUCE_V2'"
[ "$(strip | wc -m)" -eq 2 ] || fail "B only: strip '$(strip)'"
# ACTIVATE: A's last and B's last within one column (sqlite3 says how
# far apart, against the strip's 1.87 ms / 163 columns), B's first
# alone at the start; the shared column is the highest mark
la=$(sqlite3 "$a.nxdb" "SELECT max(s.ts) FROM slice s JOIN string n ON
	n.id = s.name WHERE n.str = 'ACTIVATE'")
lb=$(sqlite3 "$b.nxdb" "SELECT max(s.ts) FROM slice s JOIN string n ON
	n.id = s.name WHERE n.str = 'ACTIVATE'")
[ "$((la - lb))" -eq 0 ] || fail "fixtures: last ACTIVATE moved: $la $lb"
line "$a" "$b" 'opcode=ACTIVATE' "n.str = 'ACTIVATE'"
[ "$(strip)" = "▁█" ] || fail "ACTIVATE: strip '$(strip)', wanted ▁█"
# A alone: its one match
printf 'size 200x50\nkeys /opcode=ACTIVATE<Enter>\ndump s\n' >"$tmp/s.keys"
"$NXTOP" -q --headless="$tmp/s.keys" --dump="$tmp/s" "$a" 2>"$err" ||
	fail "A alone: $(cat "$err")"
[ "$(strip)" = "█" ] || fail "A alone: strip '$(strip)'"
grep -q 'in view: 1 match, 248 ns' "$tmp/s/s" ||
	fail "A alone: $(grep '^/' "$tmp/s/s")"

# The Results view (R) stacked: a heading per side with its count, time
# and min/avg/max as sqlite3 has them; e/E export both sides (CSV: a
# side column; JSON: {A, B}), the counts and sums sqlite3's.
need_jq() { command -v jq >/dev/null; }
# stats CACHE WHERE: count, sum, min, avg (to the nearest ns, halves
# up), max
stats() {
	sqlite3 -separator ' ' "$1.nxdb" "SELECT count(*), sum(s.dur),
		min(s.dur), (2 * sum(s.dur) + count(*)) / (2 * count(*)), max(s.dur)
		FROM slice s JOIN string n ON n.id = s.name WHERE $2"
}
mkdir "$tmp/r" "$tmp/rx"
printf 'size 200x50\nkeys q/name=MATMUL<Enter>R\ndump r\nkeys eEjEc\n' \
	>"$tmp/r.keys"
(cd "$tmp/rx" && NXTOP_EXPORT_DIR= "$NXTOP" -q --headless="$tmp/r.keys" \
	--dump="$tmp/r" "$tmp/d1.json" "$tmp/d2.json") 2>"$err" ||
	fail "R stacked: $(cat "$err")"
set -- $(stats "$tmp/d1.json" "n.str = 'MATMUL'") \
	$(stats "$tmp/d2.json" "n.str = 'MATMUL'")
head -1 "$tmp/r/r" | grep -qF "/name=MATMUL  A $1 · B $6 matches in " ||
	fail "R header: $(head -1 "$tmp/r/r")"
for s in A B; do
	if [ $s = A ]; then n=$1 sum=$2 mn=$3 avg=$4 mx=$5
	else n=$6 sum=$7 mn=$8 avg=$9 mx=${10}; fi
	# B's heading is past A's matches, off screen
	want="$s: graph.neff  $n matches, $(dur "$sum")  min $(dur "$mn") avg $(dur "$avg") max $(dur "$mx")"
	[ $s = B ] || grep -qF "$want" "$tmp/r/r" ||
		fail "R: no '$want' in: $(grep '^[AB]: ' "$tmp/r/r")"
	# match lines; each side's statistics line leaves start_ns empty
	csv=$(tr -d '\r' <"$tmp/rx/nxtop-search-1.csv" | awk -F, -v s=$s '
		$1 == s && $2 != "" { n++; d += $3 } END { printf "%d %d", n, d }')
	[ "$csv" = "$n $sum" ] || fail "CSV side $s: $csv, sqlite3 $n $sum"
	csv=$(tr -d '\r' <"$tmp/rx/nxtop-search-1.csv" | awk -F, -v s=$s '
		$1 == s && $2 == "" { print $7, $8 }')
	[ "$csv" = "$n $sum" ] ||
		fail "CSV side $s statistics: $csv, sqlite3 $n $sum"
	if need_jq; then
		js=$(jq -r --arg s $s '.[$s] | "\(.matches) \(.duration_sum_ns) \(.min_ns) \(.max_ns) \(.events | length)"' \
			"$tmp/rx/nxtop-search-1.json")
		[ "$js" = "$n $sum $mn $mx $n" ] ||
			fail "JSON side $s: $js, sqlite3 $n $sum $mn $mx"
	fi
done
grep -q '^# nxtop search, profile B$' "$tmp/rx/nxtop-search-1.txt" ||
	fail "text export: no profile B: $(head -3 "$tmp/rx/nxtop-search-1.txt")"

# both headings of the fixtures' ACTIVATE, as sqlite3 has them
printf 'size 200x50\nkeys q/opcode=ACTIVATE<Enter>R\ndump h\n' >"$tmp/h.keys"
"$NXTOP" -q --headless="$tmp/h.keys" --dump="$tmp/r" "$a" "$b" 2>"$err" ||
	fail "R on the fixtures: $(cat "$err")"
for s in A B; do
	f=$a
	[ $s = B ] && f=$b
	set -- $(stats "$f" "n.str = 'ACTIVATE'")
	want="$s: graph.neff  $1 match$([ "$1" -eq 1 ] || echo es), $(dur "$2")  min $(dur "$3") avg $(dur "$4") max $(dur "$5")"
	grep -qF "$want" "$tmp/r/h" ||
		fail "R: no '$want' in: $(grep '^[AB]: ' "$tmp/r/h")"
done

# Enter on B's first ACTIVATE (line 4: A's heading, A's one, B's
# heading) selects it in B's rows: its duration is B's (sqlite3)
d=$(sqlite3 "$b.nxdb" "SELECT s.dur FROM slice s JOIN string n ON
	n.id = s.name WHERE n.str = 'ACTIVATE' ORDER BY s.ts, s.id LIMIT 1")
printf 'size 200x50\nkeys q/opcode=ACTIVATE<Enter>Rjjj<Enter>\ndump e\n' \
	>"$tmp/e.keys"
"$NXTOP" -q --headless="$tmp/e.keys" --dump="$tmp/r" "$a" "$b" 2>"$err" ||
	fail "Enter on B: $(cat "$err")"
tail -1 "$tmp/r/e" | grep -q "ACTIVATE $(dur "$d")\$" ||
	fail "Enter on B: $(tail -1 "$tmp/r/e"), B's is $(dur "$d")"

# Insights stacked (I): B's findings after A's, marked B; Enter on B's
# small-dma finding on Q0 puts the cursor on B's Q0 (:align then marks
# B, on the DMA event sqlite3 has there); the same finding of A, on
# A's (:align then moves B's mark onto it)
printf 'size 200x50\nkeys qI\ndump ins\nkeys Gk<Enter>:align<Enter>\ndump ib\n' >"$tmp/i.keys"
printf 'keys IG\nkeys kkkkk<Enter>:align<Enter>\ndump ia\n' >>"$tmp/i.keys"
"$NXTOP" -q --headless="$tmp/i.keys" --dump="$tmp/r" "$a" "$b" 2>"$err" ||
	fail "insights stacked: $(cat "$err")"
na=$(grep -c '^A  *warning\|^A  *info\|^A  *error' "$tmp/r/ins")
nb=$(grep -c '^B  *warning\|^B  *info\|^B  *error' "$tmp/r/ins")
head -1 "$tmp/r/ins" | grep -qF "A $na · B $nb findings" ||
	fail "insights: $(head -1 "$tmp/r/ins"), lines A $na B $nb"
[ "$nb" -gt 0 ] || fail "insights: no B findings: $(cat "$tmp/r/ins")"
grep '^B ' "$tmp/r/ins" | tail -2 | head -1 | grep -q 'small-dma.* on Q0 *$' ||
	fail "insights: B's last but one is not small-dma on Q0: $(grep '^B ' "$tmp/r/ins")"
for s in B A; do
	f=$a
	[ $s = B ] && f=$b
	t=$(sqlite3 "$f.nxdb" "SELECT s.ts FROM slice s JOIN track t ON
		t.id = s.track_id WHERE t.name = 'Q0' AND t.kind = 'dma'")
	# B marked first; then A's point lines B's up with it
	want="align: B marked at"
	[ $s = A ] && want="align: B's event moved to A's, at"
	want="$want $(awk -v t="$t" 'BEGIN { s = sprintf("%.6f", t / 1e6); sub(/0+$/, "", s); print s }') ms"
	d=ib
	[ $s = A ] && d=ia
	tail -1 "$tmp/r/$d" | grep -qF "$want" ||
		fail "Enter on $s's finding: $(tail -1 "$tmp/r/$d"), wanted $want"
done
# e and E in the stacked Insights list: A's report, then B's, each what
# nxtop analyze prints for its own profile with every finding listed
# (text: titled with its side; JSON: {"A": ..., "B": ...}); CSV is
# refused as alone. On the fixtures and on the two demos; with B moved
# (--align: no Compare view to close first) B's title says so, and its
# times stay its own.
# insexport DIR A B KEYS-BEFORE [OPTION]
insexport() {
	mkdir "$tmp/$1"
	printf 'size 200x50\nkeys %sIeEjEc\ndump csv\n' "$4" >"$tmp/$1.keys"
	(cd "$tmp/$1" && NXTOP_EXPORT_DIR= "$NXTOP" -q ${5:+"$5"} \
		--headless="$tmp/$1.keys" --dump="$tmp/$1" "$2" "$3") 2>"$err" ||
		fail "insights export $1: $(cat "$err")"
	tail -1 "$tmp/$1/csv" | grep -q '^insights: text or JSON only ' ||
		fail "insights CSV $1: $(tail -1 "$tmp/$1/csv")"
	for s in A B; do
		f=$2
		[ $s = B ] && f=$3
		"$NXTOP" analyze -q "$f" --max-findings 1000000 --max-ranges 1000000 |
			sed "1s/.*/# nxtop analyze, profile $s/" >"$tmp/$1/want.$s" ||
			fail "nxtop analyze $s"
		need_jq || continue
		"$NXTOP" analyze -q "$f" --max-findings 1000000 --max-ranges 1000000 \
			--format json | jq -S . >"$tmp/$1/json.$s"
		jq -S --arg s $s '.[$s]' "$tmp/$1/nxtop-insights-1.json" >"$tmp/$1/got.$s" ||
			fail "insights JSON export $1: $(head -c 300 "$tmp/$1/nxtop-insights-1.json")"
		cmp -s "$tmp/$1/got.$s" "$tmp/$1/json.$s" ||
			fail "insights JSON $1 side $s differs from nxtop analyze: $(diff "$tmp/$1/json.$s" "$tmp/$1/got.$s" | head -5)"
	done
	[ -z "${5:-}" ] ||
		sed -i "1s/\$/, shown moved by -1.5 ms on the timeline; its times here are its own/" \
			"$tmp/$1/want.B"
	{ cat "$tmp/$1/want.A"; echo; cat "$tmp/$1/want.B"; } >"$tmp/$1/want"
	cmp -s "$tmp/$1/nxtop-insights-1.txt" "$tmp/$1/want" ||
		fail "insights text export $1 differs from nxtop analyze A, B: $(diff "$tmp/$1/want" "$tmp/$1/nxtop-insights-1.txt" | head -5)"
}
insexport ix "$a" "$b" q
insexport ixd "$tmp/d1.json" "$tmp/d2.json" q
insexport ixm "$tmp/d1.json" "$tmp/d2.json" "" --align=-1500us
[ "$failures" -eq 0 ]
