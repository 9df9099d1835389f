#!/bin/sh
# A bundle opened in the viewer: the system profile first, its device
# profiles imported in the background (src/import/background.c,
# model/devqueue.c, the merge of model/writer/merge.c). Interrupted by
# quitting, by kill -9 and by drilling into a profile still queued, a
# cache never holds part of a device profile, what is left is imported
# by the next open, and the end result has the same rows as `nxtop
# import` of the same bundle (counted by sqlite3, and in its summary);
# a Parquet bundle too.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch
b="$tmp/b"
"$NXTOP" demo --events 20000 --system-events 2000 --seed 3 --write "$b" \
	>/dev/null 2>&1 || fail "demo failed"
cp -R "$b" "$tmp/ref"
"$NXTOP" import -q "$tmp/ref" || fail "import of the reference failed"

q() {
	sqlite3 "$1.nxdb" "$2"
}

# rows of every device profile, by file: the reference to match
rows() {
	q "$1" "SELECT p.path, p.state, p.n_events,
		(SELECT count(*) FROM track t WHERE t.profile_id = p.id),
		(SELECT count(*) FROM slice s JOIN track t ON t.id = s.track_id
		 WHERE t.profile_id = p.id),
		(SELECT count(*) FROM lod l JOIN track t ON t.id = l.track_id
		 WHERE t.profile_id = p.id)
		FROM profile p WHERE p.kind = 'device' ORDER BY p.path"
}

# no half profile: a device profile not ready owns no track, and the
# cache reads back whole
whole() {
	n=$(q "$1" "SELECT count(*) FROM track t JOIN profile p ON
		p.id = t.profile_id WHERE p.state <> 'ready'")
	[ "$n" = 0 ] || fail "$2: $n tracks of device profiles not ready"
	[ "$(q "$1" 'PRAGMA quick_check')" = ok ] ||
		fail "$2: the cache does not read back"
}

rows "$tmp/ref" > "$tmp/ref.rows"
[ "$(grep -c '|ready|' "$tmp/ref.rows")" = 2 ] ||
	fail "reference: not 2 device profiles ready: $(cat "$tmp/ref.rows")"

# Quit before any import ran: both queued, the system profile whole.
printf 'keys D\ndump list\nkeys Q\n' > "$tmp/none.keys"
"$NXTOP" -q --headless="$tmp/none.keys" --dump="$tmp" "$b" ||
	fail "viewer on the bundle failed"
[ "$(q "$b" "SELECT count(*) FROM profile WHERE state = 'queued'")" = 2 ] ||
	fail "not 2 profiles queued: $(rows "$b")"
grep -q 'queued' "$tmp/list" || fail "the D list shows no queued profile"
whole "$b" "quit before the imports"

second=$(sed -n 2p "$tmp/ref.rows" | cut -d'|' -f1)
first=$(sed -n 1p "$tmp/ref.rows" | cut -d'|' -f1)

# drill WHAT BEFORE: drills into the second device profile from D after
# the script lines BEFORE, then lets one import run: the second is
# ready and opens, the first waits, queued, with nothing of it kept
drill() {
	printf '%bkeys D<Down><Enter>\ndump waiting\nwait 1\ndump opened\nkeys q\ndump list\nkeys Q\n' \
		"$2" > "$tmp/drill.keys"
	"$NXTOP" -q --headless="$tmp/drill.keys" --dump="$tmp" "$b" ||
		fail "$1: the viewer failed"
	grep -q 'Queued' "$tmp/waiting" || fail "$1: no progress shown: $(cat "$tmp/waiting")"
	[ "$(q "$b" "SELECT state FROM profile WHERE path = '$second'")" = ready ] ||
		fail "$1: the profile drilled into is not the one imported: $(rows "$b")"
	[ "$(q "$b" "SELECT state FROM profile WHERE path = '$first'")" = queued ] ||
		fail "$1: the other one did not wait: $(rows "$b")"
	grep -q 'Engines' "$tmp/opened" || fail "$1: the device timeline did not open: $(cat "$tmp/opened")"
	grep -q '1 ready, 1 queued' "$tmp/list" || fail "$1: D list: $(cat "$tmp/list")"
	whole "$b" "$1"
	no_temps "$tmp" "$1"
}

# Drill into the second one while queued: it goes first, and opens.
drill "drill into a queued profile" ""

# Drill into the second one while the first imports: the first gives
# way (it stops and waits behind it, nothing of it kept), the second
# imports and opens.
rm -f "$b.nxdb"
drill "drill in while another imports" 'start 1\n'

# Quit while the last one imports: it stays queued, nothing of it is kept.
printf 'start\nkeys Q\n' > "$tmp/quit.keys"
"$NXTOP" -q --headless="$tmp/quit.keys" --dump="$tmp" "$b" ||
	fail "quitting mid-import failed"
whole "$b" "quit mid-import"
no_temps "$tmp" "quit mid-import"

# kill -9 while importing: from scratch, killed once a profile is in
rm -f "$b.nxdb"
printf 'wait\nkeys Q\n' > "$tmp/all.keys"
"$NXTOP" -q --headless="$tmp/all.keys" --dump="$tmp" "$b" &
pid=$!
# (until the viewer ends: it may import both first)
i=0
while [ "$i" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
	n=$([ -f "$b.nxdb" ] && sqlite3 -readonly "$b.nxdb" "SELECT count(*)
		FROM profile WHERE state = 'ready' AND kind = 'device'" 2>/dev/null)
	[ "${n:-0}" -lt 1 ] || break
	i=$((i + 1))
	sleep 0.05
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
whole "$b" "kill -9"

# the next command that needs everything imports what is left
"$NXTOP" summary -q "$b" > /dev/null || fail "summary after kill -9 failed"
no_temps "$tmp" "summary after kill -9"
whole "$b" "summary after kill -9"
rows "$b" > "$tmp/b.rows"
cmp -s "$tmp/ref.rows" "$tmp/b.rows" ||
	fail "rows differ from nxtop import: $(diff "$tmp/ref.rows" "$tmp/b.rows")"
"$NXTOP" export -q --what devices "$tmp/ref" > "$tmp/ref.devices" &&
	"$NXTOP" export -q --what devices "$b" > "$tmp/b.devices" ||
	fail "export of the devices failed"
cmp -s "$tmp/ref.devices" "$tmp/b.devices" ||
	fail "devices differ: $(diff "$tmp/ref.devices" "$tmp/b.devices")"
"$NXTOP" summary -q "$tmp/ref" | sed "s|$tmp/ref|BUNDLE|g" > "$tmp/ref.summary" &&
	"$NXTOP" summary -q "$b" | sed "s|$b|BUNDLE|g" > "$tmp/b.summary" ||
	fail "summaries failed"
cmp -s "$tmp/ref.summary" "$tmp/b.summary" ||
	fail "summaries differ: $(diff "$tmp/ref.summary" "$tmp/b.summary")"

# a Parquet bundle (system and device folders) the same way
for d in pq pqref; do
	mkdir "$tmp/$d" &&
	cp -R "$srcdir/tests/fixtures/parquet-system/system_small@latest" "$tmp/$d/" &&
	cp -R "$srcdir/tests/fixtures/parquet-device/device_small@latest" \
		"$tmp/$d/device_profile_model_1578576049@latest" &&
	chmod -R u+w "$tmp/$d" || fail "parquet bundle not made"
done
"$NXTOP" import -q "$tmp/pqref" 2>/dev/null || fail "parquet reference import failed"
printf 'keys D\ndump pqlist\nwait\nkeys Q\n' > "$tmp/pq.keys"
"$NXTOP" -q --headless="$tmp/pq.keys" --dump="$tmp" "$tmp/pq" 2>/dev/null ||
	fail "viewer on the parquet bundle failed"
grep -q 'device_profile_model_1578576049@latest *queued' "$tmp/pqlist" ||
	fail "parquet: not queued first: $(cat "$tmp/pqlist")"
"$NXTOP" summary -q "$tmp/pqref" | sed "s|$tmp/pqref|BUNDLE|g" > "$tmp/pqref.summary"
"$NXTOP" summary -q "$tmp/pq" | sed "s|$tmp/pq|BUNDLE|g" > "$tmp/pq.summary"
cmp -s "$tmp/pqref.summary" "$tmp/pq.summary" ||
	fail "parquet summaries differ: $(diff "$tmp/pqref.summary" "$tmp/pq.summary")"
grep -q 'device_profile_model_1578576049@latest .* ready' "$tmp/pq.summary" ||
	fail "parquet: the device profile is not in the summary"
pass
