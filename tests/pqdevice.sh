#!/bin/sh
# Neuron Explorer device profile folders (Parquet): the folders converted
# from device_small.json and device_screen.json (tests/parquet/device.mjs)
# give the JSON twin's summary and exports; layers are counted from the
# instructions, with each engine's active time, FLOPs, MFU and HFU
# (checked against jq and awk over the JSON twin); split, missing and
# unknown tables (one named like a system profile's key too)
# and columns; a newer schema version; the cache follows the folder's
# files; import -o writes nothing in the folder it reads; bad table
# files fail with one line and leave no cache.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx="$srcdir/tests/fixtures"
cp -R "$fx/parquet-device/." "$tmp/"
chmod -R u+w "$tmp"
# the JSON twins, copied so that their caches are made in the scratch
# folder, not beside the sources
mkdir "$tmp/json"
cp "$fx/device_small.json" "$fx/device_screen.json" "$tmp/json/"
small="$tmp/device_small@latest"
screen="$tmp/device_screen@latest"
split="$tmp/screen_split@latest"

# The summary without what differs by design: the format, the layers
# (a layer_summary in JSON, counted from instructions in Parquet) and
# the import's own notes.
norm_text() {
	sed -e 's/(neuron-json)/(FORMAT)/; s/(neuron-parquet)/(FORMAT)/' \
		-e '/^Schema /d' -e '/^Layers (/,/^$/d' -e '/^Warnings (/d' -e '/\[Import\]/d' -e '/^$/d'
}
norm_json() {
	jq -S 'del(.profile.format, .profile.schema_version, .layers) |
		.warnings |= map(select(.origin != "import"))'
}

for n in small screen; do
	json="$tmp/json/device_$n.json"
	eval "pq=\$$n"
	"$NXTOP" summary -q "$json" | norm_text >"$tmp/j.txt"
	"$NXTOP" summary -q "$pq" | norm_text >"$tmp/p.txt"
	cmp -s "$tmp/j.txt" "$tmp/p.txt" ||
		fail "$n: summary differs: $(diff "$tmp/j.txt" "$tmp/p.txt" | head -5)"
	"$NXTOP" summary -q --format json "$json" | norm_json >"$tmp/j.txt"
	"$NXTOP" summary -q --format json "$pq" | norm_json >"$tmp/p.txt"
	cmp -s "$tmp/j.txt" "$tmp/p.txt" ||
		fail "$n: JSON summary differs: $(diff "$tmp/j.txt" "$tmp/p.txt" | head -5)"
	grep -q '"format": "neuron-parquet"' "$tmp/p.txt" &&
		fail "$n: norm_json kept the format"
	"$NXTOP" summary -q --format json "$pq" | jq -e '.profile.format == "neuron-parquet"' \
		>/dev/null || fail "$n: the format is not neuron-parquet"
done

# Exports: searches (a 64-bit id above 2^63 among them) and selections.
# Slice ids are the cache's own numbering: packets and transfers come
# from one array in JSON, from two tables in Parquet.
no_ids() {
	case " $* " in
	*" json "*) jq -S 'del(.. | .slice_id?)' ;;
	*) cat ;;
	esac
}
same_export() {
	shift
	"$NXTOP" export -q "$tmp/json/device_screen.json" "$@" 2>&1 | no_ids "$@" >"$tmp/j.txt"
	"$NXTOP" export -q "$screen" "$@" 2>&1 | no_ids "$@" >"$tmp/p.txt"
	cmp -s "$tmp/j.txt" "$tmp/p.txt" ||
		fail "export $*: differs: $(diff "$tmp/j.txt" "$tmp/p.txt" | head -5)"
	[ -s "$tmp/p.txt" ] || fail "export $*: empty"
}
same_export "$screen" --what search --query opcode=MATMUL
same_export "$screen" --what search --query 'layer~attention dur>500ns' --format csv
same_export "$screen" --what search --query 'queue_type=data' --format json
same_export "$screen" --range 20us:80us
same_export "$screen" --what selection --format json --range 10us:30us --tracks Tensor,qSyncIO0
grep -q '"count": *[1-9]' "$tmp/p.txt" || fail "the selection export selected nothing"
for q in id=18446744073709551000 id=9223229769545287789; do
	"$NXTOP" export -q "$tmp/json/device_small.json" --what search --query "$q" >"$tmp/j.txt"
	"$NXTOP" export -q "$small" --what search --query "$q" >"$tmp/p.txt"
	grep -q '^Matches  1 ' "$tmp/p.txt" || fail "search $q: $(cat "$tmp/p.txt")"
	cmp -s "$tmp/j.txt" "$tmp/p.txt" || fail "search $q differs from the JSON's"
done

# Documented instruction fields are typed columns, not args: args.KEY
# still finds them (counts by jq) in both formats, the columns sum to
# jq's sums, and only instructions with a field of another kind (or an
# array where an integer is documented) have an arg row.
js="$tmp/json/device_small.json"
for q in crc_in=65535 hbm_read_bytes=32768 raw_hlo_id=3 sbuf_write_bytes=256; do
	k=${q%%=*} v=${q#*=}
	want=$(jq --arg k "$k" --argjson v "$v" '[.instruction[] | select(.[$k] == $v)] | length' "$js")
	[ "$want" -gt 0 ] || fail "args.$q: the fixture has no such instruction"
	for p in "$js" "$small"; do
		"$NXTOP" export -q "$p" --what search --query "args.$q" | grep -q "^Matches  $want " ||
			fail "args.$q in $p: not $want matches"
	done
done
for c in crc_in hbm_read_bytes psum_read_sbuf_write_bytes raw_penguin_id; do
	want=$(jq --arg c "$c" '[.instruction[] | .[$c] // empty] | add' "$js")
	for db in "$js.nxdb" "$small.nxdb"; do
		got=$(sqlite3 "$db" "SELECT sum($c) FROM instruction")
		[ "$got" = "$want" ] || fail "$db: sum($c) $got, jq $want"
	done
done
typed='["activation_fn","bir_id","bir_instruction_name","compiler_opcode",
	"compiler_operands","compiler_pc","duration","evt_wait_time",
	"fully_qualified_subgraph","hlo_name","id","instruction_type","label",
	"layer","opcode","operands","pc","penguin_id","subgroup","timestamp",
	"crc_in","crc_out","hbm_read_bytes","hbm_write_bytes","hlo_attrs",
	"psum_read_bytes","psum_read_sbuf_write_bytes","psum_write_bytes",
	"raw_bir_id","raw_framework_id","raw_hlo_id","raw_penguin_id",
	"sbuf_read_bytes","sbuf_write_bytes","spill_reload_bytes",
	"spill_save_bytes"]'
want=$(jq --argjson t "$typed" '[.instruction[] | select((keys - $t | length) > 0
	or (.raw_framework_id | type) == "array")] | length' "$js")
got=$(sqlite3 "$js.nxdb" "SELECT count(*) FROM arg WHERE slice_id IN (SELECT slice_id FROM instruction)")
[ "$got" = "$want" ] || fail "instructions with args: $got, jq $want"
# values of another kind than documented stay in the args, the others of
# the record are typed
# (the fields added to the first record by sed: jq would round its ids)
sed 's/^{"instruction":\[{/{"instruction":[{"weight_queue_bytes":"x","hbm_read_bytes":1.5,"pcore_idx":[1],"stack_frame_ids":12345678901234567890,"tensor_elements":7,"performance_mode":"4x","dma_wait_time_ns":4321,/' \
	"$js" >"$tmp/json/kinds.json"
cmp -s "$js" "$tmp/json/kinds.json" && fail "kinds.json: sed added nothing"
"$NXTOP" import -q "$tmp/json/kinds.json" || fail "kinds.json: no import"
got=$(sqlite3 "$tmp/json/kinds.json.nxdb" "SELECT json_extract(args, '$.weight_queue_bytes'),
	json_extract(args, '$.hbm_read_bytes'), json_extract(args, '$.pcore_idx[0]'),
	json_type(args, '$.stack_frame_ids'), instr(args, ':12345678901234567890'),
	i.weight_queue_bytes IS NULL, i.tensor_elements, s.str FROM arg a JOIN instruction i
	ON i.slice_id = a.slice_id JOIN string s ON s.id = i.performance_mode")
case "$got" in "x|1.5|1|integer|"[1-9]*"|1|7|4x") ;; *)
	fail "kinds.json: args and columns $got" ;;
esac
# a time column answers args.KEY by the profile's own name for it
"$NXTOP" export -q "$tmp/json/kinds.json" --what search \
	--query 'args.dma_wait_time_ns=4321' | grep -q '^Matches  1 ' ||
	fail "args.dma_wait_time_ns: not the instruction that has it"

# Layers: per layer name, start, instruction count per engine and each
# engine's active time (the union of its instructions in the layer),
# from the JSON twin by jq (engine from subgroup, else label).
layers_jq() {
	jq -r '[.instruction[] | select((.layer // "") != "")
	| {l: .layer, e: ((.subgroup // .label) | ascii_downcase
		| sub("tensormatrix"; "tensor")), s: (.timestamp | tonumber),
		t: ((.timestamp | tonumber) + (.duration | tonumber))}]
	| group_by(.l)[] | . as $g
	| ["tensor", "vector", "scalar", "gpsimd", "sync"] as $e
	| [.[0].l, (map(.s) | min),
		($e[] as $x | $g | map(select(.e == $x)) | length),
		($e[] as $x | $g | map(select(.e == $x)) | sort_by(.s)
		| reduce .[] as $i ({end: null, len: 0};
			if .end == null or $i.s >= .end
			then {end: $i.t, len: (.len + $i.t - $i.s)}
			elif $i.t > .end then {end: $i.t, len: (.len + $i.t - .end)}
			else . end) | .len)] | @csv' "$1" | tr -d '"' | sort
}
layers_got() {
	"$NXTOP" export -q "$1" --what layers --format json |
		jq -r '.layers[] | [.layer, .start_ns, .Tensor, .Vector, .Scalar,
			.GpSimd, .Sync, ."Tensor active", ."Vector active",
			."Scalar active", ."GpSimd active", ."Sync active"] | @csv' |
		tr -d '"' | sort
}
layers_jq "$fx/device_screen.json" >"$tmp/want.txt"
layers_got "$screen" >"$tmp/got.txt"
[ "$(wc -l <"$tmp/want.txt")" -eq 4 ] || fail "jq found $(wc -l <"$tmp/want.txt") layers, not 4"
cmp -s "$tmp/want.txt" "$tmp/got.txt" ||
	fail "layers differ from jq's: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -5)"
# the same over split parts, some in lower case, from another writer
layers_got "$split" >"$tmp/got.txt"
cmp -s "$tmp/want.txt" "$tmp/got.txt" ||
	fail "split: layers differ from jq's: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -5)"
# the JSON's own layer_summary gives _dot.3 the same tensor active time
n=$(jq '.layer_summary[] | select(.name == "/sg00/_dot.3") | .tensor_engine_active_time' \
	"$fx/device_small.json")
layers_jq "$fx/device_small.json" | grep -q "^_dot.3,[0-9,]*,$n,[0-9]*,[0-9]*,[0-9]*,[0-9]*\$" ||
	fail "jq's tensor active time of _dot.3 is not the layer_summary's $n"
layers_jq "$fx/device_small.json" >"$tmp/want.txt"
layers_got "$small" >"$tmp/got.txt"
cmp -s "$tmp/want.txt" "$tmp/got.txt" ||
	fail "small: layers differ from jq's: $(diff "$tmp/want.txt" "$tmp/got.txt" | head -5)"

# Where the JSON's layer_summary defines them the same way (its _dot.3
# row: span, tensor instructions and active time), the export agrees.
pick='.layers[] | select(.layer | test("(^|/)_dot\\.3$")) | [.start_ns, .duration_ns, .Tensor, ."Tensor active"] | @csv'
j=$("$NXTOP" export -q "$tmp/json/device_small.json" --what layers --format json | jq -r "$pick")
p=$("$NXTOP" export -q "$small" --what layers --format json | jq -r "$pick")
[ "$j" = "3332,1866063,2,207" ] && [ "$p" = "$j" ] ||
	fail "_dot.3: JSON's layer_summary gives '$j', Parquet '$p'"

# An active time nobody gave is empty (null in JSON), not 0 (the JSON's /sg00 row has
# none; nor has a layer counted from rows too far out of order).
jq -e '.layer_summary[] | select(.name == "/sg00") | has("tensor_engine_active_time") | not' \
	"$fx/device_small.json" >/dev/null || fail "/sg00 of device_small.json has an active time"
"$NXTOP" export -q "$tmp/json/device_small.json" --what layers --format json |
	jq -e '.layers[] | select(.layer == "/sg00") | ."Tensor active" == null' >/dev/null ||
	fail "an absent active time is not empty"

# MFU and HFU: FLOPs over the layer's span at the tensor engine's peak
# (2 x 128 x 128 per cycle at 2.8 GHz, from Metadata). small_flops's
# FLOPs follow the rule in tests/parquet/device.mjs, redone here by jq
# over the JSON twin; _add.7 has FLOPs without flops_transpose, so no
# model FLOPs and no MFU.
jq -r '[.instruction[] | select((.layer // "") != "")
	| (.duration | tonumber) as $d
	| {l: .layer, s: (.timestamp | tonumber), t: ((.timestamp | tonumber) + $d),
	   raw: (if .subgroup == "Tensor" then 32768 * $d
		elif .subgroup == "Vector" and (.timestamp | tonumber) == 6000 then 100
		else 0 end),
	   tr: (if .subgroup == "Tensor" and .label == "Tensor" then 16384 * $d
		elif .subgroup == "Vector" and (.timestamp | tonumber) == 6000 then null
		else 0 end)}]
	| group_by(.l)[] | [.[0].l, (map(.t) | max) - (map(.s) | min),
		(map(.raw) | add),
		(if any(.tr == null) then "" else (map(.raw - .tr) | add) end)] | @tsv' \
	"$fx/device_small.json" | sort >"$tmp/flops.txt"
cp -R "$fx/parquet-device/small_flops@latest" "$tmp/"
flops="$tmp/small_flops@latest"
"$NXTOP" export -q "$flops" --what layers --format json >"$tmp/l.json" ||
	fail "small_flops: layers export failed"
jq -r '.layers[] | [.layer, .duration_ns, .flops, .mfu] | @tsv' "$tmp/l.json" |
	sort >"$tmp/got.txt"
sqlite3 -separator '	' "$flops.nxdb" "SELECT name, coalesce(hfu, '') FROM layer" |
	sort >"$tmp/hfu.txt"
[ "$(wc -l <"$tmp/flops.txt")" -eq 2 ] || fail "jq found $(wc -l <"$tmp/flops.txt") layers, not 2"
join -t '	' "$tmp/flops.txt" "$tmp/got.txt" | join -t '	' - "$tmp/hfu.txt" | awk -F'\t' '
	function off(got, want) { d = got - want; if (d < 0) d = -d; return d > 1e-9 * want }
	{ peak = 2 * 128 * 128 * 2.8; n++ }
	$2 != $5 || $3 != $6 { print "flops or span of " $1 ": " $0; bad = 1 }
	$4 == "" && $7 != "" { print "MFU of " $1 " without model FLOPs: " $7; bad = 1 }
	$4 != "" && off($7, $4 / ($2 * peak)) { print "MFU of " $1 ": " $7; bad = 1 }
	off($8, $3 / ($2 * peak)) { print "HFU of " $1 ": " $8; bad = 1 }
	END { exit bad || n != 2 }' >"$tmp/bad.txt" ||
	fail "small_flops: $(cat "$tmp/bad.txt") (jq: $(cat "$tmp/flops.txt"))"
# without the tensor engine's size in Metadata, no MFU
jq -e '[.layers[] | .mfu] | all(. == null)' \
	"$tmp/l.json" >/dev/null && fail "small_flops: no MFU at all"
"$NXTOP" export -q "$small" --what layers --format json |
	jq -e '[.layers[] | .mfu] | all(. == null)' >/dev/null ||
	fail "small: an MFU without pe_num_cols in Metadata"

# The viewer shows the same timeline and details (screen tests check
# that it shows these expected screens).
for d in next details; do
	cmp -s "$srcdir/tests/screens/details/$d" "$srcdir/tests/screens/pqdevice/$d" ||
		fail "screen $d of the Parquet folder differs from the JSON's"
done

# Split tables (Instruction_0/_1, DmaPacket_0.._2, beside
# DmaPacketAggregated), written by hyparquet-writer: counts by jq.
"$NXTOP" summary -q "$split" >"$out" 2>"$err" || fail "split: $(cat "$err")"
want=$(jq -r '"\(.instruction | length) instructions, \([.dma[] | select(.aggregated != "yes")] | length) DMA packets, \([.dma[] | select(.aggregated == "yes")] | length) DMA transfers, \(([.dma_throughput[] | (has("transfer_rate") | if . then 1 else 0 end) + (has("hbm_transfer_rate") | if . then 1 else 0 end)] | add) + (.pending_dma | length)) counter samples"' "$fx/device_screen.json")
grep -q "^Events       $want\$" "$out" || fail "split: wanted '$want' in: $(grep Events "$out")"
# (its second Instruction part has int32 times, where int64 is documented)
if [ -x "$builddir/tests/pqdump" ]; then
	"$builddir/tests/pqdump" -s "$split/Instruction_1.parquet" |
		grep -q '^column duration_ns INT32 ' || fail "split: no int32 duration_ns"
fi
# SbufUsage and PsumUsage are missing there: no such counter rows.
grep -q 'SBUF usage' "$out" && fail "split: an SBUF usage row without its table"
# a column and a table nxtop does not know are listed; a newer schema
# version is one warning line
expect 0 'Instruction_1.parquet: columns nxtop does not know, kept with each row: future_field$' \
	"$NXTOP" summary -q "$split"
expect 0 'unrecognised table "FutureTable": 2 record\(s\) kept in the info table "FutureTable"' \
	"$NXTOP" summary -q "$split"
expect 0 '"profile schema version 13.0.0 is newer than the 12.x nxtop knows' \
	"$NXTOP" summary -q --format json "$split"
[ "$(grep -c 'schema version' "$out")" -eq 1 ] || fail "the schema warning is not one line"
"$NXTOP" summary -q "$small" | grep -q 'schema version' && fail "12.0.1 warned as newer"
expect 0 '^== FutureTable' "$NXTOP" export -q "$split" --what info --section FutureTable
# of a long one, the first 10000 rows
expect 0 'table "FutureLog": only its first 10000 rows are kept in its info table' \
	"$NXTOP" summary -q "$split"
n=$(sqlite3 "$split.nxdb" "SELECT count(*), max(idx) FROM info WHERE section = 'FutureLog'")
[ "$n" = "10000|9999" ] || fail "FutureLog: $n info rows (count|max idx), not 10000|9999"
# the unknown column is kept with the rows of the part that has it
n=$(sqlite3 "$split.nxdb" "SELECT count(*) FROM arg WHERE args LIKE '%\"future_field\":\"f%'")
[ "$n" -eq 600 ] || fail "future_field kept with $n rows, not 600"
# The same instructions as the JSON twin's, over the parts.
"$NXTOP" export -q "$tmp/json/device_screen.json" --what search --query 'engine=Sync' >"$tmp/j.txt"
"$NXTOP" export -q "$split" --what search --query 'engine=Sync' >"$tmp/p.txt"
cmp -s "$tmp/j.txt" "$tmp/p.txt" || fail "split: Sync instructions differ from the JSON's"
# The schema version is in the summary and the profile's info.
expect 0 '^Schema       13\.0\.0$' "$NXTOP" summary -q "$split"
expect 0 '"schema_version": "12\.0\.1"' "$NXTOP" summary -q --format json "$small"
have jq && summary_csv_same "$small"
expect 0 '' "$NXTOP" summary -q "$tmp/json/device_small.json"
grep -q '^Schema' "$out" && fail "a JSON profile has a schema line"
expect 0 'profile_schema_version +13\.0\.0' "$NXTOP" export -q "$split" --what info --section metadata

# Only an Instruction table: no DMA, no counters, no active time.
mkdir "$tmp/only"
cp "$small/Instruction.parquet" "$tmp/only/"
expect 0 '^Events       8 instructions, 0 DMA packets, 0 DMA transfers, 0 counter samples$' \
	"$NXTOP" summary -q "$tmp/only"
expect 0 '^  Tensor             2      285 ns            -         -$' "$NXTOP" summary -q "$tmp/only"
# SchemaFields descriptions are the Summary keys' terminology.
expect 0 'total_time .*Total duration of on device time' \
	"$NXTOP" export -q "$small" --what info --section summary
# Every SchemaFields entry is in the terminology as Table.field:
# description [unit], one line each (the table's rows counted by jq's
# twin, the cache's SchemaFields info rows).
expect 0 '^  Instruction\.start_ts +Start of the instruction \[ns\]$' \
	"$NXTOP" export -q "$split" --what info --section terminology
grep -q '^  DmaPacket\.throughput  *Bytes per second of the packet \[B/s\]$' "$out" ||
	fail "terminology: no DmaPacket.throughput [B/s]: $(cat "$out")"
grep -q '^  Instruction\.opcode  *Hardware opcode of the instruction$' "$out" ||
	fail "terminology: a field without unit: $(cat "$out")"
n=$(sqlite3 "$split.nxdb" "SELECT count(DISTINCT idx) FROM info WHERE section = 'SchemaFields'")
[ "$(grep -c '^  [A-Za-z]*\.[a-z_]* ' "$out")" -eq "$n" ] ||
	fail "terminology: not one line per SchemaFields entry ($n): $(cat "$out")"
# the details pane's units and descriptions are found by the name it
# shows (duration_ns as duration); they make no info panel of their own
n=$(sqlite3 "$split.nxdb" "SELECT value FROM info WHERE section = 'field_unit' AND key = 'instruction.duration'")
[ "$n" = ns ] || fail "field_unit of instruction.duration: '$n', not ns"
n=$(sqlite3 "$split.nxdb" "SELECT value FROM info WHERE section = 'field_description' AND key = 'dma_packet.subgroup'")
[ "$n" = "DMA queue of the packet" ] || fail "field_description of dma_packet.subgroup: '$n'"
expect 0 '' "$NXTOP" export -q "$split" --what info
grep -q 'field_unit\|field_description' "$out" && fail "the field docs show as info panels"

# The cache follows the folder's files: a new part, a changed file.
cp "$small/DmaPacket.parquet" "$tmp/dma1.parquet"
expect 0 '2 DMA packets' "$NXTOP" summary "$small"
cp "$tmp/dma1.parquet" "$small/DmaPacket_1.parquet"
expect 0 'rebuilding .*device_small@latest\.nxdb \(.*device_small@latest changed\)' \
	"$NXTOP" summary "$small"
grep -q '4 DMA packets' "$out" || fail "a new part was not imported: $(grep Events "$out")"
cp "$split/DmaPacket_0.parquet" "$small/DmaPacket_1.parquet"
expect 0 'rebuilding .*DmaPacket_1\.parquet changed' "$NXTOP" summary "$small"
rm "$small/DmaPacket_1.parquet"
expect 0 'rebuilding' "$NXTOP" summary "$small"
expect 0 '' "$NXTOP" summary "$small"
grep -q rebuilding "$err" && fail "a fresh cache was rebuilt: $(cat "$err")"

# Bad table files: one line naming the folder and the file, exit 1, no
# cache, no temporary file.
bad() {
	rm -rf "$tmp/bad" "$tmp/bad.nxdb"
	cp -R "$small" "$tmp/bad"
	rm -f "$tmp/bad.nxdb"
}
check_bad() {
	expect 1 "$1" "$NXTOP" summary -q "$tmp/bad"
	[ "$(wc -l <"$err")" -eq 1 ] || fail "not one line: $(cat "$err")"
	no_file "$tmp/bad.nxdb"
	no_temps "$tmp" "$1"
}
bad
head -c 300 "$small/Instruction.parquet" >"$tmp/bad/Instruction.parquet"
check_bad "^nxtop: $tmp/bad/Instruction.parquet: not a Parquet file \(no PAR1 at its end\)$"
bad
printf 'JUNK' | dd of="$tmp/bad/Instruction.parquet" conv=notrunc 2>/dev/null
check_bad "^nxtop: $tmp/bad/Instruction.parquet: .*PAR1"
bad
cp "$small/Warning.parquet" "$tmp/bad/Instruction.parquet"
check_bad "^nxtop: $tmp/bad/Instruction.parquet: no column \"start_ts\" \(the Instruction table needs it\)$"
expect 1 "^nxtop: $tmp/bad/Instruction.parquet: no column" "$NXTOP" summary -q "$tmp/bad/"
# an optional table that cannot be read is a warning
bad
cp "$small/Warning.parquet" "$tmp/bad/DmaPacket.parquet"
expect 0 "\[Import\] $tmp/bad/DmaPacket.parquet: no column \"start_ts\" .*\(the DmaPacket table is left out\)" \
	"$NXTOP" summary -q "$tmp/bad"
bad
head -c 200 "$small/ActiveTime.parquet" >"$tmp/bad/ActiveTime.parquet"
expect 0 "\[Import\] $tmp/bad/ActiveTime.parquet: not a Parquet file .*\(the ActiveTime table is left out\)" \
	"$NXTOP" summary -q "$tmp/bad"
# a table named like a system profile's JSON key does not make the
# device profile a system profile: it is left out, the warning naming
# the table that settled the kind as the folder has it, not its JSON key
bad
cp "$small/Warning.parquet" "$tmp/bad/trace_event.parquet"
expect 0 '^Kind         device \(neuron-parquet\)$' "$NXTOP" summary -q "$tmp/bad"
expect 0 "\[Import\] $tmp/bad/trace_event.parquet: row 0: expected a device profile's tables after \"Instruction\", found a system profile's table \(the trace_event table is left out\)\$" \
	"$NXTOP" summary -q "$tmp/bad"
# a table file that is a link, a FIFO or a folder is not read, and said
# so: a warning for an optional table, the error for Instruction (before,
# a table left out silently, and a linked Instruction.parquet made the
# folder "a folder with nothing nxtop reads")
bad
mv "$tmp/bad/DmaPacket.parquet" "$tmp/DmaPacket.real"
ln -s "$tmp/DmaPacket.real" "$tmp/bad/DmaPacket.parquet"
rm "$tmp/bad/ActiveTime.parquet"
mkfifo "$tmp/bad/ActiveTime.parquet"
mkdir "$tmp/bad/Summary_1.parquet"
expect 0 "^Events       8 instructions, 0 DMA packets, " "$NXTOP" summary -q "$tmp/bad"
for w in "DmaPacket.parquet: a link" "ActiveTime.parquet: not a regular file" \
	"Summary_1.parquet: a folder"; do
	grep -q "\[Import\] $tmp/bad/$w, left out: nxtop reads only the regular files of a profile folder$" "$out" ||
		fail "no warning '$w': $(grep Import "$out")"
done
bad
mv "$tmp/bad/Instruction.parquet" "$tmp/bad/inst"
ln -s inst "$tmp/bad/Instruction.parquet"
check_bad "^nxtop: $tmp/bad/Instruction.parquet: a link: nxtop reads only the regular files of a profile folder$"
# a table file rewritten in place while it is read (the folder's own
# time does not change): refused, nothing kept, as a changed JSON file is
"$NXTOP" demo --events 20000 --format parquet --write "$tmp/demo" >/dev/null 2>&1 ||
	fail "demo --format parquet failed"
touched=$(ls -d "$tmp/demo/"*_nc_0_*@latest)
(while :; do touch "$touched/Instruction.parquet"; done) &
toucher=$!
expect 1 "^nxtop: $touched/Instruction.parquet: the file changed while it was read \(is it still being written\?\); nothing was kept$" \
	"$NXTOP" import -q "$touched"
kill "$toucher"
wait "$toucher" 2>/dev/null
no_file "$touched.nxdb"
no_temps "$tmp/demo" "a table changed while it was read"
expect 0 "" "$NXTOP" import -q "$touched"
# a folder that is not a device profile and has no system profile
mkdir "$tmp/noinst"
cp "$small/ActiveTime.parquet" "$tmp/noinst/"
expect 1 "noinst: a folder with nothing nxtop reads .*a device profile folder with Instruction.parquet" "$NXTOP" summary -q "$tmp/noinst"
# a table file alone is not a profile
expect 1 "Instruction.parquet: one table of a Parquet profile: open the folder that holds it" \
	"$NXTOP" summary -q "$small/Instruction.parquet"
# nxtop's own files in the folder (exports) do not make the cache stale
expect 0 '' "$NXTOP" summary "$screen"
echo x >"$screen/nxtop-layers-1.txt"
expect 0 '' "$NXTOP" summary "$screen"
grep -q rebuilding "$err" && fail "an export in the folder made the cache stale"
# import -o writes the cache where it says and nothing in the folder it
# reads, nor beside it; a cache named inside the folder is no table of
# it; without -o the cache goes beside the folder, as for nxtop FOLDER
mkdir "$tmp/out"
cp -R "$small" "$tmp/own"
rm -f "$tmp/own/"*.nxdb
files=$(ls -A "$tmp/own") mtime=$(stat -c %y "$tmp/own")
expect 0 "^nxtop: cache $tmp/out/own\.nxdb$" \
	"$NXTOP" import -o "$tmp/out/own.nxdb" "$tmp/own"
# not even a file made there and gone: the folder is unmodified
[ "$(ls -A "$tmp/own")" = "$files" ] && [ "$(stat -c %y "$tmp/own")" = "$mtime" ] ||
	fail "import -o wrote in the folder it read: $(ls -A "$tmp/own")"
no_file "$tmp/own.nxdb"
no_temps "$tmp/out" "import -o"
expect 0 '^Kind         device \(neuron-parquet\)$' \
	"$NXTOP" summary -q "$tmp/out/own.nxdb"
expect 0 "^nxtop: cache $tmp/own/in\.nxdb$" \
	"$NXTOP" import -o "$tmp/own/in.nxdb" "$tmp/own"
no_temps "$tmp/own" "import -o inside the folder"
expect 0 "^nxtop: cache $tmp/own\.nxdb$" "$NXTOP" import "$tmp/own"
expect 0 '^Events       8 instructions' "$NXTOP" summary "$tmp/own"
grep -q rebuilding "$err" && fail "a cache in the folder made its cache stale"
# NAME_<digits> is a part; DmaPacketAggregated is not a part of DmaPacket
mkdir "$tmp/names"
cp "$small/Instruction.parquet" "$tmp/names/Instruction_7.parquet"
cp "$small/DmaPacketAggregated.parquet" "$tmp/names/"
expect 0 '^Events       8 instructions, 0 DMA packets, 1 DMA transfer, 0 counter samples$' \
	"$NXTOP" summary -q "$tmp/names"
pass
