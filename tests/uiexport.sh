#!/bin/sh
# What the viewer's e and E write equals what nxtop export prints for the
# same range, rows and query, byte for byte, in text, JSON and CSV: a box
# over four rows, the window, a search, the layer table, the markers and
# the info panels. The numbers the terminal shows are the numbers the
# command line gives.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" NXTOP_EXPORT_DIR="$tmp/out"
mkdir "$tmp/out"
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/p.json"
p="$tmp/p.json"
"$NXTOP" import -q "$p" || fail "import failed"

# rows: Engines, TensorMatrix, Tensor, Vector, Scalar, GpSimd, Sync
cat > "$tmp/ui.keys" <<'KEYS'
keys jjj:goto 0<Enter>v:goto 6us<Enter>jjj<Enter>eEjEcq<Esc>
keys 0WeEjEcqe
keys /layer~dot<Enter>eEjEc<Esc>
keys LeEjEcq
keys kkkkkkk:goto 3us<Enter>m:goto 1.2ms<Enter>m:mark end<Enter>MeEjEcueq
keys ieEjEc<Enter>eEjq
KEYS
"$NXTOP" -q --headless="$tmp/ui.keys" --dump="$tmp" "$p" ||
	fail "the viewer failed"

# start_ns and end_ns of a JSON export
range() {
	s=$(sed -n 's/^  "start_ns": \([0-9]*\),$/\1/p' "$1")
	e=$(sed -n 's/^  "end_ns": \([0-9]*\),$/\1/p' "$1")
	echo "$s:$e"
}

# same FILE ARGS...: nxtop export ARGS prints exactly FILE (in the
# format of FILE's extension)
same() {
	file=$1
	shift
	case $file in
	*.json) set -- "$@" --format json ;;
	*.csv) set -- "$@" --format csv ;;
	esac
	if [ ! -s "$tmp/out/$file" ]; then
		fail "the viewer wrote no $file"
		return
	fi
	"$NXTOP" export -q "$p" "$@" > "$tmp/cli" 2>&1 || fail "export $*: $(cat "$tmp/cli")"
	cmp -s "$tmp/out/$file" "$tmp/cli" ||
		fail "$file differs from nxtop export $*:
$(diff -u "$tmp/out/$file" "$tmp/cli")"
}

# the box: 0 .. 6 us and the cursor's column, over four rows
r=$(range "$tmp/out/nxtop-selection-1.json")
[ "${r%:*}" -eq 0 ] && [ "${r#*:}" -gt 6000 ] || fail "box range $r"
rows=$(sed -n 's/^      "row": "\(.*\)",$/\1/p' "$tmp/out/nxtop-selection-1.json" | paste -sd, -)
[ "$rows" = "Vector,Scalar,GpSimd,Sync" ] || fail "box rows: $rows"
for f in txt json csv; do
	same "nxtop-selection-1.$f" --range "$r" --tracks "$rows"
done
grep -q "^== Scalar (engine): 1 event," "$tmp/out/nxtop-selection-1.txt" ||
	fail "box summary: $(cat "$tmp/out/nxtop-selection-1.txt")"
grep -q "^# nxtop selection summary$" "$tmp/out/nxtop-selection-1.txt" ||
	fail "box summary: not titled so: $(head -1 "$tmp/out/nxtop-selection-1.txt")"

# the window (W, then e in its summary): the whole profile, every row,
# titled as the Current Window summary
r=$(range "$tmp/out/nxtop-window-1.json")
for f in txt json csv; do
	same "nxtop-window-1.$f" --what window --range "$r"
done
grep -q "^Events   11 " "$tmp/out/nxtop-window-1.txt" || fail "window: not 11 events"
grep -q "^# nxtop window summary$" "$tmp/out/nxtop-window-1.txt" ||
	fail "window: not titled so: $(head -1 "$tmp/out/nxtop-window-1.txt")"
# e in the timeline without a box or a search writes the same
cmp -s "$tmp/out/nxtop-window-1.txt" "$tmp/out/nxtop-window-2.txt" ||
	fail "e in the timeline: not the window summary: $(head -1 "$tmp/out/nxtop-window-2.txt")"

# a search: the matches in view
r=$(range "$tmp/out/nxtop-search-1.json")
for f in txt json csv; do
	same "nxtop-search-1.$f" --query 'layer~dot' --range "$r"
done
grep -q "^Matches  5 " "$tmp/out/nxtop-search-1.txt" || fail "search: not 5 matches"

# the layer table, the markers (in a unit per value, then in ns), info
for f in txt json csv; do
	same "nxtop-layers-1.$f" --what layers
	same "nxtop-markers-1.$f" --what markers
	same "nxtop-info-1.$f" --what info
done
same nxtop-markers-2.txt --what markers --unit ns
grep -q "^end  *1200000  *M2 (previous)  *0$" "$tmp/out/nxtop-markers-2.txt" ||
	fail "markers: $(cat "$tmp/out/nxtop-markers-2.txt")"
same nxtop-summary-1.txt --what info --section summary
same nxtop-summary-1.json --what info --section summary

# With --ascii (as on a terminal without UTF-8) the screen says "us",
# but e and E write the same files as above, "µs" and all, as nxtop
# export prints them (the markers kept apart, so that they are the same).
mkdir "$tmp/ascii" "$tmp/asciidump"
XDG_DATA_HOME="$tmp/data-ascii" NXTOP_EXPORT_DIR="$tmp/ascii" "$NXTOP" -q \
	--ascii --headless="$tmp/ui.keys" --dump="$tmp/asciidump" "$p" ||
	fail "the viewer failed with --ascii"
for f in "$tmp"/out/nxtop-*; do
	cmp -s "$f" "$tmp/ascii/${f##*/}" ||
		fail "--ascii: ${f##*/} differs:
$(diff -u "$f" "$tmp/ascii/${f##*/}")"
done
grep -q "µs" "$tmp/ascii/nxtop-selection-1.txt" ||
	fail "--ascii: no µs in the selection export"

# e and E past a file size limit (ulimit -f 64: 32 or 64 KiB as the
# shell counts, under the window's 1252 lines but over the layer
# table): the status line says why, no file is left, and the next
# export that fits is written whole.
"$NXTOP" demo --events 20000 --seed 1 --write "$tmp/demo.json" >/dev/null 2>&1 ||
	fail "demo failed"
"$NXTOP" import -q "$tmp/demo.json" || fail "demo import failed"
mkdir "$tmp/full" "$tmp/fulldump"
cat > "$tmp/full.keys" <<'KEYS'
keys We
dump text
keys Ec
dump csv
keys qLe
dump layers
KEYS
(ulimit -f 64 && NXTOP_EXPORT_DIR="$tmp/full" exec "$NXTOP" -q \
	--headless="$tmp/full.keys" --dump="$tmp/fulldump" "$tmp/demo.json") ||
	fail "the viewer failed under ulimit -f"
for d in text:txt csv:csv; do
	grep -q "nxtop-window-1.${d#*:}: File too large" "$tmp/fulldump/${d%:*}" ||
		fail "no write error on the status line: $(tail -n 1 "$tmp/fulldump/${d%:*}")"
	no_file "$tmp/full/nxtop-window-1.${d#*:}"
done
grep -q "^wrote $tmp/full/nxtop-layers-1.txt" "$tmp/fulldump/layers" ||
	fail "the layer table was not exported: $(tail -n 1 "$tmp/fulldump/layers")"
"$NXTOP" export -q "$tmp/demo.json" --what layers > "$tmp/cli" 2>&1
cmp -s "$tmp/cli" "$tmp/full/nxtop-layers-1.txt" || fail "the layer table export is not whole"
pass
