#!/bin/sh
# Crash safety: imports killed (SIGKILL) at several points never leave a
# cache that is later taken as complete; caches of a newer schema, cut
# short, or with garbage in their header or in pages in the middle are
# found and rebuilt with a message; a full disk (a file size limit, and
# a small tmpfs where one can be mounted) gives a clear error and leaves
# nothing behind, also when only a bundle's device profiles do not fit
# (in the viewer: imported again by the next open); two imports at once
# make one cache; markers and marker sets survive all of it.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"
p="$tmp/p.json"
c="$p.nxdb"
"$NXTOP" demo --events 30000 --seed 5 --write "$p" >/dev/null 2>&1 || fail "demo failed"

# complete: a cache whose meta says so and whose every page reads back
complete() {
	[ "$(sqlite3 "$1" "SELECT value FROM meta WHERE key = 'complete'" 2>&1)" = 1 ] &&
		[ "$(sqlite3 "$1" "PRAGMA quick_check" 2>&1)" = ok ]
}

# markers and a marker set, to be found intact at the end
markers() {
	sqlite3 "$XDG_DATA_HOME/nxtop/userdata.db" \
		"SELECT profile, set_name, name, ts FROM marker ORDER BY 1, 2, 3, 4"
}
printf 'keys :goto 1us<Enter>m:goto 2us<Enter>mMwkeep<Enter>q\n' > "$tmp/m.keys"
"$NXTOP" import -q "$p" || fail "first import failed"
"$NXTOP" -q --headless="$tmp/m.keys" --dump="$tmp" "$p" 2>/dev/null ||
	fail "setting markers failed"
markers > "$tmp/markers.before"
[ "$(grep -c '|keep|' "$tmp/markers.before")" -eq 2 ] &&
	[ "$(grep -c '||' "$tmp/markers.before")" -eq 2 ] ||
	fail "markers and set not made: $(cat "$tmp/markers.before")"

# Killed at several points of an import: what is left is either no cache
# or a complete one, and the next open gives a complete cache and
# removes the dead import's temporary file.
for delay in 0.01 0.05 0.1 0.15 0.2 0.3 0.4 0.6; do
	"$NXTOP" import -q -f "$p" &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ -e "$c" ] && ! complete "$c"; then
		fail "killed after ${delay}s: an incomplete cache in place"
	fi
	expect 0 "" "$NXTOP" import -q "$p"
	complete "$c" || fail "after a kill at ${delay}s: the cache is not complete"
	no_temps "$tmp" "kill at ${delay}s"
done

# An import killed while it finished leaves SQLite's WAL and shared
# memory files beside its temporary file: the next import removes them
# with it (a bundle part's too, its cache's file gone), but not those of
# an import still running, whose file is locked.
dead="$tmp/nxtop-Dead0001.tmp"
part="$tmp/nxtop-Dead0002.tmp-Part0001-journal"
live="$tmp/nxtop-Live0001.tmp"
cp "$c" "$dead" && head -c 4096 /dev/urandom > "$dead-wal" &&
	head -c 32768 /dev/zero > "$dead-shm" && head -c 512 /dev/urandom > "$part" &&
	cp "$c" "$live" && : > "$live-wal" && : > "$live-shm" ||
	fail "leftovers not made"
flock -n "$live" sleep 30 &
holder=$!
sleep 0.3
rm -f "$c"
expect 0 "" "$NXTOP" import -q "$p"
for f in "$dead" "$dead-wal" "$dead-shm" "$part"; do
	[ -e "$f" ] && fail "a dead import's file is left: $f"
done
for f in "$live" "$live-wal" "$live-shm"; do
	[ -e "$f" ] || fail "a running import's file was removed: $f"
done
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
rm -f "$live" "$live-wal" "$live-shm"

# A cache of an older schema opened by name is refused, in one line
# naming the profile to open to build it again (while it is there).
sqlite3 "$c" "PRAGMA user_version = 3"
expect 1 "^nxtop: $c: not a usable nxtop cache \(schema version 3, older than this nxtop's [0-9]+\); open its profile, $(realpath "$p"), to build it again\$" \
	"$NXTOP" summary -q "$c"
[ "$(wc -l < "$err")" = 1 ] || fail "older schema: not one line: $(cat "$err")"
# ... without first saying it reads all of it, as it does not
expect 1 "older than this" "$NXTOP" summary "$c"
[ "$(wc -l < "$err")" = 1 ] || fail "older schema: a note first: $(cat "$err")"
mv "$p" "$p.away"
expect 1 "^nxtop: $c: not a usable nxtop cache \(schema version 3, older than this nxtop's [0-9]+\)\$" \
	"$NXTOP" summary -q "$c"
mv "$p.away" "$p"
# A cache of a newer schema is rebuilt, with a note.
sqlite3 "$c" "PRAGMA user_version = 99"
expect 0 "^nxtop: rebuilding $c \(schema version 99, newer than this nxtop's [0-9]+\)$" \
	"$NXTOP" import "$p"
complete "$c" || fail "newer schema: not rebuilt"
# ... cut short
size=$(wc -c < "$c")
truncate -s $((size / 2)) "$c"
expect 0 "^nxtop: rebuilding $c \(damaged: cut short or grown\)$" "$NXTOP" import "$p"
complete "$c" || fail "truncated: not rebuilt"
# ... garbage in the header
printf 'garbage garbage garbage garbage' | dd of="$c" conv=notrunc 2>/dev/null
expect 0 "^nxtop: rebuilding $c \(not an SQLite file\)$" "$NXTOP" import "$p"
complete "$c" || fail "bad header: not rebuilt"
# ... garbage in pages in the middle, where the events are: opening does
# not read them (that would be slow on large caches); the first query
# that does fails, says so and removes the cache; the next open rebuilds.
pages=$(sqlite3 "$c" "SELECT pageno FROM dbstat WHERE name IN ('slice', 'slice_track') AND pageno % 3 = 0")
ps=$(sqlite3 "$c" "PRAGMA page_size")
[ -n "$pages" ] || fail "no pages found to damage"
for pg in $pages; do
	head -c "$ps" /dev/urandom | dd of="$c" bs="$ps" seek=$((pg - 1)) conv=notrunc 2>/dev/null
done
expect 1 "^nxtop: $c is damaged \(database disk image is malformed\): it was removed; open the profile again to rebuild it$" \
	"$NXTOP" export -q "$p" --query 'dur>0'
no_file "$c"
expect 0 "Matches  [0-9]+ " "$NXTOP" export -q "$p" --query 'dur>0'
complete "$c" || fail "damaged pages: not rebuilt"
# the viewer stops on the damage the same way
for pg in $pages; do
	head -c "$ps" /dev/urandom | dd of="$c" bs="$ps" seek=$((pg - 1)) conv=notrunc 2>/dev/null
done
printf 'keys wwwwwwww/dur>0<Enter>\n' > "$tmp/v.keys"
expect 1 "^nxtop: $c is damaged \(database disk image is malformed\): it was removed" \
	"$NXTOP" -q --headless="$tmp/v.keys" --dump="$tmp" "$p"
no_file "$c"
# a cache named on the command line is the user's: said, not removed
"$NXTOP" import -q "$p" -o "$tmp/mine.nxdb" || fail "import -o failed"
for pg in $(sqlite3 "$tmp/mine.nxdb" "SELECT pageno FROM dbstat WHERE name IN ('slice', 'slice_track') AND pageno % 3 = 0"); do
	head -c "$ps" /dev/urandom | dd of="$tmp/mine.nxdb" bs="$ps" seek=$((pg - 1)) conv=notrunc 2>/dev/null
done
expect 1 "mine.nxdb is damaged \(database disk image is malformed\): delete it, then open the profile again" \
	"$NXTOP" export -q "$tmp/mine.nxdb" --query 'dur>0'
test -f "$tmp/mine.nxdb" || fail "the user's cache was removed"
rm -f "$tmp/mine.nxdb"

# A full disk mid-import, as a file size limit: a clear error, nothing
# left behind, the old cache (if any) untouched.
rm -f "$c"
expect 1 "^nxtop: cannot write the cache $tmp/nxtop-[A-Za-z0-9]{8}\.tmp: (File too large|write failed \(a full disk or a file size limit\?\))$" \
	sh -c "ulimit -f 2048; exec \"$NXTOP\" import -q \"$p\""
no_file "$c"
no_temps "$tmp" "file size limit"
# ... a bundle whose system profile fits and whose device profiles do
# not: nxtop import fails as a whole (it kept the system profile, the
# device profiles "failed" for good, and exited 0) ...
b="$tmp/b"
"$NXTOP" demo --events 20000 --system-events 2000 --seed 3 --write "$b" \
	>/dev/null 2>&1 || fail "demo bundle failed"
expect 1 "^nxtop: cannot write the cache $tmp/nxtop-[A-Za-z0-9]{8}\.tmp(-[A-Za-z0-9]{8})?: (File too large|write failed \(a full disk or a file size limit\?\))$" \
	sh -c "ulimit -f 12288; exec \"$NXTOP\" import -q \"$b\""
no_file "$b.nxdb"
no_temps "$tmp" "bundle past the file size limit"
# ... and in the viewer, which imports them in the background: failed
# for now, and imported again by the next open once there is room
printf 'wait\nkeys D\ndump devlist\nkeys Q\n' > "$tmp/wait.keys"
sh -c "ulimit -f 12288; exec \"$NXTOP\" -q --headless=\"$tmp/wait.keys\" --dump=\"$tmp\" \"$b\"" ||
	fail "the viewer past the file size limit failed"
[ "$(grep -c ' failed ' "$tmp/devlist")" = 2 ] ||
	fail "device profiles past the limit not failed: $(cat "$tmp/devlist")"
expect 0 "rebuilding $b.nxdb \(a device profile could not be written to it before; importing it again\)" \
	"$NXTOP" summary "$b"
[ "$(grep -c 'json .* ready$' "$out")" = 2 ] ||
	fail "device profiles not imported again: $(grep json "$out")"
no_temps "$tmp" "bundle imported again"
# ... and a real one, where a small tmpfs can be mounted (root): the
# cache of this profile does not fit in 2 MB
mkdir "$tmp/small"
if mount -t tmpfs -o size=2m tmpfs "$tmp/small" 2>/dev/null; then
	expect 1 "^nxtop: cannot write the cache $tmp/small/nxtop-[A-Za-z0-9]{8}\.tmp: (No space left on device|disk full)$" \
		"$NXTOP" import -q "$p" -o "$tmp/small/c.nxdb"
	[ -z "$(ls -A "$tmp/small")" ] || fail "full tmpfs: left $(ls -A "$tmp/small")"
	umount "$tmp/small"
else
	echo "no tmpfs mount here: the full disk is a file size limit only"
fi

# A cache deleted alone, the -wal a killed writer left beside it kept
# (here another database's, held open while it is copied): the cache
# made at its name does not take in the old -wal's pages.
(printf 'PRAGMA page_size=32768; PRAGMA journal_mode=WAL;
CREATE TABLE old(x); INSERT INTO old VALUES(randomblob(300000));\n'
	sleep 5) | sqlite3 "$tmp/old.db" >/dev/null &
old=$!
i=0
while [ "$i" -lt 200 ] && ! [ -s "$tmp/old.db-wal" ]; do
	i=$((i + 1))
	sleep 0.05
done
cp "$tmp/old.db-wal" "$c-wal" || fail "no -wal to leave beside the cache"
kill "$old" 2>/dev/null
wait "$old" 2>/dev/null
rm -f "$c" "$tmp/old.db"*
expect 0 "" "$NXTOP" import -q "$p"
complete "$c" || fail "the cache made beside an old -wal is not complete"
expect 0 "Matches  [0-9]+ " "$NXTOP" export -q "$p" --query 'dur>0'

# Two imports at once: the second waits for the first and uses its
# cache; one complete cache, nothing else left.
rm -f "$c"
"$NXTOP" import "$p" >"$tmp/a.out" 2>&1 &
a=$!
"$NXTOP" import "$p" >"$tmp/b.out" 2>&1 &
b=$!
wait "$a" || fail "first import failed: $(cat "$tmp/a.out")"
ino=$(ls -i "$c" | cut -d' ' -f1)
wait "$b" || fail "second import failed: $(cat "$tmp/b.out")"
[ "$(ls -i "$c" | cut -d' ' -f1)" = "$ino" ] || fail "both imports built a cache"
complete "$c" || fail "two imports: not complete"
no_temps "$tmp" "two imports"

# Markers and sets are where they were.
markers > "$tmp/markers.after"
cmp -s "$tmp/markers.before" "$tmp/markers.after" ||
	fail "markers changed: $(diff "$tmp/markers.before" "$tmp/markers.after")"
pass
