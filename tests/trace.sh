#!/bin/sh
# Perfetto and Chrome JSON import from the command line: one-line errors
# on bad traces (file, byte offset, record) with no cache left behind,
# summaries of traces, formats told apart by content. The rows of every
# fixture are checked by tests/test_import_trace.
set -u
. "${srcdir:-.}/tests/lib.sh"
builddir=${builddir:-.}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the recent list of the profiles imported stays in the test's folder
export XDG_DATA_HOME="$tmp/data"
"$builddir/tests/mkpftrace" "$tmp" || fail "mkpftrace"

expect 1 "truncated.pftrace: byte 18: packet of 64 bytes runs past the end of the file \(22 bytes\) in \"packet\"\[1\]" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/truncated.pftrace"
no_file "$tmp/bad.nxdb"

# a time that is no number and one out of range are told apart, each
# the one line on stderr
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"name":"a","ts":"soon"}]}' >"$tmp/ts.json"
expect 1 "^nxtop: $tmp/ts.json: byte 16: \"ts\" is a string that is not a number, expected a number of µs in \"traceEvents\"\[0\]\$" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/ts.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "ts.json: stderr: $(cat "$err")"
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"name":"a","ts":9223372036854775.808}]}' >"$tmp/ts.json"
expect 1 "^nxtop: $tmp/ts.json: byte 16: \"ts\" is a number out of range, expected a number of µs from -9223372036854775\.808 to 9223372036854775\.807 in \"traceEvents\"\[0\]\$" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/ts.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "ts.json: stderr: $(cat "$err")"
no_file "$tmp/bad.nxdb"
printf '{"traceEvents":[{"pid":1,"ts":1}]}' >"$tmp/noph.json"
expect 1 "noph.json: byte 16: missing \"ph\" in \"traceEvents\"\[0\]" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/noph.json"
# each Chrome event read by the scanner: what was wrong, at the event's
# byte (or AT bytes into it, the fourth argument, for text that is not
# JSON), late in a file whose earlier events were fine
bad_event() {
	awk 'BEGIN { printf "{\"traceEvents\":["; for (i = 0; i < 5000; i++)
		printf "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1},", i }' >"$tmp/$1.json"
	printf '%s]}' "$2" >>"$tmp/$1.json"
	at=$(($(stat -c %s "$tmp/$1.json") - ${#2} - 2 + ${4:-0}))
	expect 1 "$1.json: byte $at: $3 in \"traceEvents\"\\[5000\\]\$" \
		"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/$1.json"
	no_file "$tmp/bad.nxdb"
}
bad_event notobj '7' 'expected an event object'
range='a number out of range, expected a number of µs from -9223372036854775\.808 to 9223372036854775\.807'
bad_event bigts '{"ph":"X","ts":1e30}' "\"ts\" is $range"
bad_event negts '{"ph":"X","ts":-9223372036854775.809}' "\"ts\" is $range"
bad_event bigtstext '{"ph":"X","ts":"1e30"}' "\"ts\" is $range"
bad_event bigdur '{"ph":"X","ts":1,"dur":1e16}' "\"dur\" is $range"
bad_event twodots '{"ph":"X","ts":"1.5.5"}' '"ts" is a string that is not a number, expected a number of µs'
bad_event durtext '{"ph":"X","ts":1,"dur":"long"}' '"dur" is a string that is not a number, expected a number of µs'
bad_event durobj '{"ph":"X","ts":1,"dur":{"us":1}}' '"dur" is an object, expected a number of µs'
bad_event phnum '{"ph":88,"ts":1}' '"ph" is a number, expected a phase letter'
bad_event pidobj '{"ph":"X","ts":1,"pid":[1]}' '"pid" is an array, expected a string or a number'
bad_event member '{"ph":"X","ts":1,,"dur":2}' "expected a quoted key, found ','" 17
bad_event nots '{"ph":"X","dur":2}' 'missing "ts"'
bad_event bigcounter '{"ph":"C","ts":1,"args":{"a":1,"b":1e999}}' 'counter value "b" is a number out of range'
# "traceEvents" that is not an array is refused, not read as a trace
# without events
for v in '{}|an object' '{"ph":"X"}|an object' '7|a number' 'null|null'; do
	printf '{"traceEvents":%s}' "${v%|*}" >"$tmp/notarray.json"
	expect 1 "^nxtop: $tmp/notarray.json: byte 15: expected an array of events, found ${v#*|} in \"traceEvents\"\$" \
		"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/notarray.json"
	no_file "$tmp/bad.nxdb"
done
printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2},{"ph":"X",' >"$tmp/cut.json"
expect 1 "cut.json: byte [0-9]+: unexpected end of file" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/cut.json"
no_file "$tmp/bad.nxdb"

# counter values: numbers and strings holding one are samples (f and
# g); a, b, c, d and e hold no number and are left out, and so is a C
# event without args, each counted in the warnings
printf '{"traceEvents":[{"ph":"C","name":"c","pid":1,"ts":1,"args":{"a":"abc","b":null,"c":[1],"d":true,"e":{"x":1},"f":2,"g":"3.5"}},
{"ph":"C","name":"n","pid":1,"ts":2}]}' >"$tmp/counters.json"
expect 0 ", 2 counter samples$" "$NXTOP" summary -q "$tmp/counters.json"
grep -q '^  \[Import\] 5 counter value(s) that are not numbers were dropped$' "$out" &&
	grep -q '^  \[Import\] 1 counter event(s) without an "args" object were dropped$' "$out" ||
	fail "counters.json: $(cat "$out")"

# X events with a negative "dur" are kept with duration 0, flagged
# clipped (4), and counted in a warning as Neuron instructions are: one
# on a thread of X events only, one on a thread with B/E events
printf '{"traceEvents":[{"ph":"X","name":"neg","pid":1,"tid":1,"ts":5,"dur":-5},
{"ph":"X","name":"ok","pid":1,"tid":1,"ts":6,"dur":1},
{"ph":"B","name":"b","pid":1,"tid":2,"ts":1},{"ph":"E","pid":1,"tid":2,"ts":9},
{"ph":"X","name":"neg2","pid":1,"tid":2,"ts":2,"dur":-0.5}]}' >"$tmp/negdur.json"
expect 0 '^  \[Import\] 2 event\(s\) with a negative duration were stored with duration 0$' \
	"$NXTOP" summary -q "$tmp/negdur.json"
if have sqlite3; then
	got=$(sqlite3 "$tmp/negdur.json.nxdb" "SELECT n.str, s.dur, s.flags FROM slice s
		JOIN string n ON n.id = s.name ORDER BY n.str" | tr '\n' ' ')
	[ "$got" = "b|8000|0 neg|0|4 neg2|0|4 ok|1000|0 " ] || fail "negdur.json: $got"
fi

# a Perfetto trace opens like any profile: summary of the device trace
expect 0 "TensorMatrix +engine +2" "$NXTOP" summary "$tmp/neuron_device.pftrace"
# formats are told apart by content: a trace without its suffix, and JSON
# that starts with a newline (the byte a Perfetto trace starts with)
cp "$tmp/neuron_device.pftrace" "$tmp/device.bin"
expect 0 "Kind +device \(pftrace\)" "$NXTOP" summary "$tmp/device.bin"
# a gzip-compressed Perfetto trace (gzip wrote it, not nxtop) opens as
# the trace itself: the same summary and exports, byte for byte but for
# its name; one of two gzip members split inside a packet reads as their
# concatenation; a file that is no Perfetto trace by name is known by
# its inflated first byte
mkdir "$tmp/gz"
for f in neuron_device neuron_system flows compressed counters; do
	cp "$tmp/$f.pftrace" "$tmp/gz/$f.pftrace"
	gzip -nc "$tmp/$f.pftrace" >"$tmp/gz/$f.pftrace.gz"
	for what in "summary" "summary --format json" "export" \
		"export --what events --format csv" "export --what flows" \
		"export --what info --format json"; do
		# shellcheck disable=SC2086
		"$NXTOP" $what -q "$tmp/gz/$f.pftrace" >"$tmp/plain.txt" 2>&1 ||
			fail "$f.pftrace: $what: $(cat "$tmp/plain.txt")"
		# shellcheck disable=SC2086
		"$NXTOP" $what -q "$tmp/gz/$f.pftrace.gz" 2>&1 |
			sed 's/\.pftrace\.gz/.pftrace/g' >"$tmp/gz.txt"
		cmp -s "$tmp/plain.txt" "$tmp/gz.txt" ||
			fail "$f.pftrace.gz: $what: $(diff "$tmp/plain.txt" "$tmp/gz.txt")"
	done
done
{ head -c 100 "$tmp/flows.pftrace" | gzip -n
  tail -c +101 "$tmp/flows.pftrace" | gzip -n; } >"$tmp/gz/two.perfetto-trace.gz"
gzip -nc "$tmp/flows.pftrace" >"$tmp/gz/flows.bin.gz"
for f in two.perfetto-trace.gz flows.bin.gz; do
	"$NXTOP" export -q --what flows "$tmp/gz/$f" 2>&1 |
		sed "s/$f/flows.pftrace/g" >"$tmp/gz.txt"
	"$NXTOP" export -q --what flows "$tmp/gz/flows.pftrace" >"$tmp/plain.txt" 2>&1
	cmp -s "$tmp/plain.txt" "$tmp/gz.txt" ||
		fail "$f: $(diff "$tmp/plain.txt" "$tmp/gz.txt")"
done
# damaged gzip data is one line saying where, and leaves no cache: cut
# within the first 64 KiB inflated (told when the format is), and cut
# further on (told by the importer)
gzip -nc "$tmp/neuron_device.pftrace" >"$tmp/small.pftrace.gz"
n=$(wc -c <"$tmp/small.pftrace.gz")
head -c $((n - 10)) "$tmp/small.pftrace.gz" >"$tmp/cut.pftrace.gz"
expect 1 "^nxtop: $tmp/cut.pftrace.gz: byte $((n - 10)): gzip: cut short\$" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/cut.pftrace.gz"
[ "$(wc -l <"$err")" -eq 1 ] || fail "cut.pftrace.gz: stderr: $(cat "$err")"
no_file "$tmp/bad.nxdb"
"$builddir/bench/gen_trace" pftrace 20000 "$tmp/big.pftrace" 2>/dev/null ||
	fail "gen_trace"
gzip -nc "$tmp/big.pftrace" >"$tmp/big.pftrace.gz"
n=$(wc -c <"$tmp/big.pftrace.gz")
head -c $((n - 10)) "$tmp/big.pftrace.gz" >"$tmp/bigcut.pftrace.gz"
expect 1 "^nxtop: $tmp/bigcut.pftrace.gz: byte [0-9]+: read error: gzip: cut short \(near byte $((n - 10)) of the file\) in \"packet\"\[[0-9]+\]\$" \
	"$NXTOP" summary -q "$tmp/bigcut.pftrace.gz"
[ "$(wc -l <"$err")" -eq 1 ] || fail "bigcut.pftrace.gz: stderr: $(cat "$err")"
no_file "$tmp/bigcut.pftrace.gz.nxdb"
no_temps "$tmp" "bigcut.pftrace.gz"
printf '\n{"traceEvents":[{"ph":"X","pid":1,"tid":2,"name":"a","ts":1,"dur":2}]}' \
	>"$tmp/newline.json"
expect 0 "Kind +trace \(chrome-json\)" "$NXTOP" summary "$tmp/newline.json"
# "traceEvents" is found wherever it comes (key order is not stable),
# however much comes before it: 3000 stackFrames first, as Python's
# json.dumps(sort_keys=True) writes them, gzip'd; a 66000-character
# string; 70000 blanks inside the object, then before it. Each file
# holds one X event on one thread. JSON without the key is refused in
# one line.
ev='[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]'
awk -v ev="$ev" 'BEGIN { printf "{\"displayTimeUnit\": \"ns\", \"stackFrames\": {";
	for (i = 0; i < 3000; i++) printf "%s\"%d\": {\"category\": \"c\", \"name\": \"frame%d\"}", i ? ", " : "", i, i;
	printf "}, \"traceEvents\": %s}", ev }' | gzip -n >"$tmp/sorted.json.gz"
awk -v ev="$ev" 'BEGIN { printf "{\"foo\":\""; for (i = 0; i < 66000; i++) printf "x";
	printf "\",\"traceEvents\":%s}", ev }' >"$tmp/longstr.json"
awk -v ev="$ev" 'BEGIN { printf "{"; for (i = 0; i < 70000; i++) printf " ";
	printf "\"traceEvents\":%s}", ev }' >"$tmp/blanks.json"
awk -v ev="$ev" 'BEGIN { for (i = 0; i < 70000; i++) printf i % 80 ? " " : "\n";
	printf "{\"traceEvents\":%s}", ev }' >"$tmp/lead.json"
for f in sorted.json.gz longstr.json blanks.json lead.json; do
	expect 0 "^Events +1 slice on 1 thread and 0 async rows in 1 process" \
		"$NXTOP" summary -q "$tmp/$f"
	grep -Eq "^Kind +trace \(chrome-json\)$" "$out" || fail "$f: $(cat "$out")"
done
awk 'BEGIN { printf "{\"foo\":\""; for (i = 0; i < 70000; i++) printf "x";
	printf "\",\"bar\":{\"traceEvents\":[]}}" }' >"$tmp/notrace.json"
expect 1 "^nxtop: $tmp/notrace.json: no Neuron profile data found \(top-level keys: \"foo\", \"bar\"\)$" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/notrace.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "notrace.json: $(cat "$err")"
no_file "$tmp/bad.nxdb"
# keys are read with their escapes decoded: an escaped "traceEvents"
# is Chrome's, and an error quotes a key as the file means it, an
# escaped control character cleaned to U+FFFD (not "abu001bcd")
printf '{"trace\\u0045vents":%s}' "$ev" >"$tmp/esckey.json"
expect 0 "^Kind +trace \(chrome-json\)$" "$NXTOP" summary -q "$tmp/esckey.json"
printf '{"ab\\u001bcd":[1],"\\u00e9":2}' >"$tmp/esckey.json"
expect 1 "^nxtop: $tmp/esckey.json: no Neuron profile data found \(top-level keys: \"ab$(printf '\357\277\275')cd\", \"$(printf '\303\251')\"\)$" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/esckey.json"
no_file "$tmp/bad.nxdb"

# a trace is described in its own words: slices, threads, async rows,
# rows of process-wide and global instants, and processes (counted
# here with sqlite3 from the cache), not instructions or DMA packets.
# The rows "Global events" and "Process events" are those instant
# rows, one per process with such instants and one for the whole
# trace, as jq counts them: neither a thread nor an async row.
cp "$srcdir/tests/fixtures/chrome_phases.json" "$tmp/phases.json"
"$NXTOP" import -q "$tmp/phases.json" || fail "phases: import failed"
if have sqlite3; then
	kinds=$(sqlite3 "$tmp/phases.json.nxdb" "SELECT (SELECT count(*) FROM slice),
		(SELECT count(*) FROM track WHERE kind = 'thread'),
		(SELECT count(*) FROM track WHERE kind = 'async'),
		(SELECT count(*) FROM track WHERE kind = 'instant'),
		(SELECT count(*) FROM track WHERE kind = 'group'),
		(SELECT count(*) FROM counter)" | tr '|' ' ')
	set -- $kinds
	expect 0 "^Events +$1 slices on $2 threads, $3 async rows and $4 instant rows in $5 processes, $6 counter samples\$" \
		"$NXTOP" summary -q "$tmp/phases.json"
	grep -Eq "instruction|DMA" "$out" && fail "a trace summary in Neuron words: $(cat "$out")"
	[ "$(sqlite3 "$tmp/phases.json.nxdb" "SELECT group_concat(k, ', ') FROM
		(SELECT name || ' ' || kind AS k FROM track WHERE name IN
		('Global events', 'Process events') ORDER BY name)")" = \
		"Global events instant, Process events instant" ] ||
		fail "instant rows not of their own kind: $(cat "$out")"
	if have jq; then
		want=$(jq '[.traceEvents[] | select((.ph == "i" or .ph == "I") and
			(.s == "g" or .s == "p")) | if .s == "g" then "" else .pid end] |
			unique | length' "$tmp/phases.json")
		[ "$4" = "$want" ] || fail "$4 instant rows, jq counts $want"
		expect 0 "" "$NXTOP" summary -q --format json "$tmp/phases.json"
		jq -e --argjson n "[$1,$2,$3,$4,$5,$6]" '[.slices, .threads, .async_rows,
			.instant_rows, .processes, .counter_samples] == $n and ([has("instructions",
			"dma_packets", "engines", "layers", "checks")] | any | not)' "$out" >/dev/null ||
			fail "trace summary JSON: $(cat "$out")"
	fi
fi

# Perfetto's equivalents are counted as Chrome's: events with no track
# (row "Global events") and on a process's own track ("Process
# events") make instant rows, slices among them, not threads or async
# rows; the fixture has 1 slice on its thread and 2 slices and 2
# instants on those rows.
expect 0 "^Events +5 slices on 1 thread, 0 async rows and 2 instant rows in 1 process, 0 counter samples\$" \
	"$NXTOP" summary -q "$tmp/scopes.pftrace"
expect 0 "" "$NXTOP" summary -q --format json "$tmp/scopes.pftrace"
grep -q '"threads": *1,' "$out" && grep -q '"async_rows": *0,' "$out" &&
	grep -q '"instant_rows": *2,' "$out" ||
	fail "scopes.pftrace summary JSON: $(cat "$out")"

# a compressed bundle inside another is skipped, and the summary's
# warnings say so, naming the packet that held it
expect 0 '^  \[Import\] 1 compressed packet bundle\(s\) inside another compressed bundle were skipped, the first in "packet"\[1\] at byte 19: nxtop reads bundles one level deep, as Perfetto writes them$' \
	"$NXTOP" summary -q "$tmp/bundle_in_bundle.pftrace"

# a trace's counters are listed in its summary (name, unit, samples,
# min, max, mean), with the numbers the selection export gives them
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":5,"name":"a"},
{"ph":"C","pid":1,"ts":1,"name":"mem","args":{"value":10}},
{"ph":"C","pid":1,"ts":2,"name":"mem","args":{"value":30}},
{"ph":"C","pid":1,"ts":4,"name":"mem","args":{"value":5}},
{"ph":"C","pid":2,"ts":3,"name":"mem","args":{"value":7}},
{"ph":"C","pid":1,"ts":3,"name":"q","args":{"rd":1.5,"wr":2}}]}' > "$tmp/cnt.json"
expect 0 "" "$NXTOP" summary -q "$tmp/cnt.json"
sed -n '/^Counters$/,/^$/p' "$out" > "$tmp/cnt.got"
cat > "$tmp/cnt.want" <<'WANT'
Counters
  Counter        Unit  Samples  Min  Max  Mean
  Process 1/mem  -           3    5   30    15
  q rd           -           1  1.5  1.5   1.5
  q wr           -           1    2    2     2
  Process 2/mem  -           1    7    7     7
WANT
cmp -s "$tmp/cnt.got" "$tmp/cnt.want" || fail "trace summary counters: $(cat "$out")"
if have jq; then
	for f in cnt.json counters.pftrace; do
		"$NXTOP" summary -q --format json "$tmp/$f" > "$tmp/sum.json" ||
			fail "$f: summary --format json failed"
		"$NXTOP" export -q --format json "$tmp/$f" > "$tmp/sel.json" ||
			fail "$f: export --format json failed"
		got=$(jq -c '[.counters[] | [.samples, .min, .max, .mean]]' "$tmp/sum.json")
		want=$(jq -c '[.rows[] | select(.kind == "counter") |
			[.samples, .min, .max, .mean]]' "$tmp/sel.json")
		[ "$got" != "[]" ] && [ "$got" = "$want" ] ||
			fail "$f: summary counters $got, the export's $want"
		summary_csv_same "$tmp/$f"
	done
fi

# a process and its thread named by a 1000-character command line, a
# slice named after it: text keeps every column within 100 columns
# (cut in the middle), JSON and CSV keep the whole name
cmd=$(awk 'BEGIN { printf "/usr/lib/chromium/chromium --type=renderer";
	for (i = 0; i < 60; i++) printf " --flag%03d=value", i; printf " --seatbelt" }')
printf '{"traceEvents":[{"ph":"M","pid":7,"name":"process_name","args":{"name":"%s"}},
{"ph":"M","pid":7,"tid":8,"name":"thread_name","args":{"name":"%s"}},
{"ph":"X","pid":7,"tid":8,"ts":1,"dur":5,"name":"Task %s"}]}' "$cmd" "$cmd" "$cmd" > "$tmp/wide.json"
for args in "summary" "export" "export --query dur>0"; do
	# shellcheck disable=SC2086
	expect 0 "" "$NXTOP" $args -q "$tmp/wide.json"
	w=$(LC_ALL=C.UTF-8 awk '{ if (length > m) m = length } END { print m + 0 }' "$out")
	[ "$w" -le 240 ] || fail "$args: a line $w wide"
	grep -qF -- "--type=renderer --flag0" "$out" && grep -qF -- "--flag059=value --seatbelt" "$out" &&
		grep -qF "…" "$out" || fail "$args: the name not shortened in the middle: $(cat "$out")"
	grep -qF -- "$cmd" "$out" && fail "$args: the whole name in text"
done
for f in json csv; do
	expect 0 "" "$NXTOP" export -q --format $f --query 'dur>0' "$tmp/wide.json"
	grep -qF -- "Task $cmd" "$out" || fail "$f: the name is not whole"
	grep -qF -- "$cmd 8" "$out" || fail "$f: the row's name is not whole"
done

# names and a counter's unit with escape sequences and C1 controls:
# cleaned in every export
for f in text json csv; do
	expect 0 "" "$NXTOP" export -q --format $f "$tmp/utf8.pftrace"
	if LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037\177]')" "$out" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$out"; then
		fail "utf8.pftrace: raw control bytes in the $f export: $(od -c "$out" | head -20)"
	fi
done
r=$(printf '\357\277\275')	# U+FFFD
expect 0 "" "$NXTOP" export -q "$tmp/utf8.pftrace"
grep -qF "== gauge (counter, $r]0;title$r$r): 1 sample," "$out" ||
	fail "utf8.pftrace: the counter's unit: $(grep gauge "$out")"

# Perfetto flows paired in the order their slices begin, however the
# slices end (the pairs of flow_order.pftrace listed by hand from
# tests/mkpftrace.c); none unpaired
expect 0 "" "$NXTOP" export -q --format csv --what flows "$tmp/flow_order.pftrace"
tail -n +2 "$out" | tr -d '\r' | awk -F, '{ print $7 ">" $11 }' | sort >"$tmp/got"
printf '%s\n' 'outer>quick' 'c1>c2' 'c2>c3' 'r1>r2' 'r3>r4' 'parent>child' \
	'e2>e1' 'open>closer' | sort >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "flow_order.pftrace: $(diff "$tmp/want" "$tmp/got")"
# a generated trace: every flow it started is paired but those it says
# it left without an end (some 78,000 flows, more than the importer
# gathers before it writes those whose slices are written)
"$builddir/bench/gen_trace" pftrace-flows 800000 "$tmp/gen.pftrace" \
	2>"$tmp/gen.txt" || fail "gen_trace"
said=$(sed -n 's/^gen_trace: \([0-9]*\) flows, \([0-9]*\) without an end$/\1 \2/p' "$tmp/gen.txt")
[ -n "$said" ] || fail "gen_trace said: $(cat "$tmp/gen.txt")"
expect 0 "" "$NXTOP" export -q --what flows "$tmp/gen.pftrace"
got=$(sed -n 's/^Flows *\([0-9]*\) paired, [0-9]* unpaired (\([0-9]*\) without an end, \([0-9]*\) without a start)$/\1 \2 \3/p' "$out" |
	awk '{ print $1 + $2, $2, $3 }')
[ "$got" = "$said 0" ] ||
	fail "gen.pftrace: flows, open ends, ends without a start: $got; generated: $said"
# Chrome flow ids as the file gives them: 64-bit, signed or not, decimal
# ("010" is ten, not octal eight) or hex as id2 writes them; an id that
# is no number is kept as its text, in every export; only a step with
# no id leaves the flow without one
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":9},
{"ph":"s","id":-1,"pid":1,"tid":1,"ts":2},{"ph":"s","id":18446744073709551615,"pid":1,"tid":1,"ts":2},
{"ph":"s","id":"010","pid":1,"tid":1,"ts":2},{"ph":"s","id2":{"local":"0x1A"},"pid":1,"tid":1,"ts":2},
{"ph":"s","id":"abc","pid":1,"tid":1,"ts":2},{"ph":"s","id":1,"pid":1,"tid":1,"ts":2},
{"ph":"s","pid":1,"tid":1,"ts":2}]' >"$tmp/flowids.json"
expect 0 "" "$NXTOP" export -q --format csv --what flows "$tmp/flowids.json"
tail -n +2 "$out" | tr -d '\r' | cut -d, -f1 | sort >"$tmp/got"
printf '%s\n' '' -1 1 10 18446744073709551615 26 abc | sort >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "flowids.json: flow ids: $(diff "$tmp/want" "$tmp/got")"
expect 0 "" "$NXTOP" export -q --format json --what flows "$tmp/flowids.json"
grep -q '"flow_id": "abc",' "$out" ||
	fail "flowids.json: JSON flow ids: $(cat "$out")"
expect 0 "" "$NXTOP" export -q --what flows "$tmp/flowids.json"
grep -q '^abc  ' "$out" || fail "flowids.json: text flow ids: $(cat "$out")"
# Two processes' "Thread 1": the summary names each one GROUP/ROW, as
# --tracks takes it, so that neither hides the other
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"X","name":"b","pid":2,"tid":1,"ts":2,"dur":2}]' \
	> "$tmp/twin.json"
expect 0 "^  Process 2/Thread 1  thread +1 +2 .s" "$NXTOP" summary -q "$tmp/twin.json"
grep -Eq "^  Process 1/Thread 1  thread +1 +1 .s" "$out" ||
	fail "twin threads: $(sed -n '/^Rows/,$p' "$out")"
pass
