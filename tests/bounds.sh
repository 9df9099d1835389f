#!/bin/sh
# Performance bounds (model/bounds.c) of small device profiles made so
# that memory binds in one, compute in another and the pipeline in the
# third: the whole profile and a --range. Every figure is computed here
# with jq from the fixture's own JSON (bytes, FLOPs, busy unions,
# bandwidths), never by nxtop. The window and selection exports' text,
# JSON and CSV and nxtop analyze carry the same numbers; a bound without
# its inputs says why; profiles without device metadata say the bounds
# are not available.
set -u
. "${srcdir:-.}/tests/lib.sh"

have jq || pass
scratch
fx="$srcdir/tests/fixtures"

# memory binds: 18000 DMA packet bytes at 2 B/ns (the aggregated row of
# the same bytes must not count twice), FLOPs of nested layers once
cp "$fx/device_bounds.json" "$tmp/memory.json"

# compute binds: the summary's hardware FLOPs and HBM bytes for the whole
# profile; for a range the layers' FLOPs (spread over their spans) and
# the instructions' HBM bytes, which they have none of. The tensor
# engine under Parquet's Metadata names
cat > "$tmp/compute.json" <<'EOF'
{"metadata":[{"first_hw_timestamp":0,"last_hw_timestamp":9999,"tensor_engine_num_rows":4,"tensor_engine_num_cols":8,"tensor_engine_clock_freq":1.5,"dma_ddr_bandwidth":2000000000,"hbm_ddr_bandwidth":1000000000}],
"summary":[{"hardware_flops":864000,"hbm_read_bytes":1500,"hbm_write_bytes":"500","total_time":0.00001}],
"instruction":[{"timestamp":0,"duration":4000,"label":"Tensor","opcode":"MATMUL"}],
"dma":[{"timestamp":500,"duration":900,"aggregated":"no","queue_type":"data","subgroup":"qSyncIO0","transfer_size":2000,"id":1}],
"active_time":[{"start_ts":0,"end_ts":4000,"duration_ns":4000,"pcore_idx":0,"engine":"tensor"}],
"layer_summary":[
{"name":"/sg00/a","start":0,"end":5000,"duration":5000,"tensor_engine_flop_count":480000},
{"name":"/sg00/b","start":5000,"end":9000,"duration":4000,"tensor_engine_flop_count":96000}]}
EOF

# the pipeline binds: no ActiveTime rows (the union of each engine's
# instructions, which overlap), no tensor engine columns nor HBM
# bandwidth in the metadata: compute is not known, memory is DMA only
cat > "$tmp/pipeline.json" <<'EOF'
{"metadata":[{"first_hw_timestamp":0,"last_hw_timestamp":9999,"pe_num_rows":4,"pe_clock_freq":1.5,"dma_ddr_bandwidth":2000000000}],
"instruction":[
{"timestamp":1000,"duration":3000,"label":"Vector","opcode":"TENSOR_TENSOR"},
{"timestamp":3000,"duration":3000,"label":"Vector","opcode":"TENSOR_TENSOR"},
{"timestamp":0,"duration":2000,"label":"Scalar","opcode":"ACTIVATE"},
{"timestamp":7000,"duration":500,"label":"Tensor","opcode":"MATMUL","hbm_read_bytes":1000}],
"dma":[{"timestamp":200,"duration":800,"aggregated":"no","queue_type":"data","subgroup":"qSyncIO0","transfer_size":1000,"id":1}],
"layer_summary":[{"name":"/sg00/a","start":0,"end":9000,"duration":9000,"tensor_engine_flop_count":9600}]}
EOF

# The bounds of [t0, t1) from a fixture by hand: the figures nxtop's
# JSON export prints under the same keys. Events count when they start
# in the range; a layer's FLOPs are spread evenly over its span, and a
# layer with layers inside it ("/sg00" holds "/sg00/a") counts in them;
# ActiveTime rows (merged busy intervals) add up per engine, clipped to
# the range; without them an engine's instructions are merged.
cat > "$tmp/bounds.jq" <<'EOF'
def num: if type == "string" then tonumber else . end;
def rnd: floor + (if . - floor >= 0.5 then 1 else 0 end);
def union($t0; $t1):
  sort_by(.[0]) | reduce .[] as $iv ({cov: $t0, sum: 0};
    ([$iv[0], .cov] | max) as $s | ([$iv[1], $t1] | min) as $e |
    if $e > $s then .sum += ($e - $s) | .cov = $e else . end) | .sum;
def clipped($t0; $t1):
  ([.start_ts, $t0] | max) as $a | ([.end_ts, $t1] | min) as $z |
  if $z > $a then $z - $a else 0 end;
def share($t0; $t1):
  ([.start, $t0] | max) as $a | ([.end, $t1] | min) as $z |
  if $z > $a then .tensor_engine_flop_count * ($z - $a) / (.end - .start)
  else 0 end;
. as $p | .metadata[0] as $m |
($m.last_hw_timestamp + 1) as $last |
($t0 | tonumber) as $t0 | (if $t1 == "" then $last else $t1 | tonumber end) as $t1 |
# the range is measured to the last ns, not past it
(([$t1, $m.last_hw_timestamp] | min) - $t0) as $len |
($m.dma_ddr_bandwidth // null | if . then num else null end) as $dbw |
($m.hbm_ddr_bandwidth // null | if . then num else null end) as $hbw |
($m.tensor_engine_num_rows // $m.pe_num_rows) as $rows |
($m.tensor_engine_num_cols // $m.pe_num_cols) as $cols |
($m.tensor_engine_clock_freq // $m.pe_clock_freq) as $ghz |
(if $rows and $cols and $ghz then $rows * $cols * 2 * $ghz else null end) as $peak |
[.dma[] | select(.aggregated == "no" and .timestamp >= $t0 and .timestamp < $t1)
 | .transfer_size | num] as $packets |
($packets | add // 0) as $dma |
($t0 == 0 and $t1 == $last) as $whole |
(if $whole and (.summary[0].hbm_read_bytes or .summary[0].hbm_write_bytes)
 then (.summary[0].hbm_read_bytes // 0 | num) + (.summary[0].hbm_write_bytes // 0 | num)
 elif [.instruction[] | select(.hbm_read_bytes or .hbm_write_bytes)] | length > 0
 then [.instruction[] | select(.timestamp >= $t0 and .timestamp < $t1)
       | (.hbm_read_bytes // 0 | num) + (.hbm_write_bytes // 0 | num)] | add // 0
 else null end) as $hbm |
[.layer_summary[] | select(.tensor_engine_flop_count)] as $layers |
(if $whole and .summary[0].hardware_flops
 then .summary[0].hardware_flops
 else [$layers[] | .name as $n
       | select([$layers[] | select(.name | startswith($n + "/"))] | length == 0)
       | share($t0; $t1)] | add | rnd end) as $flops |
(if .active_time then .active_time | group_by(.engine)
   | map({engine: .[0].engine, ns: (map(clipped($t0; $t1)) | add)})
 else .instruction | group_by(.label)
   | map({engine: .[0].label, ns: (map([.timestamp, .timestamp + .duration]) | union($t0; $t1))})
 end | max_by(.ns)) as $busiest |
([if $dbw then $dma * 1e9 / $dbw else empty end,
  if $hbw and $hbm != null then $hbm * 1e9 / $hbw else empty end] | max | if . then rnd else null end) as $memory |
(if $peak then $flops / $peak | rnd else null end) as $compute |
([["memory", $memory], ["compute", $compute], ["pipeline", $busiest.ns]]
 | map(select(.[1] != null)) | max_by(.[1])) as $bind |
{range_ns: $len, dma_bytes: $dma, hbm_bytes: $hbm, memory_ns: $memory,
 flops: $flops, compute_ns: $compute, engine: $busiest.engine,
 pipeline_ns: $busiest.ns, binding: $bind[0], binding_ns: $bind[1],
 speedup: ($len / $bind[1] * 10000 | rnd)}
EOF

# by_hand FILE T0 [T1]: the hand figures of [T0, T1) (T1 "": the end)
by_hand() {
	jq -S -c --arg t0 "$2" --arg t1 "${3:-}" -f "$tmp/bounds.jq" "$1"
}
# figures FILE: the keys above from nxtop's JSON in FILE
figures() {
	jq -S -c '.bounds | {range_ns, dma_bytes, hbm_bytes, memory_ns, flops,
		compute_ns, engine, pipeline_ns, binding, binding_ns,
		speedup: (.speedup * 10000 | floor + (if . - floor >= 0.5 then 1 else 0 end))}' "$1"
}
# nxtops NAME FILE [RANGE]: the window export's bounds in the keys above
# (speed-up to 4 decimals), in $tmp/NAME.nx; the whole export in NAME.full
nxtops() {
	"$NXTOP" export -q "$2" --what window ${3:+--range "$3"} --format json \
		> "$tmp/$1.full" || fail "export $2 $*"
	figures "$tmp/$1.full" > "$tmp/$1.nx"
}
check() {
	name=$1 file=$2 t0=$3 t1=$4 bind=$5
	by_hand "$file" "$t0" "$t1" > "$tmp/$name.hand"
	nxtops "$name" "$file" ${t1:+"${t0}ns:${t1}ns"}
	[ "$(cat "$tmp/$name.nx")" = "$(cat "$tmp/$name.hand")" ] ||
		fail "$name: nxtop $(cat "$tmp/$name.nx") by hand $(cat "$tmp/$name.hand")"
	[ "$(jq -r .binding "$tmp/$name.hand")" = "$bind" ] ||
		fail "$name: the fixture should make $bind bind"
}

check memory "$tmp/memory.json" 0 "" memory
check memory-range "$tmp/memory.json" 2000 9000 memory
check compute "$tmp/compute.json" 0 "" compute
check compute-range "$tmp/compute.json" 1000 6000 compute
check pipeline "$tmp/pipeline.json" 0 "" pipeline
check pipeline-range "$tmp/pipeline.json" 2000 6500 pipeline

# the inputs are printed with the bounds
[ "$(jq '.bounds | [.dma_bandwidth_bps, .hbm_bandwidth_bps, .pe_rows,
	.pe_cols, .clock_ghz, .peak_flops_per_s, .engine_active_ns]' -c \
	"$tmp/memory.full")" = "[2000000000,1000000000,4,8,1.5,96000000000,3000]" ] ||
	fail "memory: the bounds' inputs are not the metadata's"
[ "$(jq -r .bounds.flops_from "$tmp/compute.full")" = summary ] ||
	fail "compute: the whole profile's FLOPs are not the summary's"
[ "$(jq -r .bounds.flops_from "$tmp/compute-range.full")" = layers ] ||
	fail "compute: a range's FLOPs are not the layers'"
[ "$(jq -r '.bounds | [.hbm_from, .hbm_bytes] | @tsv' "$tmp/compute.full")" = "$(printf 'summary\t2000')" ] ||
	fail "compute: the whole profile's HBM bytes are not the summary's"
[ "$(jq -r .bounds.hbm_from "$tmp/memory-range.full")" = instructions ] ||
	fail "memory: a range's HBM bytes are not the instructions'"

# missing inputs say so, never 0
[ "$(jq -c '.bounds | [.compute_ns, .peak_flops_per_s, .hbm_bandwidth_bps]' \
	"$tmp/pipeline.full")" = "[null,null,null]" ] ||
	fail "pipeline.json: a bound without its inputs is not null"
jq -e '.bounds.compute_missing | test("pe_num_cols")' "$tmp/pipeline.full" \
	>/dev/null || fail "pipeline.json: no word of the missing pe_num_cols"
expect 0 "^  compute +not known: no pe_num_rows, pe_num_cols, pe_clock_freq in metadata$" \
	"$NXTOP" export -q "$tmp/pipeline.json" --what window
cp "$fx/device_small.json" "$tmp/nobandwidth.json"
expect 0 "^  memory +not known: no dma_ddr_bandwidth or hbm_ddr_bandwidth in metadata$" \
	"$NXTOP" export -q "$tmp/nobandwidth.json" --what window

# text: each bound with its numbers, the binding one and the speed-up
speedup=$(awk 'BEGIN { printf "%.2f", 9999 / 9000 }')
expect 0 "^  memory +9 µs +DMA 18000 B at 2 GB/s; HBM 3500 B at 1 GB/s$" \
	"$NXTOP" export -q "$tmp/memory.json" --what window
expect 0 "^  compute +1.5 µs +144000 FLOPs \(layers\) at 0.096 TFLOP/s \(4x8, 1.5 GHz\)$" \
	"$NXTOP" export -q "$tmp/memory.json" --what window
expect 0 "^  pipeline +3 µs +vector active 3 µs, the busiest engine$" \
	"$NXTOP" export -q "$tmp/memory.json" --what window
expect 0 "^  binding +memory: 9 µs of 9.999 µs, speed-up left ${speedup}x$" \
	"$NXTOP" export -q "$tmp/memory.json" --what window

# CSV rows of kind "bounds" hold the JSON's figures under its keys
csv_figures() {
	tr -d '\r' | sed -n 's/^,bounds,\([^,]*\),\(.*\),\{12\}$/\1=\2/p' | sed 's/="\(.*\)"$/=\1/'
}
for name in memory-range compute pipeline; do
	case $name in
	memory-range) f=memory.json r="2000ns:9000ns" ;;
	*) f=$name.json r="" ;;
	esac
	"$NXTOP" export -q "$tmp/$f" --what window ${r:+--range "$r"} --format csv |
		csv_figures > "$tmp/$name.csv"
	jq -r '.bounds | del(.available) | to_entries[] | "\(.key)=\(.value // "")"' \
		"$tmp/$name.full" > "$tmp/$name.jfig"
	awk -F= 'NR == FNR { want[$1] = $2; n++; next }
		{ got = $2; w = want[$1]; seen++
		  if (got == w) next
		  if (got + 0 == got && w + 0 == w && (got - w) ^ 2 <= 1e-20 * w * w) next
		  print "CSV " $1 "=" got ", JSON " w; bad = 1 }
		END { if (seen != n) { print "CSV has " seen " figures, JSON " n; bad = 1 }
		      exit bad }' "$tmp/$name.jfig" "$tmp/$name.csv" ||
		fail "$name: the CSV's bounds are not the JSON's"
done

# a box selection of one row has the bounds of its whole time range
"$NXTOP" export -q "$tmp/memory.json" --what selection --tracks Tensor \
	--range 2000ns:9000ns --format json > "$tmp/box.json" || fail "selection export"
[ "$(jq -S -c .bounds "$tmp/box.json")" = "$(jq -S -c .bounds "$tmp/memory-range.full")" ] ||
	fail "a selection's bounds depend on its rows"

# nxtop analyze: the same bounds, whole and --range, text and JSON
for r in "" "1000ns:6000ns"; do
	"$NXTOP" analyze -q "$tmp/compute.json" ${r:+--range "$r"} --format json \
		> "$tmp/an.json" || fail "analyze $r"
	"$NXTOP" export -q "$tmp/compute.json" --what window ${r:+--range "$r"} \
		--format json > "$tmp/win.json" || fail "export $r"
	[ "$(jq -S -c .bounds "$tmp/an.json")" = "$(jq -S -c .bounds "$tmp/win.json")" ] ||
		fail "analyze ${r:-whole}: its bounds are not the window's"
done
expect 0 "^  binding +compute: 4.25 µs of 5 µs, speed-up left $(awk 'BEGIN { printf "%.2f", 5000 / 4250 }')x$" \
	"$NXTOP" analyze -q "$tmp/compute.json" --range 1000ns:6000ns

# --between: markers set in the viewer at 2 us and 9 us are the range
printf 'keys :goto 2us<Enter>m:goto 9us<Enter>m\n' > "$tmp/marks.keys"
"$NXTOP" --headless "$tmp/marks.keys" "$tmp/memory.json" >/dev/null 2>&1 ||
	fail "the viewer did not set the markers"
"$NXTOP" analyze -q "$tmp/memory.json" --between M2,M1 --format json \
	> "$tmp/between.full" || fail "analyze --between"
figures "$tmp/between.full" > "$tmp/between.nx"
[ "$(cat "$tmp/between.nx")" = "$(by_hand "$tmp/memory.json" 2000 9000)" ] ||
	fail "--between M2,M1: $(cat "$tmp/between.nx"), by hand $(by_hand "$tmp/memory.json" 2000 9000)"

# no device metadata: one line, no crash, exit 0
for f in system_small.json chrome_flows.json device_inject.json; do
	cp "$fx/$f" "$tmp/$f"
	expect 0 "^Bounds +not available: " "$NXTOP" analyze -q "$tmp/$f"
	[ "$(grep -c '^Bounds' "$out")" = 1 ] || fail "$f: more than one Bounds line"
	"$NXTOP" export -q "$tmp/$f" --what window --format json > "$tmp/na.json" ||
		fail "export $f"
	[ "$(jq -c '.bounds | [.available, (.note | test("^not available: "))]' "$tmp/na.json")" = "[false,true]" ] ||
		fail "$f: JSON bounds not marked unavailable"
done

# DMA bytes of a profile whose DMA rows have size aggregates (read for
# the buckets whole inside a range, the edges from the events): the same
# as sqlite3 summing the DMA slices' sizes, whole and cut ranges
if have sqlite3; then
	"$NXTOP" demo --events 3000 --seed 3 --write "$tmp/agg.json" >/dev/null 2>&1 ||
		fail "demo"
	"$NXTOP" import -q "$tmp/agg.json" || fail "import the demo"
	[ "$(sqlite3 "$tmp/agg.json.nxdb" "SELECT count(*) FROM track WHERE
		kind = 'dma' AND agg_fields & 8 AND n_events > 100")" -gt 0 ] ||
		fail "the demo's DMA rows have no size aggregates"
	for r in "" 1234ns:151515ns 50us:60us; do
		"$NXTOP" export -q "$tmp/agg.json" --what window ${r:+--range "$r"} \
			--format json > "$tmp/agg.out" || fail "export $r"
		t0=$(jq .start_ns "$tmp/agg.out"); t1=$(jq .end_ns "$tmp/agg.out")
		want=$(sqlite3 "$tmp/agg.json.nxdb" "SELECT CAST(total(s.size) AS INTEGER)
			FROM slice s JOIN track t ON t.id = s.track_id JOIN profile p ON
			p.id = t.profile_id WHERE t.kind = 'dma' AND
			s.ts >= p.start_ns + $t0 AND s.ts < p.start_ns + $t1")
		[ "$(jq .bounds.dma_bytes "$tmp/agg.out")" = "$want" ] ||
			fail "DMA bytes of ${r:-the whole profile}: $(jq .bounds.dma_bytes "$tmp/agg.out"), sqlite3 $want"
	done
fi

pass
