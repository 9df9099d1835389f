#!/bin/sh
# Markers are user data: set in the viewer, they survive nxtop being
# killed (SIGKILL) right after, a forced re-import and a deleted cache;
# two viewers adding markers to one profile at once keep all of them;
# their text export ends no line in blanks; a file size limit on them
# is named as the cause; markers at one time are stepped through one
# by one.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null' EXIT
export XDG_DATA_HOME="$tmp/data"
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/p.json"
p="$tmp/p.json"
"$NXTOP" import -q "$p" || fail "import failed"

# Types KEYS, then keeps the viewer busy: zooming in and out for ever.
busy_script() {
	echo "keys $1"
	i=0
	while [ $i -lt 200 ]; do
		echo "keys wwwwwwwwwwssssssssss"
		i=$((i + 1))
	done
}

# Waits (up to 10 s) until nxtop export lists N markers.
wait_markers() {
	i=0
	while [ $i -lt 200 ]; do
		n=$("$NXTOP" export -q "$p" --what markers --format csv 2>/dev/null |
			tail -n +2 | grep -c .)
		[ "$n" -ge "$1" ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "only $n of $1 markers appeared"
	return 1
}

# on the Engines row (a group) markers stay where the cursor is
busy_script ':goto 3us<Enter>m:goto 1.2ms<Enter>m:mark end<Enter>' > "$tmp/set.keys"
"$NXTOP" -q --headless="$tmp/set.keys" --dump="$tmp" "$p" &
pid=$!
wait_markers 3 && kill -9 "$pid"
wait "$pid" 2>/dev/null
[ $? -eq 137 ] || echo "note: nxtop ended before the kill" >&2
pid=

"$NXTOP" import -q -f "$p" || fail "forced re-import failed"
expect 0 "^M2,1200000,M1,1197000" "$NXTOP" export -q "$p" --what markers --format csv
grep -q "^M1,3000,," "$out" || fail "M1 lost: $(cat "$out")"
grep -q "^end,1200000,M2,0" "$out" || fail "end lost: $(cat "$out")"
# JSON: the first marker has nothing to differ from: null, not ""
if have jq; then
	"$NXTOP" export -q "$p" --what markers --format json > "$out"
	jq -e '.markers[0] | .marker == "M1" and .diff_vs == null and
		.diff_ns == null' "$out" >/dev/null ||
		fail "markers JSON: $(jq -c '.markers[0]' "$out")"
fi
# text: the first marker's empty diff cells leave no blanks at the end
# of its line
expect 0 "^M1 " "$NXTOP" export -q "$p" --what markers
! grep -n ' $' "$out" || fail "markers text: trailing blanks"
# ... and, as the Markers view, says which were diffed against the
# marker before them, no other having been chosen
grep -Eq "^M2 +1\.2 ?ms +M1 \(previous\) " "$out" ||
	fail "markers text: M2 not diffed against M1 (previous): $(cat "$out")"
rm -f "$p.nxdb"
expect 0 "^end,1200000,M2,0" "$NXTOP" export -q "$p" --what markers --format csv

# two viewers at once, each adding markers
for k in 1 2; do
	printf 'keys :goto %sus<Enter>m:goto %s0us<Enter>m:goto %s00us<Enter>m\n' \
		"$k" "$k" "$k" > "$tmp/two$k.keys"
done
"$NXTOP" -q --headless="$tmp/two1.keys" --dump="$tmp" "$p" & a=$!
"$NXTOP" -q --headless="$tmp/two2.keys" --dump="$tmp" "$p" & b=$!
wait "$a" || fail "first viewer failed"
wait "$b" || fail "second viewer failed"
"$NXTOP" export -q "$p" --what markers --format csv > "$out"
[ "$(tail -n +2 "$out" | grep -c .)" -eq 9 ] || fail "not 9 markers: $(cat "$out")"
for t in 1000 10000 100000 2000 20000 200000; do
	grep -q ",$t," "$out" || fail "marker at $t ns lost: $(cat "$out")"
done

# User data that cannot be written (past a file size limit: 4 KiB; the
# dump is written first, to a folder made beforehand) says why, not
# SQLite's "disk I/O error"
mkdir -p "$tmp/full" "$tmp/fdump"
printf 'size 120x30\nkeys m\ndump s\n' > "$tmp/full.keys"
(ulimit -f 8 && XDG_DATA_HOME="$tmp/full" exec "$NXTOP" -q \
	--headless="$tmp/full.keys" --dump="$tmp/fdump" "$p") 2>"$tmp/full.err" ||
	fail "the viewer failed past ulimit -f: $(cat "$tmp/full.err")"
grep -q "userdata.db: cannot write: File too large" "$tmp/fdump/s" ||
	fail "no cause named: $(tail -1 "$tmp/fdump/s")"

# three markers at one time: ' and " visit each once, in the order they
# were dropped, name the one they are on and wrap only past the ends
q="$tmp/q.json"
cp "$p" "$q"
mkdir -p "$tmp/step"
{
	printf 'size 120x30\nkeys :goto 5us<Enter>mmm\n'
	for k in 1 2 3 4 5 6 7; do printf "keys '\ndump f%s\n" "$k"; done
	for k in 1 2 3 4; do printf 'keys "\ndump b%s\n' "$k"; done
} > "$tmp/step.keys"
"$NXTOP" -q --headless="$tmp/step.keys" --dump="$tmp/step" "$q" ||
	fail "stepping between markers failed"
w1="(wrapped to the first)" wl="(wrapped to the last)"
for s in "f1|M1|, 1 of 3 at this time $w1" "f2|M2|, 2 of 3 at this time" \
	"f3|M3|, 3 of 3 at this time" "f4|M1|, 1 of 3 at this time $w1" \
	"f5|M2|, 2 of 3" "f6|M3|, 3 of 3" "f7|M1|, 1 of 3" \
	"b1|M3|, 3 of 3 at this time $wl" "b2|M2|, 2 of 3 at this time" \
	"b3|M1|, 1 of 3 at this time" "b4|M3|, 3 of 3 at this time $wl"; do
	f=${s%%|*} m=${s#*|} m=${m%%|*} w=${s##*|}
	grep -qF "marker $m at 5" "$tmp/step/$f" ||
		fail "$f: not on $m: $(tail -1 "$tmp/step/$f")"
	grep -qF "$w" "$tmp/step/$f" ||
		fail "$f: not '$w': $(tail -1 "$tmp/step/$f")"
done
grep -q "wrapped" "$tmp/step/f2" "$tmp/step/f3" "$tmp/step/b2" \
	"$tmp/step/b3" && fail "a step between markers at one time wrapped"
pass
