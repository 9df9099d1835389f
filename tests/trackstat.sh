#!/bin/sh
# The rows' totals nxtop counts as it imports (track_stat) equal sqlite3
# counting the same events in the cache's tables: on a device profile, a
# demo bundle (device profiles imported apart and merged), the demo's
# Parquet folders and a Chrome trace; and nxtop summary's instruction,
# row and DMA figures, which come from them, equal sqlite3's too.
set -u
. "${srcdir:-.}/tests/lib.sh"

need sqlite3
need jq
scratch
export XDG_CACHE_HOME="$tmp/cache"

# counted CACHE: every row's totals, counted from the events
counted() {
	sqlite3 "$1" "SELECT track_id, 0, 0, count(*), sum(dur) FROM slice
			GROUP BY 1
		UNION ALL SELECT s.track_id, 1, coalesce(x.subgroup, 0),
			count(*), sum(s.dur) FROM instruction x
			JOIN slice s ON s.id = x.slice_id GROUP BY 1, 3
		UNION ALL SELECT s.track_id, 2, coalesce(x.queue_type, 0),
			count(*), coalesce(sum(x.transfer_size), 0)
			FROM dma_packet x JOIN slice s ON s.id = x.slice_id
			GROUP BY 1, 3
		UNION ALL SELECT s.track_id, 3, coalesce(x.queue_type, 0),
			count(*), coalesce(sum(x.transfer_size), 0)
			FROM dma_transfer x JOIN slice s ON s.id = x.slice_id
			GROUP BY 1, 3
		ORDER BY 1, 2, 3"
}

# check WHAT CACHE: its track_stat rows are those counted
check() {
	counted "$2" > "$tmp/want"
	sqlite3 "$2" "SELECT * FROM track_stat ORDER BY 1, 2, 3" > "$tmp/got"
	[ -s "$tmp/want" ] || fail "$1: no events counted"
	cmp -s "$tmp/want" "$tmp/got" ||
		fail "$1: track_stat differs: $(diff "$tmp/want" "$tmp/got" | head -5)"
}

cp "$srcdir/tests/fixtures/device_small.json" "$tmp/d.json"
"$NXTOP" import -q -o "$tmp/d.nxdb" "$tmp/d.json" || fail "device import"
check device "$tmp/d.nxdb"
# it holds instructions, DMA packets of two queue types and transfers
[ "$(sqlite3 "$tmp/d.nxdb" "SELECT count(DISTINCT kind) FROM track_stat")" -eq 4 ] &&
[ "$(sqlite3 "$tmp/d.nxdb" "SELECT count(DISTINCT value) FROM track_stat
	WHERE kind = 2")" -eq 2 ] ||
	fail "device: not every kind: $(sqlite3 "$tmp/d.nxdb" "SELECT * FROM track_stat")"

# nxtop summary: what sqlite3 counts of the instructions by subgroup,
# the events and their time by row, the packets and bytes by queue type
"$NXTOP" summary -q --format json "$tmp/d.json" > "$tmp/s.json" ||
	fail "summary failed"
jq -r '.engines | to_entries[] | select(.value.instruction_count > 0) |
	"\(.key) \(.value.instruction_count) \(.value.instruction_time_ns)"' \
	"$tmp/s.json" |
	sort > "$tmp/got"
sqlite3 -separator ' ' "$tmp/d.nxdb" "SELECT lower(g.str), count(*), sum(s.dur)
	FROM instruction x JOIN slice s ON s.id = x.slice_id
	JOIN string g ON g.id = x.subgroup GROUP BY 1" | sort > "$tmp/want"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "summary engines: $(cat "$tmp/got") / sqlite3: $(cat "$tmp/want")"
jq -r '.rows[] | "\(.name) \(.events) \(.event_time_ns)"' "$tmp/s.json" |
	sort > "$tmp/got"
sqlite3 -separator ' ' "$tmp/d.nxdb" "SELECT t.name, count(s.id),
	coalesce(sum(s.dur), 0) FROM track t LEFT JOIN slice s ON s.track_id = t.id
	WHERE t.kind NOT IN ('group', 'counter') GROUP BY t.id" | sort > "$tmp/want"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "summary rows: $(cat "$tmp/got") / sqlite3: $(cat "$tmp/want")"
jq -r '.dma_by_queue_type | to_entries[] | select(.value.packets > 0) |
	"\(.key) \(.value.packets) \(.value.packet_bytes)"' "$tmp/s.json" | sort > "$tmp/got"
sqlite3 -separator ' ' "$tmp/d.nxdb" "SELECT coalesce(q.str, 'unknown'),
	count(*), coalesce(sum(x.transfer_size), 0) FROM dma_packet x
	LEFT JOIN string q ON q.id = x.queue_type GROUP BY 1" | sort > "$tmp/want"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "summary DMA: $(cat "$tmp/got") / sqlite3: $(cat "$tmp/want")"

"$NXTOP" demo --events 20000 --system-events 2000 --write "$tmp/bundle" \
	>/dev/null || fail "demo bundle"
"$NXTOP" import -q -o "$tmp/b.nxdb" "$tmp/bundle" || fail "bundle import"
check bundle "$tmp/b.nxdb"
[ "$(sqlite3 "$tmp/b.nxdb" "SELECT count(DISTINCT t.profile_id) FROM
	track_stat x JOIN track t ON t.id = x.track_id")" -ge 2 ] ||
	fail "bundle: totals of one profile only"

"$NXTOP" demo --format parquet --events 20000 --write "$tmp/pq" >/dev/null ||
	fail "demo parquet"
for d in "$tmp"/pq/*@*; do
	case $d in *system*) continue ;; esac
	"$NXTOP" import -q -o "$tmp/p.nxdb" "$d" || fail "parquet import $d"
	check "parquet $d" "$tmp/p.nxdb"
	rm -f "$tmp/p.nxdb"
done

cp "$srcdir/tests/fixtures/chrome_nesting.json" "$tmp/c.json"
"$NXTOP" import -q -o "$tmp/c.nxdb" "$tmp/c.json" || fail "chrome import"
check chrome "$tmp/c.nxdb"
pass
