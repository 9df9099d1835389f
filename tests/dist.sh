#!/bin/sh
# Distributions in the selection summary: each value's power-of-two
# buckets and nearest-rank p50/p90/p99 against the same figures computed
# by awk from the cache's events, and the same numbers in text, JSON and
# CSV; above 100000 events, the counted buckets and the percentiles
# estimated from them; from the duration aggregates at any size; the
# layer table's and a search's distributions.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"
p="$tmp/p.json"
"$NXTOP" demo --events 3000 --seed 7 --write "$p" >/dev/null 2>&1 || fail "demo"
expect 0 "" "$NXTOP" export -q "$p" --format csv
cp "$out" "$tmp/s.csv"
have sqlite3 || pass

# The engine rows' opcode and layer lines of a summary's CSV:
# row,field,value,p50,p90,p99,buckets,estimated
engine_lines() {
	tr -d '\r' <"$1" | awk -F, '$2 == "engine" && ($3 == "opcode" || $3 == "layer") {
		print $1 "," $3 "," $4 "," $12 "," $13 "," $14 "," $15 "," $16 }' | sort
}

# The same lines computed by awk from the cache's events: exact nearest
# ranks ($2 = 0), or ($2 = 1) the rank's power-of-two bucket's highest
# duration, no more than the longest.
awk_lines() {
	sqlite3 -separator , "$1" "${3:-
	SELECT t.name, 'opcode', n.str, s.dur FROM slice s
	JOIN track t ON t.id = s.track_id JOIN string n ON n.id = s.name
	WHERE t.kind = 'engine'
	UNION ALL
	SELECT t.name, 'layer', coalesce(c.str, '(none)'), s.dur FROM slice s
	JOIN track t ON t.id = s.track_id LEFT JOIN string c ON c.id = s.cat
	WHERE t.kind = 'engine'}" | sort -t, -k1,1 -k2,2 -k3,3 -k4,4n | awk -F, -v est="$2" '
function flush(   i, r, b, lo, hi, out, k, seen) {
	if (!n) return
	out = key
	for (b = 0; b < 63; b++) h[b] = 0
	for (k = 1; k <= n; k++) {
		b = 0
		while (d[k] >= 2 ^ (b + 1)) b++
		h[b]++
	}
	for (i = 0; i < 3; i++) {
		r = int((pc[i] * n + 99) / 100)
		if (!est) {
			out = out "," d[r]
			continue
		}
		seen = 0
		for (b = 0; seen + h[b] < r; b++) seen += h[b]
		hi = 2 ^ (b + 1) - 1
		out = out "," (hi < d[n] ? hi : d[n])
	}
	sep = ","
	for (b = 0; b < 63; b++) {
		if (!h[b]) continue
		lo = b ? 2 ^ b : 0
		hi = 2 ^ (b + 1) - 1
		out = out sep sprintf("%d-%d:%d", lo, hi, h[b])
		sep = " "
	}
	print out "," est
	n = 0
}
BEGIN { pc[0] = 50; pc[1] = 90; pc[2] = 99 }
{ k = $1 "," $2 "," $3; if (k != key) flush(); key = k; d[++n] = $4 }
END { flush() }' | sort
}

engine_lines "$tmp/s.csv" >"$tmp/got"
awk_lines "$p.nxdb" 0 >"$tmp/want"
[ -s "$tmp/want" ] || fail "no engine events in the cache"
cmp -s "$tmp/got" "$tmp/want" ||
	fail "CSV distributions differ from the events: $(diff "$tmp/want" "$tmp/got" | head)"

# JSON: the same figures
if have jq; then
	expect 0 "" "$NXTOP" export -q "$p" --format json
	jq -r '.rows[] | select(.kind == "engine") | .row as $r | .fields |
		to_entries[] | select(.key == "opcode" or .key == "layer") |
		.key as $f | .value[] | [$r, $f, (.value // "(none)"),
		.p50_ns, .p90_ns, .p99_ns, ([.buckets[] |
		"\(.lo_ns)-\(.hi_ns):\(.count)"] | join(" ")),
		(if .percentiles_estimated then 1 else 0 end)] | join(",")' \
		"$out" | sort >"$tmp/json"
	cmp -s "$tmp/json" "$tmp/want" ||
		fail "JSON distributions differ: $(diff "$tmp/want" "$tmp/json" | head)"
fi

# text: the MATMUL line's percentiles (all under a microsecond)
set -- $(grep '^TensorMatrix,opcode,MATMUL,' "$tmp/want" | cut -d, -f4-6 | tr , ' ')
[ $# -eq 3 ] || fail "no MATMUL line"
expect 0 "^  MATMUL .* $1 ns +$2 ns +$3 ns  [▁▂▃▄▅▆▇█ ]+$" "$NXTOP" export -q "$p" --tracks TensorMatrix

# The layer table: each layer's instructions are those whose layer is
# its name, a path ending of it ("/sg00/a/b" holds "a/b") or of a layer
# under it, or lies under it
layer_sql="WITH names AS (SELECT DISTINCT name FROM layer),
	cats AS (SELECT DISTINCT c.id, c.str FROM slice s JOIN track t ON
		t.id = s.track_id AND t.kind = 'engine' JOIN string c ON c.id = s.cat),
	own AS (SELECT cats.id AS cat, names.name AS o FROM cats JOIN names ON
		names.name = cats.str OR
		substr(names.name, -length(cats.str) - 1) = '/' || cats.str),
	hold AS (SELECT r.name AS row, own.cat FROM names r JOIN own ON
		own.o = r.name OR substr(own.o, 1, length(r.name) + 1) = r.name || '/'
		UNION SELECT r.name, cats.id FROM names r JOIN cats ON
		substr(cats.str, 1, length(r.name) + 1) = r.name || '/')
	SELECT hold.row, 'layers', '-', s.dur FROM hold JOIN slice s ON
	s.cat = hold.cat JOIN track t ON t.id = s.track_id AND t.kind = 'engine'"
awk_lines "$p.nxdb" 0 "$layer_sql" | cut -d, -f1,4- | sed 's/,0$//' >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -gt 10 ] || fail "too few layers with instructions"
expect 0 "" "$NXTOP" export -q "$p" --what layers --format csv
tr -d '\r' <"$out" | awk -F, 'NR > 1 && $16 != "" { print $1 "," $16 "," $17 "," $18 "," $19 }' |
	sort >"$tmp/got"
cmp -s "$tmp/got" "$tmp/want" ||
	fail "layer distributions differ: $(diff "$tmp/want" "$tmp/got" | head)"
if have jq; then
	expect 0 "" "$NXTOP" export -q "$p" --what layers --format json
	jq -r '.layers[] | select(.p50_ns != null) | [.layer, .p50_ns, .p90_ns,
		.p99_ns, ([.buckets[] | "\(.lo_ns)-\(.hi_ns):\(.count)"] |
		join(" "))] | join(",")' "$out" | sort >"$tmp/json"
	cmp -s "$tmp/json" "$tmp/want" ||
		fail "layer JSON distributions differ: $(diff "$tmp/want" "$tmp/json" | head)"
fi

# Search statistics: the matches' shortest, longest, percentiles and
# buckets, against the MATMUL events in the cache
# search_dist CACHE QUERY WHERE: the exact statistics of nxtop export
# --query in JSON against awk on the events sqlite3 selects
search_dist() {
	awk_lines "$1.nxdb" 0 "SELECT 'q', 'x', 'x', s.dur FROM slice s JOIN
		string n ON n.id = s.name WHERE $3" >"$tmp/want"
	[ -s "$tmp/want" ] || fail "/$2: no events"
	expect 0 "" "$NXTOP" export -q "$1" --query "$2" --format json
	jq -r '["q", "x", "x", .p50_ns, .p90_ns, .p99_ns, ([.buckets[] |
		"\(.lo_ns)-\(.hi_ns):\(.count)"] | join(" ")),
		(if .percentiles_estimated then 1 else 0 end)] | join(",")' \
		"$out" >"$tmp/json"
	cmp -s "$tmp/json" "$tmp/want" ||
		fail "/$2: distribution differs: $(diff "$tmp/want" "$tmp/json" | head)"
}
if have jq; then
	search_dist "$p" opcode=MATMUL "n.str = 'MATMUL'"
	# the mean rounded to the nearest ns, halves up
	set -- $(sqlite3 -separator ' ' "$p.nxdb" "SELECT min(dur), max(dur),
		(2 * sum(dur) + count(*)) / (2 * count(*)) FROM slice s
		JOIN string n ON n.id = s.name WHERE n.str = 'MATMUL'")
	[ "$(jq -r '"\(.min_ns) \(.max_ns) \(.avg_ns)"' "$out")" = "$1 $2 $3" ] ||
		fail "search min/max/avg differ from $1 $2 $3: $(head -12 "$out")"
	expect 0 "^Durations min $1 ns, avg $3 ns, max $2 ns; p50 " "$NXTOP" export -q "$p" --query opcode=MATMUL
	# CSV: the statistics line first, in the summaries' columns
	n=$(sqlite3 "$p.nxdb" "SELECT count(*) || ',' || sum(dur) FROM slice s JOIN
		string n ON n.id = s.name WHERE n.str = 'MATMUL'")
	expect 0 "" "$NXTOP" export -q "$p" --query opcode=MATMUL --format csv
	[ "$(tr -d '\r' <"$out" | sed -n 1p | cut -d, -f6-)" = \
		"count,dur_sum_ns,dur_avg_ns,min_ns,max_ns,p50_ns,p90_ns,p99_ns,buckets,percentiles_estimated,note" ] ||
		fail "search CSV columns: $(head -1 "$out")"
	# (the note, last, is empty: the search found something)
	[ "$(tr -d '\r' <"$out" | sed -n 2p)" = ",,,,,$n,$3,$1,$2,$(cut -d, -f4- "$tmp/want")," ] ||
		fail "search CSV statistics: $(sed -n 2p "$out") want $n,$3,$1,$2,$(cat "$tmp/want")"
	[ "$(tr -d '\r' <"$out" | awk -F, 'NR > 2 && $1 != "" && $6 == ""' | wc -l)" -eq "${n%,*}" ] ||
		fail "search CSV: not one line per match"
fi

# Above 100000 events: exact bucket counts from one pass over the
# events, percentiles estimated as their bucket's bound (~ in text)
big="$tmp/big.json"
"$NXTOP" demo --events 120000 --seed 7 --write "$big" >/dev/null 2>&1 || fail "demo"
expect 0 "" "$NXTOP" export -q "$big" --format csv
engine_lines "$out" >"$tmp/got"
awk_lines "$big.nxdb" 1 >"$tmp/want"
n=$(sqlite3 "$big.nxdb" 'select count(*) from slice')
[ "$n" -gt 100000 ] || fail "the big demo has only $n events"
cmp -s "$tmp/got" "$tmp/want" ||
	fail "estimated distributions differ: $(diff "$tmp/want" "$tmp/got" | head)"
set -- $(grep '^TensorMatrix,opcode,MATMUL,' "$tmp/want" | cut -d, -f4-6 | tr , ' ')
expect 0 "^  MATMUL .* ~$1 ns +~$2 ns +~$3 ns  [▁▂▃▄▅▆▇█ ]+$" "$NXTOP" export -q "$big"
# Above 2000000 events the name lines' distributions come from the
# duration aggregates: whole LOD buckets from their bins (32 to an
# octave), the edge buckets from the events. NXTOP_TEST_DIST_AGGREGATES
# (for tests only) takes that path at any size. The expected figures,
# from the cache's events: exact power-of-two bucket counts, and each
# percentile the longest duration of the bin holding its nearest rank.
# The trace: one thread with three names, dense enough to keep durations
# by name, and one too sparse for that with one name (its durations
# without names are that name's); the range cuts buckets at both ends.
ch="$tmp/ch.json"
awk 'BEGIN { srand(3); printf "{\"traceEvents\":["
	for (i = 0; i < 30000; i++) {
		n = i % 3; d = int(50 + (n + 1) * 300 * rand() * rand())
		printf "%s{\"name\":\"op%d\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%.3f,\"dur\":%.3f}",
			(i ? "," : ""), n, i * 0.5, d / 1000
	}
	for (i = 0; i < 300; i++)
		printf ",{\"name\":\"lone\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":%.3f,\"dur\":%.3f}",
			i * 50.25, int(100 + 900 * rand()) / 1000
	print "]}" }' >"$ch"
# key,dur lines to key,p50,p90,p99,buckets,1: exact power-of-two bucket
# counts, each percentile the longest duration of the bin (a 32nd of an
# octave) holding its nearest rank
bin_lines() {
	sort -t, -k1,1 -k2,2n | awk -F, '
function bin(x,   b) {
	if (x < 32) return x
	for (b = 0; 2 ^ b <= x; b++) ;
	return b * 32 + int(x / 2 ^ (b - 6)) % 32
}
function flush(   i, r, b, k, out, sep) {
	if (!n) return
	out = key
	for (b = 0; b < 63; b++) h[b] = 0
	for (k = 1; k <= n; k++) {
		for (b = 0; d[k] >= 2 ^ (b + 1); b++) ;
		h[b]++
	}
	for (i = 0; i < 3; i++) {
		r = int((pc[i] * n + 99) / 100)
		while (r < n && bin(d[r + 1]) == bin(d[r])) r++
		out = out "," d[r]
	}
	sep = ","
	for (b = 0; b < 63; b++) {
		if (!h[b]) continue
		out = out sep sprintf("%d-%d:%d", b ? 2 ^ b : 0, 2 ^ (b + 1) - 1, h[b])
		sep = " "
	}
	print out ",1"
	n = 0
}
BEGIN { pc[0] = 50; pc[1] = 90; pc[2] = 99 }
{ if ($1 != key) flush(); key = $1; d[++n] = $2 }
END { flush() }' | sort
}
export NXTOP_TEST_DIST_AGGREGATES=1
for range in 0ns:15ms 1234567ns:9876543ns; do
	t0=${range%%ns:*}; t1=${range#*:}
	case $t1 in *ms) t1=$((${t1%ms} * 1000000)) ;; *) t1=${t1%ns} ;; esac
	expect 0 "" "$NXTOP" export -q "$ch" --range "$range" --format csv
	tr -d '\r' <"$out" | awk -F, '$3 == "name" { print $4 "," $12 "," $13 "," $14 "," $15 "," $16 }' |
		sort >"$tmp/got"
	sqlite3 -separator , "$ch.nxdb" "SELECT n.str, s.dur FROM slice s JOIN string n
		ON n.id = s.name WHERE s.ts >= $t0 AND s.ts < $t1" | bin_lines >"$tmp/want"
	[ "$(wc -l <"$tmp/want")" -eq 4 ] || fail "$range: not four names in the trace"
	[ "$(sqlite3 "$ch.nxdb" "SELECT group_concat(agg_level <= 7, '') FROM
		(SELECT agg_level FROM track WHERE n_events > 0 ORDER BY id)")" = 10 ] ||
		fail "the trace's threads do not keep durations by name and without"
	cmp -s "$tmp/got" "$tmp/want" ||
		fail "$range: aggregate distributions differ: $(diff "$tmp/want" "$tmp/got" | head)"
done
if have jq; then
	expect 0 "" "$NXTOP" export -q "$ch" --format json
	[ "$(jq -c '[.rows[].fields.name[] | [.percentiles_estimated,
		.percentiles_max_error]] | unique' "$out")" = '[[true,0.03125]]' ] ||
		fail "aggregate percentiles not marked as within a 32nd: $(head -c 600 "$out")"
fi
# A search's statistics above 100000 matches are counted by bin too:
# name-only queries and dur comparisons read whole buckets from the
# aggregates (a comparison reads the bin holding its bound from the
# events), other queries and rows whose aggregates cannot tell count
# every match. Each query beside the SQL that selects its matches.
# stats CACHE QUERY T0 T1 WHERE: the statistics line of nxtop export
# --query over [T0, T1) ns of profile time, against sqlite3 and awk
stats() {
	sel="FROM slice s JOIN string n ON n.id = s.name, profile p WHERE
		s.ts >= p.start_ns + $3 AND s.ts < p.start_ns + $4 AND $5"
	sqlite3 -separator , "$1.nxdb" "SELECT 'q', s.dur $sel" | bin_lines |
		cut -d, -f2- >"$tmp/want"
	[ -s "$tmp/want" ] || fail "$2: no matches in [$3, $4)"
	# not $want: expect sets it
	sq="$(sqlite3 -separator , "$1.nxdb" "SELECT count(*), sum(s.dur),
		(2 * sum(s.dur) + count(*)) / (2 * count(*)), min(s.dur),
		max(s.dur) $sel"),$(cat "$tmp/want")"
	expect 0 "" "$NXTOP" export -q "$1" --query "$2" --range "$3ns:$4ns" --format csv
	line=$(tr -d '\r' <"$out" | sed -n 2p | cut -d, -f6-)
	[ "$line" = "$sq," ] || fail "/$2 in [$3, $4): statistics $line, want $sq,"
}
while IFS='|' read -r q cond; do
	stats "$ch" "$q" 0 15000000 "$cond"
	stats "$ch" "$q" 1234567 9876543 "$cond"
done <<'QUERIES'
name=op1|n.str = 'op1'
name~op dur>400ns|n.str LIKE 'op%' AND s.dur > 400
dur<=137ns|s.dur <= 137
name=lone dur>=500ns|n.str = 'lone' AND s.dur >= 500
name!=op0|n.str != 'op0'
dur>137ns dur<=400ns|s.dur > 137 AND s.dur <= 400
name=op1 dur>=100ns dur<300ns|n.str = 'op1' AND s.dur >= 100 AND s.dur < 300
-opcode=op1|1
QUERIES
expect 0 "^Durations min [0-9]+ ns, avg [0-9]+ ns, max [0-9]+ ns; p50 ~[0-9]+ ns, p90 ~[0-9]+ ns, p99 ~[0-9]+ ns  " \
	"$NXTOP" export -q "$ch" --query name=op2
# transfer_size comparisons, alone or beside names: buckets where every
# event's size matches give their duration bins (of the names matched)
# whole, the others their events; on the 120000-event demo's DMA rows,
# against sqlite3 on the slices' sizes
while IFS='|' read -r q cond; do
	stats "$big" "$q" 0 2000000000 "$cond"
	stats "$big" "$q" 123456 654321 "$cond"
done <<'QUERIES'
size>=4096|s.size >= 4096
size<4096|s.size < 4096
size!=2048|s.size != 2048
name~query size>=8192|n.str LIKE '%query%' AND s.size >= 8192
name~layer_1 size<65536|n.str LIKE '%layer_1%' AND s.size < 65536
QUERIES
# HLO names and layers, which durations are not binned by: the events of
# the buckets holding a match, those of a bucket whose every event
# matches without testing them
hlo="(SELECT str FROM string WHERE id = (SELECT hlo_name FROM instruction WHERE slice_id = s.id))"
layer="(SELECT str FROM string WHERE id = s.cat)"
ilayer="(SELECT str FROM string WHERE id = (SELECT layer FROM instruction WHERE slice_id = s.id))"
while IFS='|' read -r q cond; do
	stats "$big" "$q" 0 2000000000 "$cond"
	stats "$big" "$q" 123456 654321 "$cond"
done <<QUERIES
hlo~dot|$hlo LIKE '%dot%'
hlo=/^%[a-z]/|$hlo GLOB '%[a-z]*'
hlo~rsqrt row=Scalar|$hlo LIKE '%rsqrt%' AND s.track_id IN (SELECT id FROM track WHERE name = 'Scalar')
layer~attention|$layer LIKE '%attention%' AND s.track_id IN (SELECT id FROM track WHERE kind = 'engine')
QUERIES
# negated names and rows: the other names, the other rows
while IFS='|' read -r q cond; do
	stats "$big" "$q" 0 2000000000 "$cond"
	stats "$big" "$q" 123456 654321 "$cond"
done <<'QUERIES'
-name~SpillSave|n.str NOT LIKE '%SpillSave%'
name!=MATMUL engine=Tensor|n.str != 'MATMUL' AND s.track_id IN (SELECT id FROM track WHERE kind = 'engine' AND name = 'Tensor')
engine!=Vector|s.track_id NOT IN (SELECT id FROM track WHERE kind = 'engine' AND name = 'Vector')
-row~Reload name~kernel|n.str LIKE '%kernel%' AND s.track_id IN (SELECT id FROM track WHERE name NOT LIKE '%Reload%')
-engine=Sync dur>300ns|s.dur > 300 AND s.track_id NOT IN (SELECT id FROM track WHERE kind = 'engine' AND name = 'Sync')
QUERIES
# negated HLO names and layers: the events whose value is another, and
# those without one
while IFS='|' read -r q cond; do
	stats "$big" "$q" 0 2000000000 "$cond"
	stats "$big" "$q" 123456 654321 "$cond"
done <<QUERIES
-hlo~dot|NOT coalesce($hlo LIKE '%dot%', 0)
hlo!=/^%[a-m]/|NOT coalesce($hlo GLOB '%[a-m]*', 0)
-hlo~rsqrt row=Scalar|NOT coalesce($hlo LIKE '%rsqrt%', 0) AND s.track_id IN (SELECT id FROM track WHERE name = 'Scalar')
-layer~attention|NOT coalesce($ilayer LIKE '%attention%', 0)
-hlo!=/^%[a-z]/|$hlo GLOB '%[a-z]*'
-layer~data -layer~dense|NOT coalesce($ilayer LIKE '%data%' OR $ilayer LIKE '%dense%', 0)
QUERIES
unset NXTOP_TEST_DIST_AGGREGATES
# Up to 100000 matches, every match's duration, read from the buckets
# the aggregates hold candidates in: names beside comparisons on DMA
# rows whose names are kept coarser than their durations and sizes
if have jq; then
	search_dist "$big" 'name~kernel size>8192' "n.str LIKE '%kernel%' AND s.size > 8192"
	search_dist "$big" 'name~SpillSave1 dur<430ns' "n.str LIKE '%SpillSave1%' AND s.dur < 430"
fi
pass
