#!/bin/sh
# Caches and their journal mode (writer_settle in model/writer/merge.c,
# model/cache/dbopen.c, cache_pick in src/cli/open.c). A bundle whose
# device profiles the viewer imported in the background is back in
# rollback-journal mode once the viewer quits, with no -wal or -shm file
# beside it; one quit half way stays in WAL mode, checkpointed, and the
# next `nxtop summary` finishes and settles it; one left in WAL mode is
# settled by the next command. In a folder the user cannot write to (as
# another user under root, through setpriv), the cache beside the
# profile is read in either mode and nothing is written there; one whose
# -wal file holds changes SQLite cannot read there is refused, named, in
# one line saying what to do, and opening the profile builds one in the
# user's own cache folder. Journal modes are read by sqlite3, after
# checking that no -wal or -shm file is left.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
scratch
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
b="$tmp/b"
"$NXTOP" demo --events 20000 --system-events 2000 --seed 3 --write "$b" \
	>/dev/null 2>&1 || fail "demo failed"

# settled CACHE WHAT: rollback-journal mode, nothing beside it
settled() {
	for f in "$1-wal" "$1-shm"; do
		[ -e "$f" ] && fail "$2: $f is left"
	done
	[ "$(sqlite3 "$1" 'PRAGMA journal_mode')" = delete ] ||
		fail "$2: $1 is not in rollback-journal mode"
}

devices_ready() {
	sqlite3 "$1" "SELECT count(*) FROM profile WHERE kind = 'device'
		AND state = 'ready'"
}

# The viewer imports both device profiles, then quits.
printf 'wait\nkeys Q\n' > "$tmp/all.keys"
"$NXTOP" -q --headless="$tmp/all.keys" --dump="$tmp" "$b" ||
	fail "viewer on the bundle failed"
settled "$b.nxdb" "viewer after the background import"
[ "$(devices_ready "$b.nxdb")" = 2 ] || fail "not 2 device profiles ready"
"$NXTOP" summary -q "$b" > "$tmp/ref.summary" || fail "summary failed"
settled "$b.nxdb" "summary of a finished cache"

# Quit before the imports: WAL mode stays for the next viewer, with
# nothing in a -wal file; the next summary imports the rest and settles.
rm -f "$b.nxdb"
printf 'keys Q\n' > "$tmp/none.keys"
"$NXTOP" -q --headless="$tmp/none.keys" --dump="$tmp" "$b" ||
	fail "viewer quit before the imports failed"
for f in "$b.nxdb-wal" "$b.nxdb-shm"; do
	[ -e "$f" ] && fail "quit before the imports: $f is left"
done
[ "$(sqlite3 "$b.nxdb" 'PRAGMA journal_mode')" = wal ] ||
	fail "quit before the imports: not in WAL mode"
"$NXTOP" summary -q "$b" > "$tmp/b.summary" || fail "summary failed"
cmp -s "$tmp/ref.summary" "$tmp/b.summary" ||
	fail "summaries differ: $(diff "$tmp/ref.summary" "$tmp/b.summary")"
settled "$b.nxdb" "summary after the viewer quit early"

# Left in WAL mode (a viewer killed after its imports): the next
# command, or the next viewer on quitting, settles it.
sqlite3 "$b.nxdb" 'PRAGMA journal_mode=WAL' > /dev/null
"$NXTOP" export -q --what devices "$b" > /dev/null || fail "export failed"
settled "$b.nxdb" "export of a cache left in WAL mode"
sqlite3 "$b.nxdb" 'PRAGMA journal_mode=WAL' > /dev/null
"$NXTOP" -q --headless="$tmp/none.keys" --dump="$tmp" "$b" ||
	fail "viewer on a cache left in WAL mode failed"
settled "$b.nxdb" "viewer on a cache left in WAL mode"

# A folder this user cannot write to: as root, another user's folder.
run() {
	"$@"
}
if [ "$(id -u)" -ne 0 ]; then
	as=run
	own_cache="$tmp/cache/nxtop"
elif other_setup "$tmp/other"; then
	as=as_other
	own_cache="$tmp/other/cache/nxtop"
	chmod 711 "$tmp"
else
	pass
	exit 0
fi
d="$tmp/ro"
mkdir "$d"
[ "$as" = run ] || chown "$other_uid:$other_uid" "$d"
$as "$NXTOP" demo --events 20000 --system-events 2000 --seed 3 \
	--write "$d/b" >/dev/null 2>&1 || fail "demo in $d failed"
$as "$NXTOP" import -q "$d/b" || fail "import in $d failed"
$as "$NXTOP" summary -q "$d/b" > "$tmp/ro.ref" || fail "summary in $d failed"
listing() {
	ls -A "$d"
	ls -A "$own_cache" 2>/dev/null | grep -v '^locks$'
}
listing > "$tmp/ro.files"

# ro CACHE-OR-PROFILE WHAT: its summary with the folder read-only is the
# one made where it was writable, and nothing new is written anywhere
ro() {
	chmod 555 "$d"
	$as "$NXTOP" summary -q "$1" > "$tmp/ro.out" 2>"$err" ||
		fail "$2: summary failed: $(cat "$err")"
	chmod 755 "$d"
	cmp -s "$tmp/ro.ref" "$tmp/ro.out" ||
		fail "$2: summary differs: $(diff "$tmp/ro.ref" "$tmp/ro.out")"
	listing | cmp -s "$tmp/ro.files" - ||
		fail "$2: files written: $(listing | diff "$tmp/ro.files" -)"
}
ro "$d/b" "read-only folder"
ro "$d/b.nxdb" "read-only folder, the cache named"
$as sqlite3 "$d/b.nxdb" 'PRAGMA journal_mode=WAL' > /dev/null
ro "$d/b" "read-only folder, WAL mode"
ro "$d/b.nxdb" "read-only folder, WAL mode, the cache named"

# A -wal file with changes and no -shm: kept as it was while sqlite3 had
# the cache open (the same rows, written twice).
$as sqlite3 "$d/b.nxdb" \
	"INSERT INTO meta(key, value) VALUES('walmode.sh', 1)" \
	"DELETE FROM meta WHERE key = 'walmode.sh'" \
	".shell cp $d/b.nxdb-wal $d/kept-wal" > /dev/null
$as cp "$d/kept-wal" "$d/b.nxdb-wal"
[ -s "$d/b.nxdb-wal" ] && [ ! -e "$d/b.nxdb-shm" ] ||
	fail "no -wal file with changes made: $(ls -l "$d")"
chmod 555 "$d"
expect 1 "^nxtop: $d/b.nxdb: not a usable nxtop cache \(in WAL mode with changes in its -wal file, and its folder $d is not writable: open it once with write access to that folder\)$" \
	$as "$NXTOP" summary -q "$d/b.nxdb"
[ "$(wc -l < "$err")" = 1 ] || fail "not one line: $(cat "$err")"
expect 0 "^nxtop: $d/b.nxdb is not used \(in WAL mode .*\): building one in your own cache folder$" \
	$as "$NXTOP" summary "$d/b"
cmp -s "$tmp/ro.ref" "$out" ||
	fail "summary from the own cache folder differs: $(diff "$tmp/ro.ref" "$out")"
ls "$own_cache" | grep -q '^b-.*\.nxdb$' ||
	fail "no cache in $own_cache: $(ls -A "$own_cache")"
chmod 755 "$d"
# with write access again, the changes are read and the cache settled
$as "$NXTOP" summary -q "$d/b" > "$tmp/ro.out" || fail "summary failed"
cmp -s "$tmp/ro.ref" "$tmp/ro.out" || fail "summary after write access differs"
settled "$d/b.nxdb" "the cache with changes, once writable"

pass
