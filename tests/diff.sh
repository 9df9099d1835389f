#!/bin/sh
# nxtop diff A B: a device profile against a copy with known changes (an
# opcode renamed, one moved to another opcode, a duration doubled, a
# layer renamed, the MFU doubled, a DMA packet's size tripled, two
# summary figures made a fraction and 2^53 + 1): opcodes, HLO names,
# engines (with busy time), layers and DMA queues against jq's counts
# and sums, rows only on one side added or removed, every delta and
# percentage recomputed by awk; the profile's own figures without a
# unit, each side's exact; the three formats carry the same numbers; --sort; two system profiles written here, their
# executions' count, median, p90 and max against awk; Chrome traces for
# --fail-if-slower at both sides of its threshold and an empty profile;
# a change under 0.01% in two significant digits (text, the viewer);
# mixed kinds (in the viewer too) and bad options.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch

if ! have jq; then
	pass
fi

a="$tmp/a.json"
b="$tmp/b.json"
cp "$srcdir/tests/fixtures/device_small.json" "$a"
sed -e 's/"opcode":"TENSOR_REDUCE"/"opcode":"TENSOR_REDUCE_V2"/' \
	-e 's/"opcode":"EVENT_SEMAPHORE"/"opcode":"ACTIVATE"/' \
	-e 's/"duration":82,/"duration":164,/' \
	-e 's|"name":"/sg00/_dot.3"|"name":"/sg00/_dot.4"|' \
	-e 's/"mfu_estimated_percent":2.438498234067393e-05}/"mfu_estimated_percent":4.876996468134786e-05}/' \
	-e 's/"transfer_size":2048,"read_size":2048,"variable":"identity_40"/"transfer_size":6144,"read_size":2048,"variable":"identity_40"/' \
	-e 's/"hbm_read_bytes":98304,/"hbm_read_bytes":98304.5,/' \
	-e 's/"dma_transfer_total_bytes":32768,/"dma_transfer_total_bytes":9007199254740993,/' \
	"$a" >"$b"
cmp -s "$a" "$b" && fail "the changed copy is the same"
expect 0 "" "$NXTOP" import -q "$a"
expect 0 "" "$NXTOP" import -q "$b"

# pair A B JQDEF: "key,a_n,b_n,a_t,b_t,status" for every key of either
# side, from JQDEF's rows: {KEY: {n, t}} of one profile
pair() {
	jq -n -r --slurpfile A "$1" --slurpfile B "$2" "$3"'
	($A[0] | rows) as $a | ($B[0] | rows) as $b
	| ([$a, $b] | map(keys[]) | unique[]) as $k
	| [$k, ($a[$k].n // ""), ($b[$k].n // ""), ($a[$k].t // ""),
	   ($b[$k].t // ""), (if $a[$k] and $b[$k] then "both"
	   elif $b[$k] then "added" else "removed" end)]
	| map(tostring) | join(",")' | sort
}

# csv_pairs: the same fields of a diff CSV with one key column before
# the figures (KEYS columns: 1 or 2), its \r dropped
csv_pairs() {
	tr -d '\r' <"$out" | awk -F, -v k="$1" 'NR > 1 {
		key = $1; if (k == 2) key = key "," $2
		print key "," $(k + 1) "," $(k + 2) "," $(k + 4) "," $(k + 5) "," $NF }' |
		sort
}

# check_deltas KEYS NCOLS PCTS: in the CSV, each figure's B-A is b - a
# (a side without the row counts as 0), and its percentage (B-A)/A*100
# when A has the row and is not 0, else empty. PCTS: which figures
# (1-based) have a percentage column, e.g. "2 3".
check_deltas() {
	tr -d '\r' <"$out" | awk -F, -v k="$1" -v nc="$2" -v pcts="$3" '
	function abs(x) { return x < 0 ? -x : x }
	BEGIN { split(pcts, p, " "); for (i in p) haspct[p[i]] = 1 }
	NR > 1 {
		c = k + 1
		for (f = 1; f <= nc; f++) {
			av = $c; bv = $(c + 1); dv = $(c + 2)
			if (dv != (bv + 0) - (av + 0)) {
				print "row " NR ": delta " dv " of " av " and " bv; bad = 1
			}
			c += 3
			if (haspct[f]) {
				if (av != "" && bv != "" && av != 0) {
					want = dv * 100 / av
					if ($c == "" || abs($c - want) > 1e-9 * (1 + abs(want))) {
						print "row " NR ": pct " $c " want " want; bad = 1
					}
				} else if ($c != "") {
					print "row " NR ": pct " $c " without a base"; bad = 1
				}
				c++
			}
		}
	}
	END { exit bad }' >"$tmp/deltas" || fail "deltas: $(cat "$tmp/deltas")"
}

# opcodes per engine row: the instructions' label, count, duration sum
opc='def rows: [.instruction[] | {k: "\(.label),\(.opcode)",
	d: (.duration | tonumber)}] | group_by(.k)
	| map({key: .[0].k, value: {n: length, t: (map(.d) | add)}})
	| from_entries;'
pair "$a" "$b" "$opc" >"$tmp/want"
grep -q '^Vector,TENSOR_REDUCE,1,,50,,removed$' "$tmp/want" &&
	grep -q '^Vector,TENSOR_REDUCE_V2,,1,,50,added$' "$tmp/want" &&
	grep -q '^Scalar,ACTIVATE,1,2,248,1763,both$' "$tmp/want" ||
	fail "the changed copy does not differ as planned: $(cat "$tmp/want")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what opcodes --format csv
head -1 "$out" | tr -d '\r' | grep -qx 'engine,opcode,count_a,count_b,count_delta,time_a,time_b,time_delta,time_pct,status' ||
	fail "opcodes CSV header: $(head -1 "$out")"
csv_pairs 2 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "opcodes differ from jq: $(diff "$tmp/want" "$tmp/got")"
check_deltas 2 2 2
cp "$out" "$tmp/opcodes.csv"
# default order: the largest time change first
tr -d '\r' <"$out" | awk -F, 'NR > 1 { print ($8 < 0 ? -$8 : $8) }' |
	sort -c -n -r 2>/dev/null || fail "opcodes not by |time B-A|: $(cat "$out")"

# the same rows as JSON and as text
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what opcodes --format json
jq -r '.rows[] | [.engine, .opcode, .count_a, .count_b, .count_delta,
	.time_a, .time_b, .time_delta, .time_pct, .status]
	| map(if . == null then "" else tostring end) | join(",")' "$out" \
	>"$tmp/json.csv"
tr -d '\r' <"$tmp/opcodes.csv" | tail -n +2 |
	awk -F, 'NR == FNR { j[FNR] = $0; next }
	{ n = split(j[FNR], x, ","); for (i = 1; i <= n; i++) {
		if (x[i] == $i) continue
		if (x[i] != "" && $i != "" && (x[i] - $i) ^ 2 < 1e-18 * (1 + $i ^ 2)) continue
		print FNR ": " j[FNR] " / " $0; bad = 1 } }
	END { exit bad }' "$tmp/json.csv" - >"$tmp/cmp" ||
	fail "JSON and CSV differ: $(cat "$tmp/cmp")"
expect 0 '^Tensor +LDWEIGHTS +1 +1 +0 +82 ns +164 ns +\+82 ns +\+100\.00%' \
	"$NXTOP" diff -q "$a" "$b" --what opcodes
grep -Eq '^Vector +TENSOR_REDUCE +1 +- +-1 +50 ns +- +-50 ns +n/a +removed$' "$out" ||
	fail "text: no removed TENSOR_REDUCE line: $(cat "$out")"
grep -Eq '^Rows +9: 6 in both, 1 added, 2 removed$' "$out" ||
	fail "text: rows line: $(cat "$out")"

# HLO names (with commas: JSON); no name is "(none)"
hlo='def rows: [.instruction[] | {k: ((.hlo_name // "") | if . == "" then
	"(none)" else . end), d: (.duration | tonumber)}] | group_by(.k)
	| map({key: .[0].k, value: {n: length, t: (map(.d) | add)}})
	| from_entries;'
pair "$a" "$b" "$hlo" >"$tmp/want"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what hlo --format json
jq -r '.rows[] | [.hlo, .count_a, .count_b, .time_a, .time_b, .status]
	| map(if . == null then "" else tostring end) | join(",")' "$out" |
	sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "HLO names differ from jq: $(diff "$tmp/want" "$tmp/got")"

# engine rows: count, time, and busy time (the union of the intervals)
eng='def busy: sort_by(.s) | reduce .[] as $e ({end: -1e18, sum: 0};
	if $e.s >= .end then .sum += ($e.e - $e.s) | .end = $e.e
	elif $e.e > .end then .sum += ($e.e - .end) | .end = $e.e else . end)
	| .sum;
	def rows: [.instruction[] | {k: .label, s: (.timestamp | tonumber),
	d: (.duration | tonumber)} | .e = .s + .d] | group_by(.k)
	| map({key: .[0].k, value: {n: length, t: (map(.d) | add),
	b: busy}}) | from_entries;'
jq -n -r --slurpfile A "$a" --slurpfile B "$b" "$eng"'
	($A[0] | rows) as $a | ($B[0] | rows) as $b | $a | keys[] as $k
	| [$k, $a[$k].n, $b[$k].n, $a[$k].t, $b[$k].t, $a[$k].b, $b[$k].b]
	| map(tostring) | join(",")' | sort >"$tmp/want"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what engines --format csv
tr -d '\r' <"$out" | awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $5 "," $6 "," $9 "," $10 }' |
	sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "engines differ from jq: $(diff "$tmp/want" "$tmp/got")"
check_deltas 1 3 "2 3"

# layers: the profile's layer_summary records by name
lay='def num: if . == null then 0 else tonumber end;
	def rows: [.layer_summary[] | {key: .name, value: {n:
	([.tensor_engine_instruction_count, .vector_engine_instruction_count,
	  .scalar_engine_instruction_count, .gpsimd_engine_instruction_count,
	  .sync_engine_instruction_count] | map(num) | add),
	t: (.duration | tonumber)}}] | from_entries;'
pair "$a" "$b" "$lay" >"$tmp/want"
grep -q ',added$' "$tmp/want" && grep -q ',removed$' "$tmp/want" ||
	fail "layers: no renamed layer: $(cat "$tmp/want")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what layers --format csv
csv_pairs 1 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "layers differ from jq: $(diff "$tmp/want" "$tmp/got")"
check_deltas 1 2 2
# --sort: by name, and by B's count descending
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what layers --format csv --sort name
tr -d '\r' <"$out" | awk -F, 'NR > 1 { print $1 }' >"$tmp/names"
LC_ALL=C sort -c "$tmp/names" || fail "--sort name: $(cat "$tmp/names")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what opcodes --format csv --sort -count_b
tr -d '\r' <"$out" | awk -F, 'NR > 1 && $4 != "" { print $4 }' |
	sort -c -n -r 2>/dev/null || fail "--sort -count_b: $(cat "$out")"
tr -d '\r' <"$out" | awk -F, 'NR > 1 { print $4 }' | tail -1 | grep -qx '' ||
	fail "--sort -count_b: a row without B is not last: $(cat "$out")"

# overall: instructions, the profile's own MFU (doubled) and total time
expect 0 "" "$NXTOP" diff -q "$a" "$b" --format json
n=$(jq '.instruction | length' "$a")
jq -e --argjson n "$n" '.what == "overall" and
	(.rows[] | select(.figure == "Instructions") | .value_a == $n and
	 .value_b == $n and .status == "both") and
	(.rows[] | select(.figure == "profile: mfu_estimated_percent")
	 | (.value_pct - 100 | fabs) < 1e-9) and
	(.rows[] | select(.figure == "Total time") | .value_a == .a.total_ns?
	 // true)' "$out" >/dev/null || fail "overall JSON: $(cat "$out")"
jq -e --arg a "$a" --arg b "$b" '.a.file == $a and .b.file == $b' "$out" \
	>/dev/null || fail "overall JSON: the files are not named: $(cat "$out")"
ta=$(jq '.a.total_ns' "$out")
jq -e --argjson t "$ta" '.rows[] | select(.figure == "Total time")
	| .value_a == $t and .unit == "ns"' "$out" >/dev/null ||
	fail "overall: Total time is not the header's"
expect 0 '^profile: mfu_estimated_percent +2\.4385e-05 +4\.877e-05 +\+2\.4385e-05 +\+100\.00%' \
	"$NXTOP" diff -q "$a" "$b"
# both profiles have one name: the header says which file is which
grep -q "^A  .* (device)  $a\$" "$out" &&
	grep -q "^B  .* (device)  $b\$" "$out" ||
	fail "the header does not name the files: $(head -3 "$out")"
# the profile's own numbers: no unit (the man page), whether they are
# integers or not, each side's as the profile writes it: hbm_read_bytes
# 98304 in A and 98304.5 in B (+0.5, 0.5 of 98304 is 0.00051%),
# dma_transfer_total_bytes 32768 in A and 2^53 + 1 in B, exact (read in
# the CSV: jq's numbers are doubles)
grep -Eq '^profile: hbm_read_bytes +98304 +98304\.5 +\+0\.5 +\+0\.00051%' "$out" ||
	fail "text: hbm_read_bytes: $(grep hbm_read "$out")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --format json
jq -e '[.rows[] | select(.figure | startswith("profile: ")) | .unit] |
	length > 10 and all(. == "")' "$out" >/dev/null ||
	fail "the profile's own figures have units: $(jq -c '.rows[] |
		select(.figure | startswith("profile: ")) | [.figure, .unit]' "$out")"
jq -e '.rows[] | select(.figure == "profile: hbm_read_bytes") |
	.value_a == 98304 and .value_b == 98304.5 and .value_delta == 0.5
	and ((.value_pct - 0.5 * 100 / 98304) | fabs) < 1e-12' "$out" >/dev/null ||
	fail "hbm_read_bytes, an integer in A and not in B: $(grep -A6 'hbm_read' "$out")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --format csv
tr -d '\r' <"$out" | grep -q '^profile: dma_transfer_total_bytes,,32768,9007199254740993,9007199254708225,' ||
	fail "CSV: an integer not exact: $(grep dma_transfer_total "$out")"

# system profiles: executions per event, model and NeuronCore
# sysjson SPEC: a system profile of "event model nc duration_us" lines
sysjson() {
	awk 'BEGIN { printf "{\"trace_event\": [\n"; t = 1729888371000000000 }
	NF == 4 { id++; t += 1000000
		printf "%s{\"name\": \"%s\", \"model_name\": \"%s\", \"nc_idx\": %d, \"lnc_idx\": %d, \"worker_gid\": %d, \"duration\": %d, \"timestamp\": %d, \"timestamp_unit\": \"ns\", \"id\": %d, \"parent_id\": 0, \"instance_id\": \"i-1\", \"process_id\": \"7\", \"thread_id\": %d, \"trace_event_source\": \"neuron_rt\"}",
			(id > 1 ? ",\n" : ""), $1, $2, $3, $3, 30 + $3, $4 * 1000, t, id, 100 + $3 }
	END { printf "\n]}\n" }'
}
printf '%s\n' "nrt_execute m.neff 0 50" "nrt_execute m.neff 0 10" \
	"nrt_execute m.neff 0 40" "nrt_execute m.neff 0 20" \
	"nrt_execute m.neff 0 30" "nrt_execute m.neff 0 90" \
	"nrt_execute m.neff 0 70" "nrt_execute m.neff 0 80" \
	"nrt_execute m.neff 0 60" "nrt_execute m.neff 0 100" \
	"nrt_execute m.neff 1 5" "nrt_execute m.neff 1 7" \
	"nc_exec_running m.neff 0 8" "nc_exec_running m.neff 0 9" >"$tmp/sa.txt"
printf '%s\n' "nrt_execute m.neff 0 55" "nrt_execute m.neff 0 11" \
	"nrt_execute m.neff 0 44" "nrt_execute m.neff 0 22" \
	"nrt_execute m.neff 0 33" "nrt_execute m.neff 0 99" \
	"nrt_execute m.neff 0 200" "nrt_execute m.neff 2 4" \
	"nc_exec_running m.neff 0 8" "nc_exec_running m.neff 0 12" \
	"nc_exec_running m.neff 0 10" >"$tmp/sb.txt"
sysjson <"$tmp/sa.txt" >"$tmp/sa.json"
sysjson <"$tmp/sb.txt" >"$tmp/sb.json"
# stats SPEC: "event,model on NC n,count,median,p90,max" (ns): the lower
# median and the nearest-rank 90th percentile of the sorted durations
stats() {
	sort -k1,1 -k2,2 -k3,3n -k4,4n "$1" | awk '
	function flush() { if (!n) return
		m = int((n - 1) / 2) + 1; r = int((9 * n + 9) / 10)
		print key "," n "," d[m] * 1000 "," d[r] * 1000 "," d[n] * 1000; n = 0 }
	{ k = $1 "," $2 " on NC " $3; if (k != key) { flush(); key = k }
	  d[++n] = $4 }
	END { flush() }'
}
stats "$tmp/sa.txt" >"$tmp/ea"
stats "$tmp/sb.txt" >"$tmp/eb"
awk -F, 'NR == FNR { a[$1 "," $2] = $0; next }
	{ b[$1 "," $2] = $0 }
	END { for (k in a) keys[k] = 1; for (k in b) keys[k] = 1
	for (k in keys) {
		s = (k in a) && (k in b) ? "both" : (k in b) ? "added" : "removed"
		split(a[k], x, ","); split(b[k], y, ",")
		print k "," x[3] "," y[3] "," x[4] "," y[4] "," x[5] "," y[5] "," x[6] "," y[6] "," s } }' \
	"$tmp/ea" "$tmp/eb" | sort >"$tmp/want"
expect 0 "" "$NXTOP" diff -q "$tmp/sa.json" "$tmp/sb.json" --what executions --format csv
tr -d '\r' <"$out" | awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $6 "," $7 "," $10 "," $11 "," $14 "," $15 "," $18 }' |
	sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "executions differ from awk: $(diff "$tmp/want" "$tmp/got")"
check_deltas 2 4 "2 3 4"
grep -q ',added' "$tmp/want" && grep -q ',removed' "$tmp/want" ||
	fail "executions: no added and removed group: $(cat "$tmp/want")"
expect 0 '^nrt_execute events +12 +8 +-4 +-33\.33%' \
	"$NXTOP" diff -q "$tmp/sa.json" "$tmp/sb.json"

# mixed kinds and the tables a kind lacks: one line, exit 1
expect 1 'both must be system profiles or neither' "$NXTOP" diff -q "$a" "$tmp/sa.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "mixed kinds: more than one line: $(cat "$err")"
[ -s "$out" ] && fail "mixed kinds: output written: $(cat "$out")"
expect 1 'executions compares system profiles' "$NXTOP" diff -q "$a" "$b" --what executions
expect 1 'layers compares device profiles' "$NXTOP" diff -q "$tmp/sa.json" "$tmp/sb.json" --what layers

# DMA queues: a packet's queue is its subgroup up to the first '-'; rows
# without packet_idx are the queue's transfers
dma='def rows: [.dma[] | {k: "\(.queue_type),\(.subgroup | split("-")[0])\(
	if has("packet_idx") then "" else " transfers" end)",
	d: (.duration | tonumber), b: (.transfer_size | tonumber)}]
	| group_by(.k) | map({key: .[0].k, value: {n: length,
	t: "\(map(.b) | add),\(map(.d) | add)"}}) | from_entries;'
jq -n -r --slurpfile A "$a" --slurpfile B "$b" "$dma"'
	($A[0] | rows) as $a | ($B[0] | rows) as $b | $a | keys[] as $k
	| [$k, $a[$k].n, $b[$k].n, $a[$k].t, $b[$k].t] | map(tostring)
	| join(",")' | awk -F, '{ print $1 "," $2 "," $3 "," $4 "," $5 "," $7 "," $6 "," $8 }' |
	sort >"$tmp/want"
grep -q '^data,qSyncSpillReload0,1,1,2048,6144,' "$tmp/want" ||
	fail "dma: the changed packet: $(cat "$tmp/want")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what dma --format csv
tr -d '\r' <"$out" | awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $6 "," $7 "," $10 "," $11 }' |
	sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "dma queues differ from jq: $(diff "$tmp/want" "$tmp/got")"
check_deltas 2 3 "2 3"
tr -d '\r' <"$out" | sed -n 2p | grep -q '^data,qSyncSpillReload0,' ||
	fail "dma: not by |bytes B-A| first: $(cat "$out")"

# the viewer: nxtop A B of two kinds fails in one line; :compare
# without a B says how to get one
printf 'dump screen\n' >"$tmp/dump.keys"
expect 1 'both must be system profiles or neither' \
	"$NXTOP" -q --headless="$tmp/dump.keys" --dump="$tmp" "$a" "$tmp/sa.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "viewer, mixed kinds: not one line: $(cat "$err")"
printf 'keys :compare<Enter>\ndump screen\n' >"$tmp/one.keys"
expect 0 "" "$NXTOP" -q --headless="$tmp/one.keys" --dump="$tmp" "$a"
grep -q 'compare: open two profiles to compare them: nxtop A B' "$tmp/screen" ||
	fail ":compare without B: $(cat "$tmp/screen")"

# --fail-if-slower on two traces: B spans 10% more than A
printf '{"traceEvents": [{"name": "k", "ph": "X", "ts": 0, "dur": 400, "pid": 1, "tid": 1},
 {"name": "k", "ph": "X", "ts": 500, "dur": 500, "pid": 1, "tid": 1}]}\n' >"$tmp/ta.json"
printf '{"traceEvents": [{"name": "k", "ph": "X", "ts": 0, "dur": 400, "pid": 1, "tid": 1},
 {"name": "k", "ph": "X", "ts": 500, "dur": 600, "pid": 1, "tid": 1}]}\n' >"$tmp/tb.json"
span='.traceEvents | ((map(.ts + .dur) | max) - (map(.ts) | min)) * 1000'
ta=$(jq "$span" "$tmp/ta.json")
tb=$(jq "$span" "$tmp/tb.json")
expect 0 "" "$NXTOP" diff -q "$tmp/ta.json" "$tmp/tb.json" --format json
jq -e --argjson a "$ta" --argjson b "$tb" '.a.total_ns == $a and
	.b.total_ns == $b and .total_delta_ns == $b - $a and
	((.total_pct - ($b - $a) * 100 / $a) | fabs) < 1e-9' "$out" >/dev/null ||
	fail "trace totals: want $ta $tb: $(cat "$out")"
expect 3 '^nxtop: B is slower than A: total time 1\.1 ms against 1 ms \(\+10\.00%, more than 9\.99%\)$' \
	"$NXTOP" diff -q "$tmp/ta.json" "$tmp/tb.json" --fail-if-slower 9.99
[ "$(wc -l <"$err")" -eq 1 ] || fail "slower: not one line: $(cat "$err")"
grep -q '^Total time' "$out" || fail "slower: the report is missing"
expect 0 "" "$NXTOP" diff -q "$tmp/ta.json" "$tmp/tb.json" --fail-if-slower 10
expect 0 "" "$NXTOP" diff -q "$tmp/ta.json" "$tmp/tb.json" --fail-if-slower 10.01
expect 0 "" "$NXTOP" diff -q "$tmp/tb.json" "$tmp/ta.json" --fail-if-slower 0
expect 0 "" "$NXTOP" diff -q "$tmp/ta.json" "$tmp/ta.json" --fail-if-slower 0

# a change under 0.01%: two significant digits, as the man page has
# shares below 0.01% everywhere, never -0.00%. tc.json is ta.json with
# its second event 50 ns longer (500.05 us): the total 1 ms + 50 ns,
# the busy time 900 us + 50 ns. From tc to ta: -50 ns of 1000050 ns is
# -0.0049998%, "-0.0050%"; of the 900050 ns busy, -0.0055552%, "-0.0056%".
sed 's/"dur": 600/"dur": 500.05/' "$tmp/tb.json" >"$tmp/tc.json"
expect 0 '^Total +1 ms -> 1 ms \(-50 ns, -0\.0050%\)$' \
	"$NXTOP" diff -q "$tmp/tc.json" "$tmp/ta.json"
expect 3 '^nxtop: B is slower than A: total time 1 ms against 1 ms \(\+0\.0050%, more than 0\.001%\)$' \
	"$NXTOP" diff -q "$tmp/ta.json" "$tmp/tc.json" --fail-if-slower 0.001
# the viewer's Compare view and window over both say the same
printf 'size 120x30\ndump tiny-cmp\nkeys q0W\ndump tiny-win\n' >"$tmp/tiny.keys"
expect 0 "" "$NXTOP" -q --headless="$tmp/tiny.keys" --dump="$tmp" \
	"$tmp/tc.json" "$tmp/ta.json"
head -1 "$tmp/tiny-cmp" | grep -q ', total -50 ns (-0\.0050%)$' ||
	fail "Compare view header: $(head -1 "$tmp/tiny-cmp")"
head -1 "$tmp/tiny-win" | grep -q ', active -50 ns (-0\.0056%)$' ||
	fail "window header: $(head -1 "$tmp/tiny-win")"

# an empty profile: no base for a percentage; from nothing is slower
printf '{"traceEvents": []}\n' >"$tmp/empty.json"
expect 0 '^Total +0 ns -> 1 ms \(\+1 ms, n/a\)$' "$NXTOP" diff -q "$tmp/empty.json" "$tmp/ta.json"
grep -Eq '^Events +0 +2 +\+2 +n/a' "$out" || fail "empty: events line: $(cat "$out")"
expect 0 "" "$NXTOP" diff -q "$tmp/empty.json" "$tmp/ta.json" --format json
jq -e '.total_pct == null and .a.total_ns == 0' "$out" >/dev/null ||
	fail "empty: JSON: $(cat "$out")"
expect 3 'from 0' "$NXTOP" diff -q "$tmp/empty.json" "$tmp/ta.json" --fail-if-slower 50
expect 0 "^Rows +3: 3 in both" "$NXTOP" diff -q "$tmp/empty.json" "$tmp/empty.json" --what overall

# usage errors: exit 2
expect 2 'needs two profiles' "$NXTOP" diff -q "$a"
expect 2 "unexpected argument" "$NXTOP" diff -q "$a" "$b" "$a"
expect 2 "unknown --what 'bogus'" "$NXTOP" diff -q "$a" "$b" --what bogus
expect 2 "unknown format" "$NXTOP" diff -q "$a" "$b" --format xml
expect 2 "expected a percentage" "$NXTOP" diff -q "$a" "$b" --fail-if-slower -1
expect 2 "expected a percentage" "$NXTOP" diff -q "$a" "$b" --fail-if-slower 5x
# strtod would take these as numbers; a threshold is written in digits
for v in 0x10 1e2 inf nan .; do
	expect 2 "expected a percentage like 5 or 2.5, not '$v'" \
		"$NXTOP" diff -q "$a" "$b" --fail-if-slower "$v"
done
expect 2 "unknown column 'bogus'" "$NXTOP" diff -q "$a" "$b" --what layers --sort bogus
# checked before the profiles load: missing ones are not reached, and a
# column of another table is unknown to this one
expect 2 "^nxtop: --sort: unknown column 'bytes_a'" \
	"$NXTOP" diff -q "$tmp/missing-a.json" "$tmp/missing-b.json" --what layers --sort bytes_a
grep -q missing "$err" && fail "--sort BADCOL: a profile was opened: $(cat "$err")"
expect 0 "" "$NXTOP" diff -q "$a" "$b" --what dma --sort bytes_a
expect 1 "" "$NXTOP" diff -q "$a" "$tmp/missing.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "missing B: not one line: $(cat "$err")"

pass
