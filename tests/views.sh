#!/bin/sh
# Views to come back to: nxtop PROFILE --at, --zoom, --search and
# --select with --tracks open the timeline where the ':' commands and
# nxtop export take it; their bad values are usage errors. y writes the
# line that reopens the view: on the status line, or in the pager at a
# width the line does not fit.
set -u
. "${srcdir:-.}/tests/lib.sh"

if ! locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	echo "no C.UTF-8 locale: skipping the view tests"
	exit 77
fi
export LC_ALL=C.UTF-8
unset NO_COLOR COLUMNS LINES
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null' EXIT
export XDG_DATA_HOME="$tmp/data"
case $NXTOP in /*) ;; *) NXTOP=$(pwd)/$NXTOP ;; esac
cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/p.json"
p="$tmp/p.json"
"$NXTOP" import -q "$p" || fail "import failed"

# view NAME KEYS [OPTIONS]: the screen after KEYS, in $tmp/NAME.
view() {
	name=$1 keys=$2
	shift 2
	printf 'keys %s\ndump %s\n' "$keys" "$name" > "$tmp/$name.keys"
	"$NXTOP" -q --headless="$tmp/$name.keys" --dump="$tmp" "$@" "$p" ||
		fail "$name: nxtop failed"
}

# same A B: the two screens are one.
same() {
	cmp -s "$tmp/$1" "$tmp/$2" ||
		fail "$2 is not the screen $1 is: $(diff -u "$tmp/$1" "$tmp/$2")"
}

# each option lands where its ':' command does
view at-cmd ':goto 100us<Enter>'
view at-opt '' --at 100us
same at-cmd at-opt
view zoom-cmd ':zoom 50us 150us<Enter>'
view zoom-opt '' --zoom=50us:150us
same zoom-cmd zoom-opt
view search-cmd ':search MATMUL<Enter>'
view search-opt '' --search MATMUL
same search-cmd search-opt
grep -q '/MATMUL  in view' "$tmp/search-opt" || fail "no search: $(cat "$tmp/search-opt")"
view all-cmd ':search MATMUL<Enter>:zoom 50us 150us<Enter>:goto 100us<Enter>'
view all-opt '' --zoom 50us:150us --at 100us --search MATMUL
same all-cmd all-opt
view fit '' 
view at-zero '' --at 0
same fit at-zero

# --select boxes its rows: the Selection Summary exported from the
# viewer is the one nxtop export gives for that range and those rows
printf 'keys Ej\n' > "$tmp/sel.keys"
(cd "$tmp" && "$NXTOP" -q --headless="$tmp/sel.keys" --dump="$tmp" \
	--select 60us:80us --tracks tensor,Vector "$p") ||
	fail "--select: nxtop failed"
"$NXTOP" export -q "$p" --range 60us:80us --tracks Tensor,Vector \
	--format json > "$tmp/sel-export.json" || fail "export failed"
cmp -s "$tmp/nxtop-selection-1.json" "$tmp/sel-export.json" ||
	fail "--select: the box is not the range and rows given: $(diff "$tmp/nxtop-selection-1.json" "$tmp/sel-export.json")"

# qSyncIO0 is a row of DMA queues and of DMA transfers: --tracks
# "DMA transfers/qSyncIO0" boxes the transfers' row alone, and y writes
# the name that way so that its line reopens that box
printf 'size 200x30\nkeys y\ndump y-shared\nkeys Ej\n' > "$tmp/shared.keys"
rm -f "$tmp/nxtop-selection-1.json"
(cd "$tmp" && "$NXTOP" -q --headless="$tmp/shared.keys" --dump="$tmp" \
	--select 10us:40us --tracks "DMA transfers/qSyncIO0" "$p") ||
	fail "--select of a shared row name: nxtop failed"
grep -q -- "--tracks=DMA transfers/qSyncIO0'" \
	"$tmp/y-shared" || fail "y: not the qualified row: $(tail -n 1 "$tmp/y-shared")"
"$NXTOP" export -q "$p" --range 10us:40us --tracks "DMA transfers/qSyncIO0" \
	--format json > "$tmp/shared-export.json" || fail "export failed"
cmp -s "$tmp/nxtop-selection-1.json" "$tmp/shared-export.json" ||
	fail "--select: the box is not DMA transfers/qSyncIO0: $(diff "$tmp/nxtop-selection-1.json" "$tmp/shared-export.json")"
# its transfers there, as jq counts them in the profile (the profile
# starts at 51 ns: none is near either end)
if have jq; then
	want=$(jq '[.dma[] | select(.aggregated == "yes" and
		.subgroup == "qSyncIO0" and .timestamp >= 10000 and
		.timestamp < 40000)] | length' "$p")
	[ "$want" -gt 0 ] && grep -q "\"events\": $want," "$tmp/shared-export.json" ||
		fail "DMA transfers/qSyncIO0 from 10us to 40us: not the $want transfers jq counts"
fi

# a box over several rows: y names every row it counts, so that its
# --select and --tracks given to nxtop export give the numbers the
# viewer exports (the first and last row alone would be two rows)
printf 'size 200x30\nkeys wwllllvllllllljjjjjjjy\ndump y-rows\nkeys <Enter>Ej\n' \
	> "$tmp/rows.keys"
rm -f "$tmp/nxtop-selection-1.json"
(cd "$tmp" && "$NXTOP" -q --headless="$tmp/rows.keys" --dump="$tmp" "$p") ||
	fail "a box over rows: nxtop failed"
line=$(tail -n 1 "$tmp/y-rows")
sel=$(echo "$line" | sed -n 's/.*--select=\([^ ]*\) .*/\1/p')
rows=$(echo "$line" | sed -n 's/.*--tracks=\([^ ]*\) .*/\1/p')
[ "$rows" = TensorMatrix,Tensor,Vector,Scalar,GpSimd,Sync ] ||
	fail "y: not every row of the box: $line"
"$NXTOP" export -q "$p" --range "$sel" --tracks "$rows" --format json \
	> "$tmp/rows-export.json" || fail "export failed"
cmp -s "$tmp/nxtop-selection-1.json" "$tmp/rows-export.json" ||
	fail "y's --select and --tracks are not the box: $(diff "$tmp/nxtop-selection-1.json" "$tmp/rows-export.json")"

# A saved view is user data: it survives nxtop killed (SIGKILL) right
# after saving it and a re-import of the changed source, and brings the
# screen back as it was saved.
if have sqlite3; then
	printf 'keys jjwwwlllc<Space>:search MATMUL<Enter><C-l>\ndump kept\n' \
		> "$tmp/keep.keys"
	echo 'keys :view save kept<Enter>' >> "$tmp/keep.keys"
	i=0
	while [ $i -lt 200 ]; do
		echo "keys wwwwwwwwwwssssssssss"
		i=$((i + 1))
	done >> "$tmp/keep.keys"
	"$NXTOP" -q --headless="$tmp/keep.keys" --dump="$tmp" "$p" &
	pid=$!
	i=0
	while [ $i -lt 200 ] && [ "$(sqlite3 "$XDG_DATA_HOME/nxtop/userdata.db" \
		"select count(*) from saved_view where name = 'kept'" 2>/dev/null)" != 1 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[ $? -eq 137 ] || echo "note: nxtop ended before the kill" >&2
	pid=
	touch "$p"
	view restored ':view kept<Enter><C-l>'
	[ -e "$tmp/kept" ] || fail "the view was not dumped before it was saved"
	same kept restored
	"$NXTOP" import -q -f "$p" || fail "forced re-import failed"
	view restored-again ':view kept<Enter><C-l>'
	same kept restored-again
else
	echo "no sqlite3: the kill -9 case is left out" >&2
fi

# y shows the command line that reopens the view; run again, it gives
# the same screen, also from a path the shell must quote
q="$tmp/it's a \$HOME p.json"
cp "$p" "$q"
printf 'size 200x30\nkeys %s<C-l>\ndump y-before\nkeys y\ndump y-line\n' \
	'jjjjwwwwlll:search MATMUL<Enter>vkkllf<C-l>' > "$tmp/y.keys"
"$NXTOP" -q --headless="$tmp/y.keys" --dump="$tmp" "$q" || fail "y: nxtop failed"
line=$(tail -n 1 "$tmp/y-line" | sed 's/  .*//')
case $line in
"nxtop '$tmp/it'\\''s a \$HOME p.json' --search MATMUL --select="*) ;;
*) fail "y: not the line wanted: $line" ;;
esac
printf 'size 200x30\ndump y-again\n' > "$tmp/again.keys"
eval "\"\$NXTOP\" -q --headless=\"\$tmp/again.keys\" --dump=\"\$tmp\" ${line#nxtop }" ||
	fail "y: the line failed: $line"
same y-before y-again
# at 80 columns the same line is too long for the status line: y
# shows it whole in the pager, the profile and each option on a line
# of its own, continued by a backslash, and the status line says so;
# pasted into a shell as it is, the lines reopen the same view
printf 'size 80x30\nkeys %s<C-l>\ndump y80-before\nkeys y\ndump y80-pager\n' \
	'jjjjwwwwlll:search MATMUL<Enter>vkkllf<C-l>' > "$tmp/y80.keys"
"$NXTOP" -q --headless="$tmp/y80.keys" --dump="$tmp" "$q" || fail "y at 80 columns: nxtop failed"
tail -n 1 "$tmp/y80-pager" | grep -q '^y: the command line in full, one option a line' ||
	fail "y at 80 columns: the status line: $(tail -n 1 "$tmp/y80-pager")"
sed -n '/^nxtop .*\\$/,/[^\\]$/p' "$tmp/y80-pager" > "$tmp/y80-lines"
head -n 1 "$tmp/y80-lines" | grep -qxF "nxtop '$tmp/it'\\''s a \$HOME p.json' \\" &&
	sed -n 2p "$tmp/y80-lines" | grep -qx '  --search MATMUL \\' &&
	sed -n 3p "$tmp/y80-lines" | grep -q '^  --select=[0-9]*ns:[0-9]*ns \\$' &&
	tail -n 1 "$tmp/y80-lines" | grep -q '^  --at=[0-9]*ns$' ||
	fail "y at 80 columns: not the lines wanted: $(cat "$tmp/y80-pager")"
printf 'size 80x30\ndump y80-again\n' > "$tmp/again80.keys"
eval "\"\$NXTOP\" -q --headless=\"\$tmp/again80.keys\" --dump=\"\$tmp\" $(sed 1s/^nxtop// "$tmp/y80-lines")" ||
	fail "y at 80 columns: the lines failed: $(cat "$tmp/y80-lines")"
same y80-before y80-again
# a path with a control character in it is not copied, nor one the
# screen shows otherwise than it is (bytes that are not UTF-8, a C1
# control, a bidi override: U+FFFD, a line that would open another path)
printf 'keys y\ndump y-control\n' > "$tmp/yc.keys"
for name in 'a\nb' 'a\377b' 'a\302\205b' 'a\342\200\256b'; do
	nl="$tmp/$(printf "$name")x.json"
	cp "$p" "$nl"
	rm -f "$tmp/y-control"
	"$NXTOP" -q --headless="$tmp/yc.keys" --dump="$tmp" "$nl" || fail "y: nxtop failed"
	grep -q '^y: not copied: a control or bad UTF-8 in a path, search or row name  ' \
		"$tmp/y-control" || fail "y copied $name: $(tail -n 1 "$tmp/y-control")"
done
printf 'keys :set osc52 on<Enter>\ndump osc52\nkeys :set osc52 maybe<Enter>\ndump osc52-bad\n' \
	> "$tmp/osc.keys"
"$NXTOP" -q --headless="$tmp/osc.keys" --dump="$tmp" "$p" || fail "osc52: nxtop failed"
grep -q '^osc52 on' "$tmp/osc52" || fail ":set osc52 on: $(tail -n 1 "$tmp/osc52")"
grep -q '^set: expected osc52 on|off or mouse on|off' "$tmp/osc52-bad" ||
	fail ":set osc52 maybe: $(tail -n 1 "$tmp/osc52-bad")"

# bad values: one line, exit 2, before any screen
k="$tmp/at-cmd.keys"
expect 2 "^nxtop: --at: 'soon' is not a time like 1.2ms" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --at soon "$p"
expect 2 "^nxtop: --at: '1s' is outside the profile \(0 \.\. " \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --at 1s "$p"
expect 2 "^nxtop: --zoom: expected START:END like 1.2ms:3.4ms, not '1ms'" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --zoom 1ms "$p"
expect 2 "^nxtop: --zoom: the end must come after the start" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --zoom 2us:1us "$p"
expect 2 "^nxtop: --select: 'x' is not a time like 3.4ms" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --select 1us:x "$p"
expect 2 "^nxtop: --select: '1s:2s' is outside the profile" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --select 1s:2s "$p"
expect 2 "^nxtop: --tracks: no row named 'nosuch' \(rows: Engines, " \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --select 1us:2us --tracks nosuch "$p"
# an empty list or name: not every row, not skipped
expect 2 "^nxtop: --tracks: no row in '' \(without --tracks: every row\)" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --select 1us:2us --tracks '' "$p"
expect 2 "^nxtop: --tracks: an empty row name in 'Tensor,,Vector'" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --select 1us:2us --tracks Tensor,,Vector "$p"
expect 2 "^nxtop: --tracks goes with --select" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --tracks Tensor "$p"
expect 2 "^nxtop: --search: " \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --search 'dur>' "$p"
expect 2 "^nxtop: --at, --zoom, --search, --select and --align need a PROFILE" \
	"$NXTOP" -q --headless="$k" --dump="$tmp" --at 1us
for f in "$err"; do
	[ "$(wc -l < "$f")" -eq 2 ] || fail "more than one error line: $(cat "$f")"
done
pass
