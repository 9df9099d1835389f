#!/bin/sh
# Searches comparing dur and size, alone and beside name and engine
# terms, and searches of HLO names: the matches nxtop export --query
# counts agree with sqlite3 counting the same events in the cache, on a
# fixture and on a demo, also on the edges of the aggregates' duration
# bins.
set -u
. "${srcdir:-.}/tests/lib.sh"
# The search paths checked here are those of large profiles, whose
# aggregates' buckets hold at least 128 events each; the small demo and
# traces below get such buckets (names kept coarser than durations,
# buckets passed over) with NXTOP_TEST_AGG_PER_BUCKET=1.
export NXTOP_TEST_AGG_PER_BUCKET=1

need sqlite3
need jq
scratch
export XDG_CACHE_HOME="$tmp/cache"

# sql CACHE WHERE: events of the cache's slices that WHERE keeps, with
# sz the bytes and q.str the queue type of its DMA packet or transfer,
# n its name, t its row
sql() {
	sqlite3 "$1" "SELECT count(*) FROM slice s
		LEFT JOIN (SELECT slice_id, transfer_size AS sz, queue_type AS qt
			FROM dma_packet UNION ALL SELECT slice_id, transfer_size,
			queue_type FROM dma_transfer) d ON d.slice_id = s.id
		LEFT JOIN string q ON q.id = d.qt
		LEFT JOIN string n ON n.id = s.name
		JOIN track t ON t.id = s.track_id WHERE $2"
}

# steps CACHE QUERY WHERE: the events n selects, pressed 5 times after
# the search, then N 4 times, are sqlite3's first 5 matches in time
# order (ts, then id) and back; each is named on the status line as
# "NAME on ROW at TIME"
steps() {
	{
		printf 'size 200x50\nkeys /%s<Enter>\n' "$2"
		for k in n n n n n N N N N; do
			printf 'keys %s\ndump %s\n' "$k" "$k$((i = ${i:-0} + 1))"
		done
	} > "$tmp/steps.keys"
	rm -rf "$tmp/steps"
	mkdir "$tmp/steps"
	"$NXTOP" -q --headless="$tmp/steps.keys" --dump="$tmp/steps" "$1" \
		2>"$err" || fail "n/N after '$2' on $1: $(cat "$err")"
	got=$(for f in $(ls "$tmp/steps" | sort -k1.2n); do
		tail -n 1 "$tmp/steps/$f" | sed 's/ at [0-9].*//'
	done)
	first=$(sqlite3 -separator ' on ' "$1" "SELECT n.str, t.name FROM slice s
		JOIN track t ON t.id = s.track_id JOIN string n ON n.id = s.name
		WHERE $3 ORDER BY s.ts, s.id LIMIT 5") || fail "sqlite3 on $1: $3"
	want=$(printf '%s\n' "$first"; printf '%s\n' "$first" | sed '$d' | tac)
	[ "$got" = "$want" ] ||
		fail "n/N after '$2' on $1: $(echo $got) but sqlite3: $(echo $want)"
	unset i
}

# check CACHE QUERY WHERE
check() {
	want=$(sql "$1" "$3") || fail "sqlite3 on $1: $3"
	got=$("$NXTOP" export -q "$1" --query="$2" --format json 2>"$err" |
		jq -e .matches) || fail "query '$2' on $1: $(cat "$err")"
	[ "$got" = "$want" ] || fail "'$2' on $1: $got matches, sqlite3 counts $want"
	[ "$want" -gt 0 ] || fail "'$2' on $1: no events to count"
}

# counted CACHE QUERY WHERE: the matches the status line counts in view
# after the search (the whole profile: from the aggregates where they
# tell) are sqlite3's. With ahead=1, a key is typed while the search's
# frame is read, which stops a search that tests events one by one: the
# count then shows only where the aggregates answer.
counted() {
	{
		printf 'size 200x50\n'
		[ "${ahead:-0}" = 0 ] || printf 'typeahead\n'
		printf 'keys /%s<Enter>\ndump s\n' "$2"
	} > "$tmp/c.keys"
	rm -rf "$tmp/c"
	mkdir "$tmp/c"
	"$NXTOP" -q --headless="$tmp/c.keys" --dump="$tmp/c" "$1" 2>"$err" ||
		fail "search '$2' on $1: $(cat "$err")"
	got=$(sed -n 's/.* in view: \([0-9]*\) match.*/\1/p' "$tmp/c/s")
	want=$(sql "$1" "$3") || fail "sqlite3 on $1: $3"
	[ "$got" = "$want" ] ||
		fail "'$2' on $1: ${got:-no} matches in view, sqlite3 counts $want"
}

run() {
	check "$1" 'dur>200ns' 's.dur > 200'
	check "$1" 'dur<=1us' 's.dur <= 1000'
	check "$1" 'dur>=100ns dur<2us' 's.dur >= 100 AND s.dur < 2000'
	check "$1" 'size>=2048' 'd.sz >= 2048'
	check "$1" 'size<4096' 'd.sz < 4096'
	check "$1" 'name=MATMUL dur>100ns' "n.str = 'MATMUL' AND s.dur > 100"
	check "$1" "engine=$2 dur<500ns" "t.name = '$2' AND s.dur < 500"
	# the longest event, and the longest MATMUL, at the edge of the
	# rows' longest durations
	max=$(sqlite3 "$1" 'SELECT max(dur) FROM slice')
	check "$1" "dur>=${max}ns" "s.dur >= $max"
	check "$1" "dur>$((max - 1))ns" "s.dur > $max - 1"
	mm=$(sqlite3 "$1" "SELECT max(s.dur) FROM slice s JOIN track t ON
		t.id = s.track_id JOIN string n ON n.id = s.name
		WHERE n.str = 'MATMUL' AND t.kind = 'engine'")
	check "$1" "opcode=MATMUL dur>=${mm}ns" \
		"n.str = 'MATMUL' AND t.kind = 'engine' AND s.dur >= $mm"
	# searches on size read the slice's copy of its DMA row's size
	[ "$(sql "$1" 's.size IS NOT d.sz')" = 0 ] ||
		fail "$1: slice sizes differ from their DMA rows'"
	[ "$(sql "$1" 's.size IS NOT NULL')" -gt 0 ] || fail "$1: no slice sizes"
	steps "$1" 'dur>200ns' 's.dur > 200'
	steps "$1" 'dur>2us' 's.dur > 2000'
	# two comparisons: on dur, a range from the aggregates; on dur and
	# size, the dur aggregates rule buckets out and the events decide
	check "$1" 'dur>200ns size>=2048' 's.dur > 200 AND d.sz >= 2048'
	check "$1" 'name=MATMUL dur>100ns dur<=300ns' \
		"n.str = 'MATMUL' AND s.dur > 100 AND s.dur <= 300"
	counted "$1" 'dur>=100ns dur<lt>2us' 's.dur >= 100 AND s.dur < 2000'
	counted "$1" 'dur>200ns size>=2048' 's.dur > 200 AND d.sz >= 2048'
	counted "$1" 'name=MATMUL dur>100ns dur<lt>=300ns' \
		"n.str = 'MATMUL' AND s.dur > 100 AND s.dur <= 300"
	steps "$1" 'dur>=100ns dur<lt>2us' 's.dur >= 100 AND s.dur < 2000'
	steps "$1" 'dur>200ns size>=2048' 's.dur > 200 AND s.size >= 2048'
	steps "$1" 'name=MATMUL dur>100ns dur<lt>=300ns' \
		"n.str = 'MATMUL' AND s.dur > 100 AND s.dur <= 300"
	# a name beside a size comparison: the names rule buckets out, the
	# events of the rest are tested
	dn=$(sqlite3 "$1" "SELECT n.str FROM slice s JOIN string n ON
		n.id = s.name WHERE s.size IS NOT NULL GROUP BY n.str
		ORDER BY count(*) DESC LIMIT 1")
	ds=$(sqlite3 "$1" "SELECT max(s.size) FROM slice s JOIN string n ON
		n.id = s.name WHERE n.str = '$dn'")
	check "$1" "name=$dn size>=$ds" "n.str = '$dn' AND d.sz >= $ds"
	counted "$1" "name=$dn size>=$ds" "n.str = '$dn' AND d.sz >= $ds"
	steps "$1" "name=$dn size>=$ds" "n.str = '$dn' AND s.size >= $ds"
	check "$1" "name~_ dur>100ns size>=1" \
		"n.str LIKE '%\\_%' ESCAPE '\\' AND s.dur > 100 AND d.sz >= 1"
	# engine and row terms alone: every event of the row, counted from
	# the dur aggregates
	check "$1" "engine=$2" "t.name = '$2'"
	counted "$1" "engine=$2" "t.name = '$2'"
	counted "$1" "row=$2" "t.name = '$2'"
	steps "$1" "row=$2" "t.name = '$2'"
	queues "$1"
	edges "$1" "$2"
}

# Searches on queue_type read the slice's category on DMA rows: their
# matches are those of the queue type of the packets and transfers.
# queues CACHE [QUEUE_TYPE]
queues() {
	# the queue type of the most packet sizes (or the one named), and its
	# largest size
	qt=$(sqlite3 -separator ' ' "$1" "SELECT s.str, max(transfer_size)
		FROM dma_packet d JOIN string s ON s.id = d.queue_type
		WHERE s.str LIKE '${2:-%}' GROUP BY s.str HAVING count(DISTINCT transfer_size) > 1
		ORDER BY count(DISTINCT transfer_size) DESC, count(*) DESC LIMIT 1")
	[ -n "$qt" ] || fail "$1: no DMA queue type with several sizes"
	sz=${qt#* } qt=${qt% *}
	is="q.str = '$qt' COLLATE NOCASE"
	check "$1" "queue_type=$qt" "$is"
	counted "$1" "queue_type=$qt" "$is"
	steps "$1" "queue_type=$qt" "s.id IN (SELECT slice_id FROM
		(SELECT slice_id, queue_type AS qt FROM dma_packet UNION ALL
		SELECT slice_id, queue_type FROM dma_transfer) d JOIN string q
		ON q.id = d.qt WHERE $is)"
	check "$1" "queue_type=$qt size>=$sz" "$is AND d.sz >= $sz"
	check "$1" "queue_type=$qt size<$sz" "$is AND d.sz < $sz"
	counted "$1" "queue_type=$qt size>=$sz" "$is AND d.sz >= $sz"
	counted "$1" "queue_type=$qt size<lt>$sz" "$is AND d.sz < $sz"
	counted "$1" "queue_type=$qt dur>=1us" "$is AND s.dur >= 1000"
	check "$1" "queue_type!=$qt" "NOT coalesce($is, 0)"
	check "$1" "-queue_type=$qt size>=$sz" \
		"NOT coalesce($is, 0) AND d.sz >= $sz"
	check "$1" "queue_type~a" "q.str LIKE '%a%'"
	check "$1" "queue_type!~a dur<1us" \
		"NOT coalesce(q.str LIKE '%a%', 0) AND s.dur < 1000"
	steps "$1" "queue_type=$qt size>=$sz" "s.id IN (SELECT slice_id FROM
		(SELECT slice_id, transfer_size AS sz, queue_type AS qt FROM
		dma_packet UNION ALL SELECT slice_id, transfer_size, queue_type
		FROM dma_transfer) d JOIN string q ON q.id = d.qt
		WHERE $is AND d.sz >= $sz)"
}

# The aggregates count durations by power of two, 8 bins an octave:
# bounds at a power of two held by events, on a bin's edge and inside
# a bin, every comparison, alone and beside a name or row term; sizes
# held by events and between them.
edges() {
	p=$(sqlite3 "$1" "SELECT dur FROM slice WHERE dur >= 16 AND
		(dur & (dur - 1)) = 0 GROUP BY dur ORDER BY count(*) DESC LIMIT 1")
	[ -n "$p" ] || fail "$1: no event lasts a power of two"
	for b in "$p" $((p + p / 8)) $((p + 3)) $((p - 1)); do
		for op in '>' '>=' '<' '<=' '=' '!='; do
			check "$1" "dur$op${b}ns" "s.dur $op $b"
		done
		check "$1" "engine=$2 dur<=${b}ns" "t.name = '$2' AND s.dur <= $b"
		check "$1" "row=$2 dur>${b}ns" "t.name = '$2' AND s.dur > $b"
	done
	check "$1" "dur>=${p}ns dur<$((p + p / 8))ns" "s.dur >= $p AND s.dur < $((p + p / 8))"
	check "$1" "dur>$((p - 1))ns dur!=$((p + 3))ns dur<=$((2 * p))ns" \
		"s.dur > $((p - 1)) AND s.dur != $((p + 3)) AND s.dur <= $((2 * p))"
	counted "$1" "dur>=${p}ns dur<lt>$((p + p / 8))ns" "s.dur >= $p AND s.dur < $((p + p / 8))"
	check "$1" "opcode=MATMUL dur<${p}ns" \
		"n.str = 'MATMUL' AND t.kind = 'engine' AND s.dur < $p"
	mp=$(sqlite3 "$1" "SELECT s.dur FROM slice s JOIN string n ON
		n.id = s.name WHERE n.str = 'MATMUL' GROUP BY s.dur
		ORDER BY count(*) DESC LIMIT 1")
	check "$1" "opcode=MATMUL dur=${mp}ns" \
		"n.str = 'MATMUL' AND t.kind = 'engine' AND s.dur = $mp"
	sz=$(sqlite3 "$1" 'SELECT size FROM slice WHERE size IS NOT NULL
		GROUP BY size ORDER BY count(*) DESC LIMIT 1')
	for b in "$sz" $((sz + 1)); do
		for op in '>' '>=' '<' '<=' '=' '!='; do
			[ "$(sql "$1" "d.sz $op $b")" = 0 ] ||
				check "$1" "size$op$b" "d.sz $op $b"
		done
	done
	steps "$1" "dur<lt>${p}ns" "s.dur < $p"
	steps "$1" "dur>=${p}ns" "s.dur >= $p"
	steps "$1" "size>=$sz" "s.size >= $sz"
}

# Rows too sparse to keep durations by name keep their names at a
# coarser level than their durations and sizes: there the name buckets
# rule a comparison's buckets out (no name matches) or in (every name
# does), and the events of the others are read. On the demo, "kernel"
# names every event of some DMA rows and none of the others;
# "SpillSave1" some of a row's names.
# apart CACHE
apart() {
	[ "$(sqlite3 "$1" "SELECT count(*) FROM track t WHERE kind = 'dma'
		AND agg_level > (SELECT min(level) FROM agg WHERE
		track_id = t.id AND field = 4)")" -gt 1 ] ||
		fail "$1: no DMA row keeps its names apart from its durations"
	for q in 'name~kernel size>8192|%kernel%|d.sz > 8192' \
		'name~SpillSave1 size>65536|%SpillSave1%|d.sz > 65536' \
		'name~kernel dur>380ns|%kernel%|s.dur > 380' \
		'name~SpillSave1 dur<lt>430ns size>=65536|%SpillSave1%|s.dur < 430 AND d.sz >= 65536' \
		'row=qVectorSpillReload0 name~SpillSave dur>400ns|%SpillSave%|t.name = '"'qVectorSpillReload0'"' AND s.dur > 400'; do
		w="n.str LIKE '${q#*|}" w="${w%%|*}' AND ${q##*|}"
		q=${q%%|*}
		check "$1" "$(echo "$q" | sed 's/<lt>/</g')" "$w"
		counted "$1" "$q" "$w"
		steps "$1" "$q" "$(echo "$w" | sed 's/d\.sz/s.size/g')"
	done
}

# durations CACHE QUERY WHERE: the shortest, longest and summed durations
# of the matches nxtop export gives are sqlite3's
durations() {
	got=$("$NXTOP" export -q "$1" --query="$2" --format json |
		jq -r '[.min_ns, .max_ns, .duration_sum_ns] | join(" ")')
	want=$(sqlite3 -separator ' ' "$1" "SELECT min(s.dur), max(s.dur),
		sum(s.dur) FROM slice s JOIN track t ON t.id = s.track_id
		WHERE $3")
	[ "$got" = "$want" ] ||
		fail "'$2' on $1: durations $got, sqlite3 says $want"
}

# A query of HLO names, alone or beside rows, reads the HLO aggregates
# as a query of names reads theirs, and so does a free word that only
# HLO names hold: counts, steps and durations are sqlite3's, and the
# count shows though a key is typed while it is read.
# hlos CACHE ROW
hlos() {
	[ "$(sqlite3 "$1" "SELECT count(*) FROM track WHERE n_events > 0 AND
		agg_fields & 1 AND NOT agg_fields & 4")" = 0 ] ||
		fail "$1: a row keeps aggregates, but not of HLO names"
	[ "$(sqlite3 "$1" "SELECT columns FROM string_use u JOIN string x
		ON x.id = u.str WHERE x.str LIKE '%rsqrt%' GROUP BY columns")" = 1 ] ||
		fail "$1: 'rsqrt' is held by more than HLO names"
	h="(SELECT x.str FROM instruction i JOIN string x ON x.id = i.hlo_name
		WHERE i.slice_id = s.id)"
	for q in "hlo~rsqrt|$h LIKE '%rsqrt%'" "RSQRT|$h LIKE '%rsqrt%'" \
		"hlo=/^%dot/|$h GLOB '%dot*'" \
		"hlo~multiply row=$2|$h LIKE '%multiply%' AND t.name = '$2'" \
		"engine=$2 hlo~add|$h LIKE '%add%' AND t.name = '$2'"; do
		w=${q#*|} q=${q%%|*}
		check "$1" "$q" "$w"
		ahead=1 counted "$1" "$q" "$w"
		steps "$1" "$q" "$w"
		durations "$1" "$q" "$w"
	done
}

# Negated, a name or row term is the other names or rows (opcode!=X the
# engine rows' other names), and an HLO
# name term the events of other HLO names and those without one (from
# the name aggregates less the HLO name aggregates): counts, steps and
# durations are sqlite3's.
# negations CACHE ROW
negations() {
	h="(SELECT x.str FROM instruction i JOIN string x ON x.id = i.hlo_name
		WHERE i.slice_id = s.id)"
	n="(SELECT str FROM string WHERE id = s.name)"
	for q in "name!=MATMUL|$n != 'MATMUL'" \
		"opcode!=MATMUL dur>100ns|t.kind = 'engine' AND $n != 'MATMUL' AND s.dur > 100" \
		"-opcode=MATMUL|NOT (t.kind = 'engine' AND $n = 'MATMUL')" \
		"-engine=$2|(t.kind != 'engine' OR t.name != '$2')" \
		"row!=$2 -name~SpillSave|t.name != '$2' AND $n NOT LIKE '%SpillSave%'" \
		"-hlo~rsqrt|NOT coalesce($h LIKE '%rsqrt%', 0)" \
		"hlo!=/^%dot/ row=$2|NOT coalesce($h GLOB '%dot*', 0) AND t.name = '$2'" \
		"-RSQRT|NOT coalesce($h LIKE '%rsqrt%', 0)" \
		"-hlo=/./ row=$2|$h IS NULL AND t.name = '$2'" \
		"-hlo~rsqrt hlo!=/^%dot/|NOT coalesce($h LIKE '%rsqrt%', 0) AND NOT coalesce($h GLOB '%dot*', 0)" \
		"hlo~dot -hlo~dot.1|$h LIKE '%dot%' AND $h NOT LIKE '%dot.1%'"; do
		w=${q#*|} q=${q%%|*}
		check "$1" "$q" "$w"
		counted "$1" "$q" "$w"
		steps "$1" "$q" "$w"
		durations "$1" "$q" "$w"
	done
}

# A free word names and layers hold reads only the rows whose coarsest
# aggregates of names and categories hold one of its strings: counts
# and steps are sqlite3's; and an event of another row renamed in the
# cache behind its aggregates' back is not found, as that row is not
# read.
# words CACHE
words() {
	w="(s.name IN (SELECT id FROM string WHERE str LIKE '%matmul%') OR
		EXISTS (SELECT 1 FROM instruction i JOIN string x ON x.id = i.layer
		WHERE i.slice_id = s.id AND x.str LIKE '%matmul%'))"
	[ "$(sqlite3 "$1" "SELECT group_concat(DISTINCT columns) FROM string_use
		u JOIN string x ON x.id = u.str WHERE x.str LIKE '%matmul%'")" = 8,2 ] ||
		fail "$1: 'matmul' is not held by names and layers alone"
	check "$1" matmul "$w"
	counted "$1" matmul "$w"
	steps "$1" matmul "$w"
	want=$(sql "$1" "$w")
	cp "$1" "$tmp/w.nxdb"
	sqlite3 "$tmp/w.nxdb" "UPDATE slice SET name = (SELECT id FROM string
		WHERE str = 'MATMUL') WHERE id = (SELECT min(s.id) FROM slice s
		JOIN track t ON t.id = s.track_id WHERE t.name = 'Q0'
		AND t.kind = 'dma')" || fail "renaming an event of Q0"
	[ "$(sql "$tmp/w.nxdb" "$w")" = $((want + 1)) ] ||
		fail "$1: no event of Q0 renamed"
	got=$("$NXTOP" export -q "$tmp/w.nxdb" --query=matmul --format json \
		2>"$err" | jq -e .matches) || fail "matmul on the renamed: $(cat "$err")"
	[ "$got" = "$want" ] ||
		fail "matmul: $got matches, the row Q0 was read ($want without it)"
}

# A query of layers, alone or beside rows, reads the category
# aggregates (an instruction's category is its layer) as a query of
# names reads theirs, and so does a free word that only layers hold:
# counts, steps and durations are sqlite3's, and the count shows though
# a key is typed while it is read. Where a layer is also the category
# of another event, the events are read, and those are not found.
# layers CACHE ROW
layers() {
	l="(SELECT x.str FROM instruction i JOIN string x ON x.id = i.layer
		WHERE i.slice_id = s.id)"
	for q in "layer~attention|$l LIKE '%attention%'" \
		"BATCHNORM|$l LIKE '%batchnorm%'" \
		"layer=/MatMul\$/|$l GLOB '*MatMul'" \
		"layer~attention row=$2|$l LIKE '%attention%' AND t.name = '$2'"; do
		w=${q#*|} q=${q%%|*}
		check "$1" "$q" "$w"
		[ "${3:-}" = mixed ] || ahead=1 counted "$1" "$q" "$w"
		steps "$1" "$q" "$w"
		durations "$1" "$q" "$w"
	done
}

# A term on a column of instructions alone (pc, operands, wait) reads
# only the engine rows, one on DMA columns alone (variable, queue) only
# the DMA rows: counts and steps are sqlite3's, and a row of the other
# kind given such a column behind the importer's back is not read.
# typed CACHE
typed() {
	v="(SELECT x.str FROM (SELECT slice_id, variable FROM dma_packet UNION ALL
		SELECT slice_id, variable FROM dma_transfer) d JOIN string x
		ON x.id = d.variable WHERE d.slice_id = s.id)"
	pc=$(sqlite3 "$1" "SELECT pc FROM instruction WHERE pc IS NOT NULL
		ORDER BY pc LIMIT 1 OFFSET (SELECT count(pc) / 2 FROM instruction)")
	for q in "pc>$pc|s.id IN (SELECT slice_id FROM instruction WHERE pc > $pc)" \
		"operands~0|s.id IN (SELECT slice_id FROM instruction WHERE
			operands LIKE '%0%')" \
		"wait>=1ns|s.id IN (SELECT slice_id FROM instruction WHERE
			evt_wait_time >= 1)" \
		"variable~kernel|$v LIKE '%kernel%'"; do
		w=${q#*|} q=${q%%|*}
		check "$1" "$q" "$w"
		steps "$1" "$q" "$w"
	done
	want=$(sql "$1" "s.id IN (SELECT slice_id FROM instruction WHERE pc > $pc)")
	cp "$1" "$tmp/t.nxdb"
	sqlite3 "$tmp/t.nxdb" "INSERT INTO instruction(slice_id, pc) SELECT
		min(s.id), $pc + 1 FROM slice s JOIN track t ON t.id = s.track_id
		WHERE t.kind = 'dma'" || fail "an instruction row for a DMA event"
	got=$("$NXTOP" export -q "$tmp/t.nxdb" --query="pc>$pc" --format json \
		2>"$err" | jq -e .matches) || fail "pc>$pc: $(cat "$err")"
	[ "$got" = "$want" ] ||
		fail "pc>$pc: $got matches, a DMA row was read ($want without it)"
}

# retype K QUEUE_TYPE OUT: the demo with every Kth data packet's queue
# type QUEUE_TYPE, into OUT
retype() {
	# the pieces between the types printed as they come: a line of the
	# demo holds thousands (no regex character is in d)
	awk -v k="$1" -v d='"queue_type":"data"' -v o="\"queue_type\":\"$2\"" '{
		m = split($0, p, d)
		printf "%s", p[1]
		for (j = 2; j <= m; j++)
			printf "%s%s", (++n % k ? d : o), p[j]
		print ""
	}' "$tmp/d.json" > "$3"
}

cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/f.json"
"$NXTOP" import -q -o "$tmp/f.nxdb" "$tmp/f.json" || fail "import of the fixture"
run "$tmp/f.nxdb" TensorMatrix
"$NXTOP" demo --events 20000 --seed 3 --write "$tmp/d.json" >/dev/null 2>&1 ||
	fail "demo failed"
"$NXTOP" import -q -o "$tmp/d.nxdb" "$tmp/d.json" || fail "import of the demo"
run "$tmp/d.nxdb" Vector
apart "$tmp/d.nxdb"
hlos "$tmp/d.nxdb" Scalar
negations "$tmp/d.nxdb" Scalar
words "$tmp/d.nxdb"
typed "$tmp/d.nxdb"
layers "$tmp/d.nxdb" Scalar
# every third data packet's queue type the name of a layer: that layer
# is then also a category of DMA events
retype 3 bert/encoder/layer_1/attention/self/MatMul "$tmp/l.json"
"$NXTOP" import -q -o "$tmp/l.nxdb" "$tmp/l.json" || fail "import of the layered demo"
[ "$(sqlite3 "$tmp/l.nxdb" "SELECT count(*) FROM slice s JOIN string x ON
	x.id = s.cat JOIN track t ON t.id = s.track_id WHERE t.kind = 'dma'
	AND x.str LIKE '%attention%'")" -gt 0 ] ||
	fail "layered demo: no DMA event's category names a layer"
layers "$tmp/l.nxdb" Scalar mixed
# every fifth data packet of the demo typed otherwise: rows with
# aggregates then mix queue types, and each event is tested
retype 5 software_dynamic "$tmp/m.json"
"$NXTOP" import -q -o "$tmp/m.nxdb" "$tmp/m.json" || fail "import of the mixed demo"
[ "$(sqlite3 "$tmp/m.nxdb" "SELECT count(*) FROM track t WHERE
	agg_fields & 2 AND (SELECT count(DISTINCT cat) FROM slice
	WHERE track_id = t.id) > 1 AND kind = 'dma'")" -gt 0 ] ||
	fail "mixed demo: no DMA row with aggregates mixes queue types"
queues "$tmp/m.nxdb" software_dynamic
# A thread whose names are kept coarser than its durations, every
# other name bucket without the name searched: n and N pass over those
# buckets to the next one holding it
awk 'BEGIN { printf "{\"traceEvents\":["
	for (i = 0; i < 2000; i++)
		printf "%s{\"name\":\"f%d\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%.3f,\"dur\":0.7}",
			(i ? "," : ""), i % 4, i * 200.25
	for (m = 1; m < 24; m += 2)
		printf ",{\"name\":\"hit\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%.3f,\"dur\":0.9}",
			m * 16777.216 + 5000
	print "]}" }' > "$tmp/h.json"
"$NXTOP" import -q -o "$tmp/h.nxdb" "$tmp/h.json" || fail "import of the trace"
[ "$(sqlite3 "$tmp/h.nxdb" "SELECT count(*) FROM track t WHERE agg_level >
	(SELECT min(level) FROM agg WHERE track_id = t.id AND field = 4)")" = 1 ] ||
	fail "the trace's thread keeps names beside its durations"
check "$tmp/h.nxdb" 'name=hit dur>600ns' "n.str = 'hit' AND s.dur > 600"
counted "$tmp/h.nxdb" 'name=hit dur>600ns' "n.str = 'hit' AND s.dur > 600"
steps "$tmp/h.nxdb" 'name=hit dur>600ns' "n.str = 'hit' AND s.dur > 600"
# A thread of 200 names, each in a run of 200 events: its names are
# kept as finely as its durations, which are then kept by name
awk 'BEGIN { printf "{\"traceEvents\":["
	for (i = 0; i < 40000; i++)
		printf "%s{\"name\":\"r%d\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%.3f,\"dur\":%.1f}",
			(i ? "," : ""), int(i / 200), i * 10.05, (i % 7 + 1) * 0.1
	print "]}" }' > "$tmp/r.json"
"$NXTOP" import -q -o "$tmp/r.nxdb" "$tmp/r.json" || fail "import of the runs"
[ "$(sqlite3 "$tmp/r.nxdb" "SELECT agg_level = (SELECT min(level) FROM agg
	WHERE track_id = t.id AND field = 4) FROM track t WHERE n_events > 0")" = 1 ] ||
	fail "a thread whose names come in runs keeps durations without names"
check "$tmp/r.nxdb" 'name~r1 dur>300ns' "n.str LIKE '%r1%' AND s.dur > 300"
counted "$tmp/r.nxdb" 'name~r1 dur>300ns' "n.str LIKE '%r1%' AND s.dur > 300"
steps "$tmp/r.nxdb" 'name~r1 dur>300ns' "n.str LIKE '%r1%' AND s.dur > 300"
pass
