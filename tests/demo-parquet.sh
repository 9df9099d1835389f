#!/bin/sh
# nxtop demo --format parquet: the layout of Neuron Explorer's folders,
# split tables, and the same figures as the JSON demo of the same seed
# (DuckDB reads the tables, jq the JSON); option errors; a failed write
# leaves nothing behind.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
export XDG_DATA_HOME="$tmp/data"
opts="--events 2000 --system-events 300 --seed 5"
dev1=i-0a1b2c3d4e5f6a7b0_pid_2000_nc_0_model_1578576049
dev2=i-0a1b2c3d4e5f6a7b0_pid_2000_nc_2_model_446048307616134

expect 0 "" "$NXTOP" demo $opts --write "$tmp/json"
expect 0 "" "$NXTOP" demo $opts --format parquet --table-rows 600 --write "$tmp/pq"

# The layout, by hand: Instruction and DmaPacket exceed 600 rows.
for d in $dev1 $dev2; do
	for t in ActiveTime DmaPacketAggregated DmaPacket_0 DmaPacket_1 \
		DmaQueuesInfo DmaUsage Flow HbmUsageSummaryByType Instruction_0 \
		Instruction_1 Metadata NeffHeader PendingDma PsumUsage \
		SbufUsage SchemaFields SemaphoreUpdate Summary TensorInfo \
		Throttle Warning; do
		echo "$d@latest/$t.parquet"
	done
done >"$tmp/want"
for t in CpuUsage DeviceProfileList HostMemUsage SystemProfileEvents \
	SystemProfileHbmUsage SystemProfileMetadata; do
	echo "system_profile@latest/$t.parquet"
done >>"$tmp/want"
(cd "$tmp/pq" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/got"
LC_ALL=C sort "$tmp/want" | cmp -s - "$tmp/got" ||
	fail "layout differs: $(LC_ALL=C sort "$tmp/want" | diff - "$tmp/got")"
# the same options write the same tables
"$NXTOP" demo $opts --format parquet --table-rows 600 --write "$tmp/pq2" ||
	fail "second write"
for f in $(cat "$tmp/got"); do
	cmp -s "$tmp/pq/$f" "$tmp/pq2/$f" || fail "$f differs between runs"
done

# Option errors, and writes that fail: one line, nothing left.
expect 2 "--format takes json or parquet, not 'xml'" "$NXTOP" demo --format xml
expect 2 "--table-rows takes a number" "$NXTOP" demo --table-rows 0
expect 2 "--format parquet writes a folder, not '$tmp/x.json'" \
	"$NXTOP" demo --format parquet --write "$tmp/x.json"
no_file "$tmp/x.json"
: >"$tmp/file"
expect 1 "^nxtop: $tmp/file/sub/x: Not a directory$" "$NXTOP" demo $opts --format parquet --write "$tmp/file/sub/x"
[ "$(wc -l <"$err")" -eq 1 ] || fail "more than one line: $(cat "$err")"
mkdir "$tmp/half"
: >"$tmp/half/system_profile@latest"
expect 1 "system_profile@latest" "$NXTOP" demo $opts --format parquet --write "$tmp/half"
[ -z "$(find "$tmp/half" -name '*.parquet' -o -name '*@latest' -type d)" ] ||
	fail "a failed write left: $(find "$tmp/half")"

mods="$srcdir/tests/parquet/node_modules"
if ! command -v node >/dev/null 2>&1 || [ ! -d "$mods/@duckdb/node-api" ] ||
	! command -v jq >/dev/null 2>&1; then
	[ "$failures" -eq 0 ] || exit 1
	msg="SKIPPED: reading the Parquet demo with DuckDB needs jq, node and"
	msg="$msg its npm packages: (cd tests/parquet && npm ci)"
	echo "$msg"
	echo "$msg" >&2
	exit 77
fi

# figures KEY SQL JQ FILE: DuckDB's answer to SQL equals jq's to JQ.
figures() {
	printf '%s\n' "$2" >>"$tmp/sql"
	jq -r "$3" "$4" >>"$tmp/jq" || fail "jq $1"
	echo "$1" >>"$tmp/keys"
}
: >"$tmp/sql"
: >"$tmp/jq"
: >"$tmp/keys"
for d in $dev1 $dev2; do
	p="'$tmp/pq/$d@latest"
	j="$tmp/json/$d.json"
	figures "$d instructions" \
		"select count(*), sum(duration_ns), sum(evt_wait_time_ns), sum(hbm_read_bytes) from read_parquet($p/Instruction_*.parquet')" \
		'.instruction | "\(length)\t\(map(.duration) | add)\t\(map(.evt_wait_time) | add)\t\(map(.hbm_read_bytes // 0) | add)"' "$j"
	figures "$d flows" \
		"select count(*), count(distinct in_id) from read_parquet($p/Flow.parquet')" \
		'[.instruction[] | select(.predecessors) | {id: (.id | tostring), n: (.predecessors | length)} | select(.n > 0)] | "\(map(.n) | add)\t\(map(.id) | unique | length)"' "$j"
	figures "$d packets" \
		"select count(*), sum(transfer_bytes), sum(duration_ns) from read_parquet($p/DmaPacket_*.parquet')" \
		'[.dma[] | select(.aggregated == "no")] | "\(length)\t\(map(.transfer_size) | add)\t\(map(.duration) | add)"' "$j"
	figures "$d transfers" \
		"select count(*), sum(transfer_bytes), sum(trigger) from read_parquet($p/DmaPacketAggregated.parquet')" \
		'[.dma[] | select(.aggregated == "yes")] | "\(length)\t\(map(.transfer_size) | add)\t\(map(.trigger) | add)"' "$j"
	figures "$d active time" \
		"select count(*), sum(duration_ns) from read_parquet($p/ActiveTime.parquet')" \
		'.active_time | "\(length)\t\(map(.duration_ns) | add)"' "$j"
	figures "$d semaphores" \
		"select count(*), sum(value) from read_parquet($p/SemaphoreUpdate.parquet')" \
		'.semaphore_update | "\(length)\t\(map(.value) | add)"' "$j"
	figures "$d summary" \
		"select event_count, trace_count, hbm_read_bytes, static_dma_size from read_parquet($p/Summary.parquet')" \
		'.summary[0] | "\(.event_count)\t\(.trace_count)\t\(.hbm_read_bytes)\t\(.static_dma_size)"' "$j"
	figures "$d metadata" \
		"select last_hw_timestamp, last_ts, profile_schema_version from read_parquet($p/Metadata.parquet')" \
		'.metadata[0] | "\(.last_hw_timestamp)\t\(.last_ts)\t7.4.0"' "$j"
	figures "$d counters" \
		"select (select count(*) || ' ' || sum(transfer_rate) from read_parquet($p/DmaUsage.parquet')), (select count(*) || ' ' || sum(value) from read_parquet($p/PendingDma.parquet')), (select count(*) from read_parquet($p/SbufUsage.parquet')), (select sum(bank_0_usage + bank_7_usage)::BIGINT from read_parquet($p/PsumUsage.parquet')), (select count(*) || ' ' || sum(k) || ' ' || sum(duration) from read_parquet($p/Throttle.parquet'))" \
		'"\(.dma_throughput | length) \(.dma_throughput | map(.transfer_rate) | add)\t\(.pending_dma | length) \(.pending_dma | map(.value) | add)\t\([.instruction_usage[] | select(.type == "sb")] | length)\t\([.instruction_usage[] | select(.type == "psum") | .bank_0_usage + .bank_7_usage] | add)\t\(.ham | length) \(.ham | map(.k) | add) \(.ham | map(.duration) | add)"' "$j"
	figures "$d NEFF" \
		"select (select hash || ' ' || data_size from read_parquet($p/NeffHeader.parquet')), (select count(*) || ' ' || sum(size::BIGINT) || ' ' || sum(load_to_sbuf_total_size_bytes) from read_parquet($p/TensorInfo.parquet')), (select amount_bytes from read_parquet($p/HbmUsageSummaryByType.parquet') where usage_type = 'Total')" \
		'"\(.neff_header[0].hash) \(.neff_header[0].data_size)\t\(.neff_node | length) \(.neff_node | map(.size | tonumber) | add) \(.neff_node | map(.load_to_sbuf_total_size_bytes // 0) | add)\t\(.nc_mem_usage[] | select(.usage_type == "Total") | .amount_bytes)"' "$j"
	figures "$d warnings" \
		"select count(*) from read_parquet($p/Warning.parquet')" \
		'.warnings | length' "$j"
done
p="'$tmp/pq/system_profile@latest"
j="$tmp/json/system_profile.json"
figures "system events" \
	"select count(*), sum(duration_ns), count(nc_idx) from read_parquet($p/SystemProfileEvents.parquet')" \
	'.trace_event | "\(length)\t\(map(.duration) | add)\t\(map(select(.nc_idx != null)) | length)"' "$j"
figures "system flows" \
	"select count(*), count(distinct flow_id[1]) from read_parquet($p/SystemProfileEvents.parquet') where len(flow_id) = 1 and flow_id[1] = (case when name = 'nrt_execute' then id else json_extract(extra_attributes_json, '\$.parent_id') end)::VARCHAR" \
	'[.trace_event[] | select(.name == "nrt_execute" or .name == "nc_exec_running")] | "\(length)\t\(map(select(.name == "nrt_execute")) | length)"' "$j"
figures "system devices" \
	"select string_agg(device_profile_name, ' ' order by device_profile_name) from read_parquet($p/DeviceProfileList.parquet')" \
	'[.device_profile_list[].device_profile_name] | sort | join(" ")' "$j"
figures "system samples" \
	"select (select count(*) from read_parquet($p/CpuUsage.parquet')), (select sum(used_bytes) from read_parquet($p/HostMemUsage.parquet')), (select sum(total_bytes) from read_parquet($p/SystemProfileHbmUsage.parquet'))" \
	'"\(.cpu_util | length)\t\(.mem_usage | map(.usage) | add)\t\(.device_mem_usage | map(.total_bytes) | add)"' "$j"
figures "system metadata" \
	"select first_ts_ns, last_ts_ns from read_parquet($p/SystemProfileMetadata.parquet')" \
	'.system_profile_metadata[0] | "\(.first_ts_ns)\t\(.last_ts_ns)"' "$j"
if ! node "$srcdir/tests/parquet/query.mjs" <"$tmp/sql" >"$tmp/duck" 2>"$err"; then
	fail "DuckDB: $(cat "$err")"
elif ! cmp -s "$tmp/duck" "$tmp/jq"; then
	paste "$tmp/keys" "$tmp/duck" "$tmp/jq" >&2
	fail "DuckDB's figures of the Parquet demo differ from jq's of the JSON"
fi
# the split: the first file holds --table-rows rows
echo "select count(*) from read_parquet('$tmp/pq/$dev1@latest/Instruction_0.parquet')" |
	node "$srcdir/tests/parquet/query.mjs" >"$out" 2>"$err"
[ "$(cat "$out")" = 600 ] || fail "Instruction_0 holds $(cat "$out") rows, not 600"
# nxtop reads a device folder as it reads its JSON twin: the same events
# and counters, and its own summary agrees with them
"$NXTOP" summary -q "$tmp/pq/$dev1@latest" >"$tmp/s.pq" 2>"$err" ||
	fail "summary of the Parquet device profile: $(cat "$err")"
"$NXTOP" summary -q "$tmp/json/$dev1.json" >"$tmp/s.json" 2>"$err" ||
	fail "summary of the JSON device profile: $(cat "$err")"
grep '^Events' "$tmp/s.json" >"$tmp/e.json"
grep '^Events' "$tmp/s.pq" | cmp -s - "$tmp/e.json" ||
	fail "events differ: $(grep '^Events' "$tmp/s.pq") vs $(cat "$tmp/e.json")"
grep -q "Against the profile's own summary" "$tmp/s.pq" ||
	fail "the Parquet device profile's summary is not checked"
grep -q DIFFERS "$tmp/s.pq" && fail "$(grep DIFFERS "$tmp/s.pq")"
# every device profile the system lists is a sibling folder
for n in $(jq -r '.device_profile_list[].device_profile_name' "$j"); do
	[ -d "$tmp/pq/$n@latest" ] || fail "no folder $n@latest"
done
pass
