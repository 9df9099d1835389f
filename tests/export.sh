#!/bin/sh
# nxtop export: every --what in text, JSON and CSV on a fixture, the same
# numbers in every format, ranges cut to the profile, events' columns
# aligned in text, -o - for standard output, and clear errors for bad ranges, rows (an empty list or name too), queries, sections and
# a device list of a device profile.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/p.json"
export XDG_DATA_HOME="$tmp/data"
p="$tmp/p.json"

# selection over the whole profile and over a range of rows
expect 0 "^Events   11 \(duration sum 3.011 .s\)" "$NXTOP" export -q "$p"
expect 0 "== Vector \(engine\): 2 events" "$NXTOP" export -q "$p" --tracks Vector,Q0
grep -q "== Scalar" "$out" && fail "--tracks kept Scalar"
expect 0 "TENSOR_TENSOR +1 +50.00% +120 ns" "$NXTOP" export -q "$p" --tracks Vector
# qSyncSpillReload0 is a row of DMA queues (a 90 ns packet) and of DMA
# transfers (a 525 ns transfer): the bare name takes both, GROUP/ROW one
expect 0 "^Events   2 \(duration sum 615 ns\)" "$NXTOP" export -q "$p" --tracks qSyncSpillReload0
expect 0 "^== qSyncSpillReload0 \(dma_xfer\): 1 event, duration sum 525 ns" "$NXTOP" export -q "$p" --tracks "dma transfers/qSyncSpillReload0"
grep -q "(dma):" "$out" && fail "DMA transfers/qSyncSpillReload0 kept the queue's row"
expect 0 "^Events   1 \(duration sum 90 ns\)" "$NXTOP" export -q "$p" --tracks "DMA queues/qSyncSpillReload0"
expect 1 "no row named 'Q0/qSyncSpillReload0' \(rows: .*, DMA queues/qSyncSpillReload0, Q0, DMA transfers, DMA transfers/qSyncSpillReload0," "$NXTOP" export -q "$p" --tracks Q0/qSyncSpillReload0
# ... and a search's counts by row, and the events' rows, name each one
# apart (JSON keys must not repeat)
if have jq; then
	"$NXTOP" export -q "$p" --query row=qSyncSpillReload0 --format json > "$out" ||
		fail "export --query of a shared row name failed"
	jq -e '.rows == {"DMA queues/qSyncSpillReload0": 1,
		"DMA transfers/qSyncSpillReload0": 1} and .matches == 2 and
		([.events[].row] | sort) == ["DMA queues/qSyncSpillReload0",
		"DMA transfers/qSyncSpillReload0"]' "$out" >/dev/null ||
		fail "search rows of a shared name: $(jq -c '[.rows, [.events[].row]]' "$out")"
fi
expect 0 '^[0-9]+,DMA transfers/qSyncSpillReload0,3616,525,' "$NXTOP" export -q "$p" --what events \
	--tracks qSyncSpillReload0 --format csv
expect 0 "^Range    3 .s .. 6 .s" "$NXTOP" export -q "$p" --range 3us:6us
# a range after the profile's last ns (its end is at 1.869 ms, its last
# counter sample at 1.870323 ms) is a mistake, said so
expect 1 "^nxtop: --range: '100s:200s' is outside the profile \(0 \.\. 1\.87 ms\)" "$NXTOP" export -q "$p" --range 100s:200s
expect 1 "^nxtop: --range: '2ms:' is outside the profile" "$NXTOP" analyze -q "$p" --range 2ms:
expect 0 "^Range    1\.869 ms \.\. 1\.87 ms \(duration 1\.323 .s\)" "$NXTOP" export -q "$p" --range 1.869ms:
# without --range: from the start to the last ns (no ns past it), the
# same as a range to that ns and as one past it
if have jq; then
	cp "$srcdir/tests/fixtures/chrome_flows.json" "$tmp/flows.json"
	us=$(jq '[.traceEvents[] | select(.ts != null)] |
		([.[] | .ts + (.dur // 0)] | max) - ([.[] | .ts] | min)' \
		"$tmp/flows.json")
	expect 0 "^Range    0 ns \.\. $us µs \(duration $us µs\)" \
		"$NXTOP" export -q "$tmp/flows.json"
	last=$(jq '[.. | objects | select(.timestamp) | (.timestamp | tonumber) +
		((.duration // 0) | tonumber)] | max' "$p")
	"$NXTOP" export -q "$p" --format json > "$tmp/whole.json" ||
		fail "export failed"
	[ "$(jq .end_ns "$tmp/whole.json")" = "$last" ] ||
		fail "export ends at $(jq .end_ns "$tmp/whole.json"), not the last ns $last"
	for r in "0:${last}ns" 0:1s; do
		"$NXTOP" export -q "$p" --format json --range "$r" > "$tmp/r.json" ||
			fail "export --range $r failed"
		cmp -s "$tmp/whole.json" "$tmp/r.json" ||
			fail "--range $r is not the whole profile: $(diff "$tmp/whole.json" "$tmp/r.json")"
	done
fi
# a range past either end is cut to the time the viewer's axis spans
# (the last throttle record ends at 1.870323 ms, after the profile's
# end), as the viewer cuts its window: the window of a view zoomed past
# the end, exported, is what nxtop export prints for the --zoom of y
printf 'keys :zoom 1.2ms 2.5ms<Enter>y\ndump past\nkeys WeEj\n' > "$tmp/w.keys"
(cd "$tmp" && NXTOP_EXPORT_DIR="$tmp" "$NXTOP" -q --headless="$tmp/w.keys" \
	--dump="$tmp" "$p") || fail "the viewer failed"
z=$(tail -n 1 "$tmp/past" | sed -n 's/.*--zoom=\([^ ]*\) .*/\1/p')
expect 0 "^Range    1\.2.* ms \.\. 1\.87 ms" "$NXTOP" export -q "$p" --what window --range "$z"
cmp -s "$tmp/nxtop-window-1.txt" "$out" ||
	fail "export --range $z is not the viewer's window: $(diff "$tmp/nxtop-window-1.txt" "$out")"
expect 0 "" "$NXTOP" export -q "$p" --what window --range "$z" --format json
cmp -s "$tmp/nxtop-window-1.json" "$out" ||
	fail "export --range $z --format json is not the viewer's window: $(diff "$tmp/nxtop-window-1.json" "$out")"
"$NXTOP" export -q "$p" --range :1ms --format csv > "$tmp/part" ||
	fail "export --range :1ms failed"
expect 0 "" "$NXTOP" export -q "$p" --range -1ms:1ms --format csv
cmp -s "$tmp/part" "$out" || fail "--range -1ms:1ms is not the profile's part: $(diff "$tmp/part" "$out")"
expect 0 "^Events   4 " "$NXTOP" export -q "$p" --range 3us:6us
expect 0 '"events": 4' "$NXTOP" export -q "$p" --range 3us:6us --format json
if have jq; then
	jq -e '[.rows[] | select(.kind != "counter") | .events] | add == 4' "$out" >/dev/null ||
		fail "JSON events do not add up: $(cat "$out")"
	jq -e '.rows[] | select(.row == "Sync") | .fields.opcode[0] |
		.value == "WRITE" and .count == 1 and .dur_sum_ns == 37' "$out" >/dev/null ||
		fail "JSON opcode table: $(cat "$out")"
fi
expect 0 '^Sync,engine,opcode,WRITE,1,100.0000,37,100.0000,37,37,37' "$NXTOP" export -q "$p" --range 3us:6us --format csv
# every field's table sums to its row: the Scalar row's EVENT_SEMAPHORE
# has no layer and no HLO, a "(none)" line (null in JSON)
expect 0 "^  \(none\) +1 +50.00% +1.515 .s +85.93% " "$NXTOP" export -q "$p" --tracks Scalar
expect 0 '^Scalar,engine,layer,\(none\),1,50.0000,1515,' "$NXTOP" export -q "$p" --tracks Scalar --format csv
if have jq; then
	expect 0 "" "$NXTOP" export -q "$p" --format json
	jq -e '([.rows[] | select(.kind != "counter") | . as $r | .fields[] |
		(map(.count) | add) == $r.events and
		(map(.dur_sum_ns) | add) == $r.duration_sum_ns] | all) and
		(.rows[] | select(.row == "Scalar") | .fields.layer |
			map(select(.value == null) | del(.dur_pct)) == [{"value": null,
			"count": 1, "count_pct": 50, "dur_sum_ns": 1515,
			"dur_avg_ns": 1515, "min_ns": 1515, "max_ns": 1515,
			"p50_ns": 1515, "p90_ns": 1515, "p99_ns": 1515,
			"percentiles_estimated": false,
			"percentiles_max_error": 0, "buckets":
			[{"lo_ns": 1024, "hi_ns": 2047, "count": 1}]}])' "$out" >/dev/null ||
		fail "JSON field tables do not sum to their rows: $(cat "$out")"
fi
expect 0 "^row,kind,field,value,count" "$NXTOP" export -q "$p" --format csv
# the CSV carries the totals text and JSON give: the range's, each row's
# (an event starting before the range counts in its active time only)
# and each counter's (one without a sample in the range: no min, max or
# mean); worked out by hand from the trace
cat > "$tmp/sel.json" <<'EOF'
{"traceEvents":[
{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":3},
{"ph":"X","name":"c","pid":1,"tid":2,"ts":20,"dur":10},
{"ph":"C","name":"mem","pid":1,"ts":2,"args":{"value":10}},
{"ph":"C","name":"mem","pid":1,"ts":4,"args":{"value":30}},
{"ph":"C","name":"mem","pid":1,"ts":25,"args":{"value":20}},
{"ph":"C","name":"q","pid":1,"ts":25,"args":{"value":5}}
]}
EOF
cat > "$tmp/sel.want" <<'EOF'
,selection,start_ns,1000
,selection,end_ns,22000
,selection,duration_ns,21000
,selection,events,2
,selection,duration_sum_ns,13000
,selection,active_ns,11000
,selection,active_exact,1
Thread 1,thread,events,1
Thread 1,thread,duration_sum_ns,3000
Thread 1,thread,active_ns,9000
Thread 2,thread,events,1
Thread 2,thread,duration_sum_ns,10000
Thread 2,thread,active_ns,2000
mem,counter,samples,2
mem,counter,min,10
mem,counter,max,30
mem,counter,mean,20
q,counter,samples,0
q,counter,min,
q,counter,max,
q,counter,mean,
EOF
"$NXTOP" export -q "$tmp/sel.json" --range 1us:22us --format csv > "$out" ||
	fail "export --format csv of a trace failed"
tr -d '\r' < "$out" | sed -n 's/^\([^,]*,[^,]*,[^,]*,[^,]*\),\{12\}$/\1/p' |
	grep -v ',bounds,' > "$tmp/sel.got"
cmp -s "$tmp/sel.want" "$tmp/sel.got" ||
	fail "CSV totals: $(diff "$tmp/sel.want" "$tmp/sel.got")"
# ... and the JSON the same: a counter without a sample has no min, max
# or mean (null), not 0
if have jq; then
	"$NXTOP" export -q "$tmp/sel.json" --range 1us:22us --format json > "$out" ||
		fail "export --format json of a trace failed"
	jq -e '[.rows[] | select(.kind == "counter")] ==
		[{"row": "mem", "kind": "counter", "samples": 2, "min": 10,
		  "max": 30, "mean": 20},
		 {"row": "q", "kind": "counter", "samples": 0, "min": null,
		  "max": null, "mean": null}]' "$out" >/dev/null ||
		fail "JSON counters: $(jq -c '.rows' "$out")"
fi
# ... and the text lists it too
expect 0 "^== q \(counter\): no samples$" "$NXTOP" export -q "$tmp/sel.json" --range 1us:22us

# layers
expect 0 "^/sg00/_dot.3 " "$NXTOP" export -q "$p" --what layers
expect 0 '"layer": "/sg00"' "$NXTOP" export -q "$p" --what layers --format json --sort -duration
expect 0 '^layer,start_ns,duration_ns' "$NXTOP" export -q "$p" --what layers --format csv
# a layer's mfu in JSON and CSV is a fraction from 0 to 1 as the
# profile gives it (scripts read it so), the text's MFU a percentage;
# the man page says so where it describes the export
if have jq; then
	sed 's/"tensor_engine_mfu":[^,]*,"tensor_engine_hfu"/"tensor_engine_mfu":0.17,"tensor_engine_hfu"/' \
		"$p" > "$tmp/mfu.json"
	[ "$(jq '.layer_summary[] | select(.name == "/sg00/_dot.3") |
		.tensor_engine_mfu' "$tmp/mfu.json")" = 0.17 ] ||
		fail "no layer of MFU 0.17 in $tmp/mfu.json"
	expect 0 "" "$NXTOP" export -q "$tmp/mfu.json" --what layers --format json
	jq -e '.layers[] | select(.layer == "/sg00/_dot.3") | .mfu == 0.17' \
		"$out" >/dev/null || fail "layers JSON mfu: $(cat "$out")"
	expect 0 "" "$NXTOP" export -q "$tmp/mfu.json" --what layers --format csv
	tr -d '\r' < "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mfu") c = i }
		$1 == "/sg00/_dot.3" { ok = c && $c + 0 == 0.17 } END { exit !ok }' ||
		fail "layers CSV mfu: $(cat "$out")"
	expect 0 '^/sg00/_dot.3 .* 17.00% ' "$NXTOP" export -q "$tmp/mfu.json" --what layers
fi
awk '/^\.B \\-\\-what=layers$/ { on = 1; next } on && /^\.TP/ { exit } on' \
	"$srcdir/man/nxtop.1" | tr '\n' ' ' > "$tmp/layers.man"
grep -q "\.B mfu is a fraction from 0 to 1 " "$tmp/layers.man" ||
	fail "the man page's export --what=layers does not say mfu is a fraction"

# search
expect 0 "^Matches  5 " "$NXTOP" export -q "$p" --query 'layer~dot'
expect 0 "^Matches  1 " "$NXTOP" export -q "$p" --what search --query opcode=MATMUL
expect 0 "1.868903 ms +203 ns +TensorMatrix +MATMUL" "$NXTOP" export -q "$p" --query opcode=MATMUL
expect 0 '"matches": 6' "$NXTOP" export -q "$p" --query 'hlo=/dot\.[0-9]+/' --format json
expect 0 '^1868903,203,TensorMatrix,MATMUL,[0-9]+' "$NXTOP" export -q "$p" --query opcode=MATMUL --format csv

# info
expect 0 "^== Summary" "$NXTOP" export -q "$p" --what info
# every text export starts with what it is and the profile's name
for w in selection window layers markers info events flows; do
	"$NXTOP" export -q "$p" --what "$w" | head -n 2 > "$out"
	[ "$(sed -n 2p "$out")" = "Profile  graph.neff (device)" ] &&
		grep -q '^# nxtop ' "$out" ||
		fail "--what $w: text does not start with its heading: $(cat "$out")"
done
# the device list is a system profile's
cp "$srcdir/tests/fixtures/system_small.json" "$tmp/sys.json"
"$NXTOP" export -q "$tmp/sys.json" --what devices | head -n 2 > "$out"
[ "$(sed -n 2p "$out")" = "Profile  sys.json (system)" ] &&
	grep -q '^# nxtop device profiles$' "$out" ||
	fail "--what devices: text does not start with its heading: $(cat "$out")"
expect 0 "^== NEFF nodes" "$NXTOP" export -q "$p" --what info
expect 0 "hash +1e4eb1542c73dc797dab1df0ce80611c" "$NXTOP" export -q "$p" --what info --section neff_header
expect 0 '"q_name": "qSyncSpillReload0"' "$NXTOP" export -q "$p" --what info --section dma_queues_info --format json
expect 0 '^summary,[0-9]+,Key,total_time' "$NXTOP" export -q "$p" --what info --format csv

# events in text: the Name column starts where its heading does on every
# line whatever the rows' lengths; a row longer than a table's column
# (100) loses its middle to an ellipsis, as a table's cell does
long=$(printf 'row%03d-' $(seq 1 20))
printf '{"traceEvents":[
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"T"}},
{"ph":"M","pid":1,"tid":2,"name":"thread_name","args":{"name":"Medium thread"}},
{"ph":"M","pid":1,"tid":3,"name":"thread_name","args":{"name":"%s"}},
{"ph":"X","pid":1,"tid":1,"name":"ev-a","ts":1,"dur":2},
{"ph":"X","pid":1,"tid":2,"name":"ev-b","ts":2,"dur":2},
{"ph":"X","pid":1,"tid":3,"name":"ev-c","ts":3,"dur":2}]}\n' "$long" > "$tmp/rows.json"
expect 0 "^Events   3$" "$NXTOP" export -q "$tmp/rows.json" --what events
# the row of thread 3 is "NAME 3"
row="$long 3"
head=$(echo "$row" | cut -c1-50)
tail=$(echo "$row" | cut -c$((${#row} - 48))-)
grep -q " $head…$tail  ev-c$" "$out" || fail "long row not cut: $(cat "$out")"
sed 's/…/./' "$out" | awk '/^ +Id +Parent/ { col = index($0, "Name") }
	col && / ev-[abc]$/ { n++; if (index($0, "ev-") != col) bad = bad $0 "|" }
	END { if (n != 3 || bad != "") { print "not aligned: " bad; exit 1 } }' ||
	fail "events text: Name not aligned: $(cat "$out")"

# markers (none yet)
expect 0 "^Marker +Time" "$NXTOP" export -q "$p" --what markers --unit us

# output to a file
"$NXTOP" export -q "$p" --what layers -o "$tmp/layers.txt" >"$out" 2>&1 || fail "export -o: $(cat "$out")"
test -s "$out" && fail "export -o printed: $(cat "$out")"
grep -q "/sg00/_dot.3" "$tmp/layers.txt" || fail "-o wrote nothing useful"
# -o - is standard output, as without -o: no file named "-"; a cache
# cannot go there, so import -o - is a usage error
mkdir "$tmp/cwd"
"$NXTOP" export -q "$p" --what layers --format json > "$tmp/plain.json" ||
	fail "export to standard output failed"
(cd "$tmp/cwd" && "$NXTOP" export -q "$p" --what layers --format json -o -) \
	> "$tmp/dash.json" 2>"$err" || fail "export -o - failed: $(cat "$err")"
cmp -s "$tmp/plain.json" "$tmp/dash.json" ||
	fail "export -o - wrote $(cat "$tmp/dash.json"), wanted $(cat "$tmp/plain.json")"
(cd "$tmp/cwd" && "$NXTOP" export -q "$p" --what layers --output=-) > "$out" ||
	fail "export --output=- failed"
grep -q "/sg00/_dot.3" "$out" || fail "--output=- printed nothing useful: $(cat "$out")"
(cd "$tmp/cwd" && exec "$NXTOP" import -q "$p" -o -) > "$out" 2>"$err"
[ $? -eq 2 ] || fail "import -o - did not exit 2: $(cat "$err")"
grep -q "^nxtop: -o -: a cache is a file, it cannot be written to standard output$" \
	"$err" || fail "import -o -: $(cat "$err")"
no_file "$tmp/cwd/-"

# errors
expect 2 "unknown --what 'bogus'" "$NXTOP" export -q "$p" --what bogus
expect 2 "--what search needs --query" "$NXTOP" export -q "$p" --what search
expect 2 "unknown format 'xml'" "$NXTOP" export -q "$p" --format xml
expect 2 "unknown unit 'parsec'" "$NXTOP" export -q "$p" --unit parsec
expect 2 "--tracks goes with --what selection" "$NXTOP" export -q "$p" --what layers --tracks Vector
# an option that would change nothing says so, before the profile is read
expect 2 "--section goes with --what info" "$NXTOP" export -q "$tmp/none.json" --section summary
expect 2 "--unit goes with --what markers" "$NXTOP" export -q "$tmp/none.json" --unit ms
# JSON and CSV give markers' times in ns whatever the unit: a --unit
# there would change nothing
expect 2 "--unit goes with --format text" "$NXTOP" export -q "$tmp/none.json" --what markers --unit ms --format csv
expect 2 "--unit goes with --format text" "$NXTOP" export -q "$tmp/none.json" --what markers --format json --unit ms
expect 2 "--sort goes with --what layers" "$NXTOP" export -q "$tmp/none.json" --what window --sort=-dur
expect 2 "--depth goes with --what layers" "$NXTOP" export -q "$tmp/none.json" --depth 3
expect 2 "--sort: unknown column '-nope' \\(name, start, duration" "$NXTOP" export -q "$tmp/none.json" --what layers --sort=-nope
expect 0 "^/sg00 " "$NXTOP" export -q "$p" --what layers --sort P99
expect 2 "--query goes with --what search" "$NXTOP" export -q "$tmp/none.json" --what selection --query X
expect 2 "--table-rows goes with --format parquet" "$NXTOP" demo --table-rows 10 --write "$tmp/nodemo"
# a range that cannot be one is a usage error, told before the profile
# is read (it is not there at all here); one outside the profile, bad input
expect 2 "--range: '1.2parsec' is not a time" "$NXTOP" export -q "$tmp/none.json" --range 1.2parsec:2ms
expect 2 "--range: the end must come after the start" "$NXTOP" export -q "$tmp/none.json" --range 1ms:0.5ms
expect 2 "--range: expected START:END" "$NXTOP" export -q "$tmp/none.json" --range 2ms
expect 1 "^nxtop: --range: '-5ms:-1ms' is outside the profile \(0 \.\. 1\.87 ms\)" "$NXTOP" export -q "$p" --range=-5ms:-1ms
expect 1 "^nxtop: --range: ':-1ms' is outside the profile \(0 \.\. 1\.87 ms\)" "$NXTOP" export -q "$p" --range=:-1ms
# a start near the int64 limit is past the profile, not a usage error of
# a made-up profile, and on Unix-epoch times it does not wrap round to
# the whole profile
expect 1 "^nxtop: --range: '9223372036854775807ns:' is outside the profile \(0 \.\. 1\.87 ms\)" "$NXTOP" analyze -q "$p" --range 9223372036854775807ns:
expect 1 "^nxtop: --range: '9000000000000000000:' is outside the profile" "$NXTOP" export -q "$tmp/sys.json" --range 9000000000000000000:
expect 1 "--tracks: no row named 'Nope' \(rows: Engines, TensorMatrix" "$NXTOP" export -q "$p" --tracks Vector,Nope
# an empty list (an unset shell variable) or an empty name in it is a
# mistake, told before the profile is read: not every row, not skipped
for rows in '' ',' ' ' 'Vector,,Q0' 'Vector,' ',Vector' 'Vector, ,Q0'; do
	expect 2 "^nxtop: --tracks: (no row|an empty row name) in '$rows'" \
		"$NXTOP" export -q "$tmp/none.json" --tracks "$rows"
	expect 2 "^nxtop: --tracks: " "$NXTOP" export -q "$tmp/none.json" \
		--what events --tracks "$rows"
done
# a device profile has no device list (as D in the viewer says), not an
# empty one: one line and exit 1 in every format, and no -o file left
for f in text json csv; do
	expect 1 "^nxtop: --what devices lists the device profiles of a system profile; graph.neff is a device profile$" \
		"$NXTOP" export -q "$p" --what devices --format $f
	[ -s "$out" ] && fail "--what devices --format $f on a device profile printed: $(cat "$out")"
done
expect 1 "is a device profile$" "$NXTOP" export -q "$p" --what devices -o "$tmp/devices.txt"
no_file "$tmp/devices.txt"
expect 2 "--query: column 1: unknown field 'opcdoe'" "$NXTOP" export -q "$p" --query opcdoe=X
expect 1 "--section: no section 'nope' \(sections: summary, neff_header" "$NXTOP" export -q "$p" --what info --section nope
expect 1 "$tmp/nodir/x.txt: No such file or directory" "$NXTOP" export -q "$p" -o "$tmp/nodir/x.txt"
# a folder that is not there, named as one: one line saying so
expect 1 "^nxtop: $tmp/nodir/: the folder does not exist$" "$NXTOP" export -q "$p" -o "$tmp/nodir/"
[ "$(wc -l < "$err")" -eq 1 ] || fail "-o missing folder: not one line: $(cat "$err")"
no_file "$tmp/nodir"
pass
