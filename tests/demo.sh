#!/bin/sh
# nxtop demo: deterministic output, a profile whose own summary agrees
# with its events, reused between runs, and option errors.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"

expect 0 "" "$NXTOP" demo --events 3000 --seed 7 --write "$tmp/a.json"
"$NXTOP" demo --events 3000 --seed 7 --write "$tmp/b.json" || fail "second write"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "same options gave different profiles"
"$NXTOP" demo --events 3000 --seed 8 --write "$tmp/c.json" || fail "third write"
cmp -s "$tmp/a.json" "$tmp/c.json" && fail "another seed gave the same profile"
expect 0 "Against the profile's own summary" "$NXTOP" summary -q "$tmp/a.json"
grep -q DIFFERS "$out" && fail "demo summary disagrees with its events: $(grep DIFFERS "$out")"
for e in TensorMatrix Tensor Vector Scalar GpSimd Sync qSyncIO0 Q0; do
	grep -q "^  $e " "$out" || fail "no row $e"
done
if command -v sqlite3 >/dev/null; then
	n=$(sqlite3 "$tmp/a.json.nxdb" "select count(*) from track where kind = 'counter'")
	[ "$n" -ge 5 ] || fail "demo has $n counter rows"
fi
# the demo file is written once and reused; it opens in the viewer
printf 'dump screen\n' > "$tmp/demo.keys"
expect 0 "writing the demo profile" "$NXTOP" demo --events 2000 \
	--headless="$tmp/demo.keys" --dump="$tmp"
grep -q "TensorMatrix" "$tmp/screen" || fail "demo did not open the timeline"
expect 0 "" "$NXTOP" demo --events 2000 --headless="$tmp/demo.keys" --dump="$tmp"
grep -q "writing the demo profile" "$err" && fail "demo rewritten"
ls "$tmp"/cache/nxtop/demo/demo-v*-s1-e2000.json >/dev/null || fail "demo not kept in XDG_CACHE_HOME"
expect 2 "--events takes a number from 100" "$NXTOP" demo --events 5
expect 2 "--events takes a number" "$NXTOP" demo --events lots
expect 2 "unexpected argument 'x'" "$NXTOP" demo x
expect 1 "$tmp/no/dir.json" "$NXTOP" demo --write "$tmp/no/dir.json"
pass
