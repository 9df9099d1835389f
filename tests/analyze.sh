#!/bin/sh
# nxtop analyze: each rule fires on a fixture made to trip it, stays
# quiet on one that does not, and its threshold holds at the edge
# (--set); figures are computed here with awk and jq, not by nxtop.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch
fx="$srcdir/tests/fixtures"
small="$fx/device_small.json"
cp "$small" "$tmp/plain.json"

# The small device profile with summary figures added (sed, not jq: jq
# would round the 64-bit ids). spill_reload_bytes arrives as a string.
summary_fixture() {
	sed "s/\"summary\":\[{/\"summary\":[{\"model_flops\":$1,\"hardware_flops\":$2,\"transpose_flops\":$3,\"spill_reload_bytes\":\"$4\",/" \
		"$small" > "$5"
}
summary_fixture 1000 4000 401 30000 "$tmp/fires.json"
summary_fixture 3000 4000 100 1000 "$tmp/quiet.json"
hbm=$(jq '.summary[0].hbm_read_bytes' "$small")

# analyze_json FILE ARGS...: the JSON report in $tmp/a.json
analyze_json() {
	f=$1
	shift
	"$NXTOP" analyze -q "$f" --format json "$@" > "$tmp/a.json" ||
		fail "analyze $f $* failed"
}
# count RULE: its findings in $tmp/a.json
count() {
	jq -r --arg r "$1" '.rules[] | select(.id == $r) | .findings | length' \
		"$tmp/a.json"
}
# pct A B: 100 A / B with two decimals, or below 0.01 with two
# significant digits (0.0031)
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { p = 100 * a / b; d = 2
		if (p > 0 && p < 0.01) { x = log(p) / log(10); f = int(x)
			if (f > x) f--
			d = 1 - f }
		printf "%." d "f", p }'
}

# summary rules: fire, with the figures behind them
analyze_json "$tmp/fires.json" --rule mfu,transpose,spill
[ "$(count mfu)" = 1 ] || fail "mfu did not fire at 25%"
[ "$(count transpose)" = 1 ] || fail "transpose did not fire at 10.03%"
[ "$(count spill)" = 1 ] || fail "spill did not fire"
[ "$(jq '.rules[] | select(.id == "spill") | .findings[0].numbers.spill_reload_bytes' "$tmp/a.json")" = 30000 ] ||
	fail "spill: the reload bytes given as a string were not read"
[ "$(jq '.rules[] | select(.id == "spill") | .findings[0].numbers.hbm_read_bytes' "$tmp/a.json")" = "$hbm" ] ||
	fail "spill: HBM reads are not the summary's $hbm"
expect 0 "^\[warning\] mfu: model FLOPs are $(pct 1000 4000)% of hardware" \
	"$NXTOP" analyze -q "$tmp/fires.json"
expect 0 "^\[warning\] transpose: transpose FLOPs are $(pct 401 4000)%" \
	"$NXTOP" analyze -q "$tmp/fires.json"
expect 0 "^\[warning\] spill: spill reloads are $(pct 30000 "$hbm")% of HBM reads" \
	"$NXTOP" analyze -q "$tmp/fires.json"
expect 0 "^Findings +3$" "$NXTOP" analyze -q "$tmp/fires.json" \
	--rule mfu,transpose,spill

# ... and stay quiet below their thresholds, in one line each
analyze_json "$tmp/quiet.json" --rule mfu,transpose,spill
[ "$(jq '.findings' "$tmp/a.json")" = 0 ] || fail "summary rules fired on quiet.json"
expect 0 "^\[ok\] mfu: no finding: model FLOPs are $(pct 3000 4000)%" \
	"$NXTOP" analyze -q "$tmp/quiet.json"
expect 0 "^\[ok\] spill: not checked: the profile's summary has no" \
	"$NXTOP" analyze -q "$tmp/plain.json"

# thresholds at the edge: mfu fires under min_pct only; the others over
analyze_json "$tmp/fires.json" --rule mfu,transpose,spill --set mfu.min_pct=25 --set transpose.max_pct=10.025 \
	--set spill.max_pct=30.52
[ "$(jq '.findings' "$tmp/a.json")" = 0 ] || fail "a rule fired at its edge"
analyze_json "$tmp/fires.json" --rule mfu,transpose,spill --set mfu.min_pct=25.01 --set transpose.max_pct=10.02 \
	--set spill.max_pct=30.51
[ "$(jq '.findings' "$tmp/a.json")" = 3 ] || fail "a rule did not fire past its edge"

# shares under 0.01% keep two significant digits, never 0.00%, in the
# text and in JSON's lines alike; JSON's numbers stay exact
summary_fixture 1 4000000 3 3 "$tmp/tiny.json"
mfu="model FLOPs are $(pct 1 4000000)% of hardware FLOPs (under 50%): 1 of 4000000"
tr="no finding: transpose FLOPs are $(pct 3 4000000)% of hardware FLOPs (at most 10%)"
sp="no finding: spill reloads are $(pct 3 "$hbm")% of HBM reads (at most 25%)"
[ "$(pct 1 4000000) $(pct 3 4000000) $(pct 3 "$hbm")" = "0.000025 0.000075 0.0031" ] ||
	fail "pct: $(pct 1 4000000) $(pct 3 4000000) $(pct 3 "$hbm")"
"$NXTOP" analyze -q "$tmp/tiny.json" --rule mfu,transpose,spill >"$tmp/a.txt" ||
	fail "analyze tiny.json failed"
for l in "[warning] mfu: $mfu" "[ok] transpose: $tr" "[ok] spill: $sp"; do
	grep -qxF "$l" "$tmp/a.txt" || fail "no line '$l' in: $(cat "$tmp/a.txt")"
done
analyze_json "$tmp/tiny.json" --rule mfu,transpose,spill
jq -e --arg mfu "$mfu" --arg tr "$tr" --arg sp "$sp" '.rules as $r |
	($r[] | select(.id == "mfu") | .findings[0] |
	 .finding == $mfu and .numbers.pct == 0.000025) and
	($r[] | select(.id == "transpose") | .note == $tr) and
	($r[] | select(.id == "spill") | .note == $sp)' "$tmp/a.json" >/dev/null ||
	fail "tiny shares in JSON: $(jq -c '.rules' "$tmp/a.json")"

# quality: the real profiles' own "Missing Data" warning explained, in
# JSON and Parquet alike, one finding per warning of the profile
analyze_json "$tmp/plain.json" --rule quality
[ "$(count quality)" = "$(jq '.warnings | length' "$small")" ] ||
	fail "quality: not one finding per warning of the profile"
cp -r "$srcdir/tests/fixtures/parquet-device/device_small@latest" \
	"$srcdir/tests/fixtures/parquet-device/screen_split@latest" "$tmp/"
for p in "$tmp/plain.json" "$tmp/device_small@latest"; do
	expect 0 '^\[warning\] quality: the profile warns \[Missing Data\] "Missing additional dynamic DMA metadata.*: DMAs of dynamic \(DGE\) queues were captured without' \
		"$NXTOP" analyze -q "$p" --rule quality
	expect 0 "advice: capture again with --enable-dge-notifs" \
		"$NXTOP" analyze -q "$p" --rule quality
done
# dropped events in a system profile, a Parquet schema newer than known
cp "$srcdir/tests/fixtures/system_small.json" "$tmp/sys.json"
expect 0 '^\[warning\] quality: .*dropped due to full ring buffer.*: the ring buffer filled and events were lost' \
	"$NXTOP" analyze -q "$tmp/sys.json" --rule quality
expect 0 '^\[warning\] quality: the import warns .*schema version 13\.0\.0 is newer.*: the Parquet schema is newer than this nxtop knows' \
	"$NXTOP" analyze -q "$tmp/screen_split@latest" --rule quality
"$NXTOP" analyze -q "$tmp/device_small@latest" | grep -q 'schema is newer' &&
	fail "quality: schema 12.0.1 said to be newer"
cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/screen.json"
expect 0 '^\[ok\] quality: no finding' "$NXTOP" analyze -q "$tmp/screen.json" --rule quality

# small-dma: per queue, packets under 4 KiB and their bytes, as jq counts
# them (the queue is the subgroup without its -Q/-E suffixes)
cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/screen.json"
want=$(jq -r '[.dma[] | select(.aggregated != "yes") |
	{q: (.subgroup | sub("-Q[0-9]+-E[0-9]+$"; "")), s: (.transfer_size | tonumber)}] |
	group_by(.q)[] | [.[] | select(.s < 4096)] |
	select(length > 0) | "\(length) \(map(.s) | add)"' "$fx/device_screen.json" | sort)
analyze_json "$tmp/screen.json" --rule small-dma
got=$(jq -r '.rules[0].findings[].numbers | "\(.small_packets) \(.small_bytes)"' "$tmp/a.json" | sort)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "small-dma: got '$got', wanted '$want'"
expect 0 '^\[warning\] small-dma: queue qSyncIO0: 80 packets under 4096 B \(163840 bytes\) take 100\.00% of its DMA time' \
	"$NXTOP" analyze -q "$tmp/screen.json" --rule small-dma
expect 0 'advice: aim for contiguous payloads of at least 4 KiB' \
	"$NXTOP" analyze -q "$tmp/screen.json" --rule small-dma
# on rows long enough to be read by aggregate buckets, a range is cut
# to the row's first start and last end, as sqlite3 has them
"$NXTOP" demo --events 3000 --seed 7 --write "$tmp/dev.json" >/dev/null 2>&1 ||
	fail "demo failed"
analyze_json "$tmp/dev.json" --rule small-dma
got=$(jq -r '.rules[0].findings[].ranges[] | "\(.row) \(.ts) \(.end)"' "$tmp/a.json" | sort)
want=$(sqlite3 -separator ' ' "$tmp/dev.json.nxdb" "SELECT s.track_id,
	min(s.ts) - p.start_ns, max(s.ts + s.dur) - p.start_ns FROM slice s,
	profile p WHERE s.track_id IN ($(jq -r '[.rules[0].findings[].ranges[].row]
	| join(",")' "$tmp/a.json")) GROUP BY s.track_id" | sort)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "small-dma ranges: got '$got', wanted '$want'"
# at the edges: a share of exactly min_share, packets of exactly bytes
analyze_json "$tmp/screen.json" --rule small-dma --set small-dma.min_share=100
[ "$(count small-dma)" = 0 ] || fail "small-dma fired at a share of min_share"
analyze_json "$tmp/plain.json" --rule small-dma --set small-dma.bytes=2048
[ "$(count small-dma)" = 0 ] || fail "small-dma: a 2048 B packet is under 2048 B"
analyze_json "$tmp/plain.json" --rule small-dma --set small-dma.bytes=2049
[ "$(count small-dma)" = 2 ] || fail "small-dma: two queues of 2048 B packets"
# one packet is one, in the words as in the numbers
expect 0 '^\[warning\] small-dma: queue Q0: 1 packet under 4096 B \(2048 bytes\) takes 100\.00% of its DMA time' \
	"$NXTOP" analyze -q "$tmp/plain.json" --rule small-dma
# quiet on packets of 8 KiB
sed 's/"transfer_size":2048/"transfer_size":8192/g' "$small" > "$tmp/big.json"
expect 0 '^\[ok\] small-dma: no finding' "$NXTOP" analyze -q "$tmp/big.json" --rule small-dma

# reload: transfers (aggregated DMAs) per tensor, as jq counts them
loads() {
	jq -r --argjson max "$1" '[.dma[] | select(.aggregated == "yes" and
		.variable != "unknown")] | group_by(.variable)[] |
		select(length > $max) | "\(.[0].variable) \(length)"' \
		"$fx/device_screen.json" | sort
}
analyze_json "$tmp/screen.json" --rule reload
got=$(jq -r '.rules[0].findings[] | "\(.finding | sub("^tensor "; "") | sub(" .*"; "")) \(.numbers.loads) \(.ranges_total)"' "$tmp/a.json" | sort)
want=$(loads 2 | awk '{ print $1, $2, $2 }')
[ -n "$want" ] && [ "$got" = "$want" ] || fail "reload: got '$got', wanted '$want'"
expect 0 '^\[warning\] reload: tensor var_6 loaded into SBUF 6 times \(more than 2\): 12288 bytes$' \
	"$NXTOP" analyze -q "$tmp/screen.json" --rule reload
# at the edge: max_loads 6 lets six loads pass, 5 does not
analyze_json "$tmp/screen.json" --rule reload --set reload.max_loads=6
[ "$(count reload)" = 0 ] || fail "reload fired at max_loads"
analyze_json "$tmp/screen.json" --rule reload --set reload.max_loads=5
[ "$(count reload)" = "$(loads 5 | grep -c .)" ] || fail "reload: not the tensors loaded 6 times"
expect 0 '^\[ok\] reload: no finding' "$NXTOP" analyze -q "$tmp/plain.json" --rule reload
# the viewer's Insights list shows the same tensors, one line each, and
# its header counts every finding of every rule
printf 'size 160x40\nkeys I/tensor<Enter>\ndump list\n' > "$tmp/ins.keys"
XDG_DATA_HOME="$tmp/ins" "$NXTOP" -q --headless="$tmp/ins.keys" --dump="$tmp" \
	"$tmp/screen.json" || fail "the viewer did not list the insights"
got=$(sed -n 's/^warning  *reload  *tensor \([^ ]*\) loaded into SBUF \([0-9]*\) times.*/\1 \2/p' \
	"$tmp/list" | sort)
[ "$got" = "$(loads 2)" ] || fail "Insights list: got '$got', wanted '$(loads 2)'"
analyze_json "$tmp/screen.json"
grep -q "^nxtop .* insights  $(jq '.findings' "$tmp/a.json") findings  filter: tensor" "$tmp/list" ||
	fail "Insights list: not $(jq '.findings' "$tmp/a.json") findings in the header: $(head -n 1 "$tmp/list")"
# e in the Insights list writes what nxtop analyze prints with every
# finding and range listed, bounds included
mkdir "$tmp/ins-export"
printf 'keys Ie\n' > "$tmp/ins-e.keys"
NXTOP_EXPORT_DIR="$tmp/ins-export" XDG_DATA_HOME="$tmp/ins" "$NXTOP" -q \
	--headless="$tmp/ins-e.keys" --dump="$tmp" "$tmp/screen.json" ||
	fail "the viewer did not export the insights"
"$NXTOP" analyze -q "$tmp/screen.json" --max-findings 1000000 --max-ranges 1000000 > "$tmp/all-findings.txt"
cmp -s "$tmp/ins-export/nxtop-insights-1.txt" "$tmp/all-findings.txt" ||
	fail "the Insights export differs from nxtop analyze: $(diff "$tmp/ins-export/nxtop-insights-1.txt" "$tmp/all-findings.txt" | head -5)"
# --max-findings: at most N findings per rule listed, the rest counted
# ("and K more"); JSON keeps the total. jq counts the tensors loaded.
ntens=$(loads 0 | grep -c .)
[ "$ntens" -gt 3 ] || fail "reload: device_screen.json has only $ntens tensors"
analyze_json "$tmp/screen.json" --rule reload --set reload.max_loads=0 --max-findings 3
[ "$(count reload)" = 3 ] || fail "--max-findings 3: $(count reload) findings listed"
[ "$(jq '.rules[0].findings_total' "$tmp/a.json")" = "$ntens" ] &&
	[ "$(jq '.findings' "$tmp/a.json")" = "$ntens" ] ||
	fail "--max-findings: the JSON totals are not $ntens"
"$NXTOP" analyze -q "$tmp/screen.json" --rule reload --set reload.max_loads=0 \
	--max-findings 3 > "$tmp/cap.txt" || fail "analyze --max-findings failed"
[ "$(grep -c '^\[warning\] reload: tensor' "$tmp/cap.txt")" = 3 ] ||
	fail "--max-findings 3: not 3 findings in the text"
grep -q "^\[warning\] reload: and $((ntens - 3)) more findings\$" "$tmp/cap.txt" ||
	fail "--max-findings: no 'and $((ntens - 3)) more findings' line"
analyze_json "$tmp/screen.json" --rule reload --set reload.max_loads=0 --max-findings "$ntens"
[ "$(count reload)" = "$ntens" ] || fail "--max-findings $ntens: not all listed"
"$NXTOP" analyze -q "$tmp/screen.json" --rule reload --set reload.max_loads=0 \
	--max-findings "$ntens" | grep -q 'more findings' &&
	fail "--max-findings $ntens: a 'more' line with nothing more"
# --range: only the loads that start in it
analyze_json "$tmp/screen.json" --rule reload --range 0:100us --set reload.max_loads=0
got=$(jq '[.rules[0].findings[].numbers.loads] | add' "$tmp/a.json")
want=$(jq '.metadata[0].first_hw_timestamp as $t0 | [.dma[] |
	select(.aggregated == "yes" and .variable != "unknown" and
	.timestamp - $t0 < 100000)] | length' "$fx/device_screen.json")
[ "$want" -gt 0 ] && [ "$got" = "$want" ] || fail "reload --range: $got loads, wanted $want"
# reload's order: most loads first; of as many, the tensor loaded first,
# then by name, as jq orders the tensors of the file (zz, six loads
# from 1 us, comes before the var_ tensors loaded six times later; a_tie
# and b_tie, three loads each from 2 us, last, by name). A finding's ranges:
# longest first, then the earliest, then by row id (a_tie's two loads
# at 2 us on two queues).
load() {
	printf '{"timestamp":%s,"duration":500,"variable":"%s","queue_type":"data","subgroup":"%s","aggregated":"yes","transfer_size":2048,"id":%s,"packet_aggregation_id":77},' "$@"
}
ties="$(load 1000 zz qSyncIO0 90001)$(load 1100 zz qSyncIO0 90002)"
ties="$ties$(load 1200 zz qSyncIO0 90003)$(load 1300 zz qSyncIO0 90004)"
ties="$ties$(load 1400 zz qSyncIO0 90005)$(load 1500 zz qSyncIO0 90006)"
for v in b_tie a_tie; do
	ties="$ties$(load 2000 $v qSyncSpillReload0 9$v)$(load 2000 $v qSyncIO0 9$v)"
	ties="$ties$(load 3000 $v qSyncIO0 9$v)"
done
ties=$(printf '%s' "$ties" | sed 's/9a_tie/90010/; s/9a_tie/90011/; s/9a_tie/90012/;
	s/9b_tie/90013/; s/9b_tie/90014/; s/9b_tie/90015/')
sed "s/\"dma\":\[/\"dma\":[$ties/" "$fx/device_screen.json" > "$tmp/ties.json"
analyze_json "$tmp/ties.json" --rule reload --max-ranges 100
got=$(jq -r '.rules[0].findings[].finding | sub("^tensor "; "") | sub(" .*"; "")' "$tmp/a.json")
want=$(jq -r '[.dma[] | select(.aggregated == "yes" and .variable != "unknown")] |
	group_by(.variable) | map(select(length > 2) | {v: .[0].variable, n: length,
	first: (map(.timestamp) | min)}) | sort_by(-.n, .first, .v)[] | .v' "$tmp/ties.json")
[ "$(echo "$got" | head -n 1)" = zz ] &&
	[ "$(echo "$got" | tail -n 2)" = "$(printf 'a_tie\nb_tie')" ] && [ "$got" = "$want" ] ||
	fail "reload: findings in the order $(echo $got), wanted $(echo $want)"
jq -e '[.rules[0].findings[].ranges | . == sort_by([-(.end - .ts), .ts, .row])] | all' \
	"$tmp/a.json" >/dev/null || fail "reload: ranges not longest, earliest, then by row"
jq -e '.rules[0].findings[-2].ranges[0:2] | .[0].ts == .[1].ts and .[0].row < .[1].row' \
	"$tmp/a.json" >/dev/null || fail "reload: a_tie's loads at 2 us: $(jq -c '.rules[0].findings[-2].ranges' "$tmp/a.json")"

# semaphore: EVENT_SEMAPHORE time per engine over the first 100 us, as
# jq sums it; at the edge, a share of exactly max_pct does not fire
sem=$(jq -r '.metadata[0].first_hw_timestamp as $t0 | [.instruction[] |
	select(.opcode == "EVENT_SEMAPHORE" and .timestamp - $t0 < 100000)] |
	"\(length) \(map(.duration) | add)"' "$fx/device_screen.json")
analyze_json "$tmp/screen.json" --rule semaphore --range 0:100us
got=$(jq -r '.rules[0].findings[] | "\(.numbers.waits) \(.numbers.wait_ns)"' "$tmp/a.json")
[ "$got" = "$sem" ] || fail "semaphore: got '$got', wanted '$sem'"
edge=$(echo "$sem" | awk '{ print $2 / 1000 }')
analyze_json "$tmp/screen.json" --rule semaphore --range 0:100us --set semaphore.max_pct="$edge"
[ "$(count semaphore)" = 0 ] || fail "semaphore fired at a share of max_pct ($edge)"
analyze_json "$tmp/screen.json" --rule semaphore --range 0:100us \
	--set semaphore.max_pct="$(awk -v e="$edge" 'BEGIN { print e - 0.001 }')"
[ "$(count semaphore)" = 1 ] || fail "semaphore did not fire past max_pct"
expect 0 "^\[warning\] semaphore: Scalar waits on semaphores .*: $(jq '[.instruction[] | select(.opcode == "EVENT_SEMAPHORE")] | length' "$fx/device_screen.json") EVENT_SEMAPHORE" \
	"$NXTOP" analyze -q "$tmp/screen.json" --rule semaphore
expect 0 '^\[ok\] semaphore: no finding' "$NXTOP" analyze -q "$tmp/plain.json" --rule semaphore

# system rules: executions "nc start_us dur_us", written as a system
# profile; NC 0 has a slow first one, an outlier and long gaps, NC 1
# none of them
cat > "$tmp/execs.txt" <<'LIST'
0 0 500
0 1000 100
0 2000 100
0 3000 300
0 4000 100
0 5000 100
1 0 900
1 1000 900
1 2000 900
1 3000 900
LIST
awk 'BEGIN { printf "{\"system_profile_metadata\": [{\"first_ts_ns\": \"1000000000\", \"ntff_version\": 5}], \"trace_event\": [" }
	{ printf "%s{\"instance_id\": \"i-1\", \"process_id\": \"7\", \"thread_id\": %d, \"lnc_idx\": %d, \"nc_idx\": %d, \"worker_gid\": 1, \"timestamp_unit\": \"ns\", \"name\": \"nrt_execute\", \"id\": %d, \"parent_id\": 0, \"timestamp\": %d, \"duration\": %d, \"trace_event_source\": \"neuron_rt\", \"type\": 3, \"model_name\": \"/m/a.neff\"}",
		(NR > 1 ? ", " : ""), 100 + $1, $1, $1, NR, 1000000000 + $2 * 1000, $3 * 1000 }
	END { print "]}" }' "$tmp/execs.txt" > "$tmp/sys-execs.json"
# the lower median of NC 0's durations, its first, its idle time and span
set -- $(awk '$1 == 0 { n++; if (n == 1) first = $3 * 1000;
		if (n > 1 && $2 * 1000 > end) idle += $2 * 1000 - end;
		if (n == 1 || ($2 + $3) * 1000 > end) end = ($2 + $3) * 1000 }
	END { printf "%d %d %d", first, idle, end }' "$tmp/execs.txt")
first=$1 idle=$2 span=$3
n0=$(awk '$1 == 0' "$tmp/execs.txt" | grep -c .)
med=$(awk '$1 == 0 { print $3 * 1000 }' "$tmp/execs.txt" | sort -n |
	sed -n "$(((n0 + 1) / 2))p")
analyze_json "$tmp/sys-execs.json" --rule warmup,outliers,idle
[ "$(count warmup)" = 1 ] && [ "$(count outliers)" = 1 ] && [ "$(count idle)" = 1 ] ||
	fail "system rules: wanted one finding each for NC 0: $(jq -c '[.rules[] | .findings | length]' "$tmp/a.json")"
[ "$(jq '.rules[] | select(.id == "warmup") | .findings[0].numbers | "\(.first_ns) \(.median_ns)"' -r "$tmp/a.json")" = "$first $med" ] ||
	fail "warmup: not first $first, median $med"
[ "$(jq '.rules[] | select(.id == "outliers") | .findings[0] | "\(.numbers.outliers) \(.ranges[0].end - .ranges[0].ts)"' -r "$tmp/a.json")" = "1 300000" ] ||
	fail "outliers: not the one execution of 300 us"
[ "$(jq '.rules[] | select(.id == "idle") | .findings[0].numbers | "\(.idle_ns) \(.span_ns)"' -r "$tmp/a.json")" = "$idle $span" ] ||
	fail "idle: not $idle ns idle of $span"
expect 0 '^\[info\] warmup: /m/a.neff on NC 0: the first execution took 500000 ns, 5\.00x the median 100000 ns of 6' \
	"$NXTOP" analyze -q "$tmp/sys-execs.json" --rule warmup
# at the edges: ratios of exactly the factor, a share of exactly max_pct
analyze_json "$tmp/sys-execs.json" --rule warmup,outliers,idle --set warmup.factor=5 \
	--set outliers.factor=3 --set idle.max_pct="$(awk -v i="$idle" -v s="$span" 'BEGIN { printf "%.17g", 100 * i / s }')"
[ "$(jq '.findings' "$tmp/a.json")" = 0 ] || fail "a system rule fired at its edge"
analyze_json "$tmp/sys-execs.json" --rule warmup,outliers,idle --set warmup.factor=4.99 \
	--set outliers.factor=2.99 --set idle.max_pct=76
[ "$(jq '.findings' "$tmp/a.json")" = 3 ] || fail "a system rule did not fire past its edge"
# quiet on a device profile and a system profile of two executions
expect 0 '^\[ok\] warmup: not checked: no nrt_execute' "$NXTOP" analyze -q "$tmp/plain.json" --rule warmup
cp "$fx/system_ncs.json" "$tmp/ncs.json"
analyze_json "$tmp/ncs.json" --rule warmup,outliers,idle
[ "$(jq '.findings' "$tmp/a.json")" = 0 ] || fail "system rules fired on system_ncs.json"
# the device rules on a system profile say they did not look
for r in 'small-dma|DMA packet rows' 'reload|DMA transfer rows' \
	'stall|engine rows' 'semaphore|engine rows'; do
	expect 0 "^\[ok\] ${r%%|*}: not checked: the profile has no ${r#*|}$" \
		"$NXTOP" analyze -q "$tmp/ncs.json" --rule "${r%%|*}"
done
# A NeuronCore is one of an instance: NC 0 of two instances, their
# executions taking turns (each one idle 4 ms of its 9 ms span, both
# together never), is two NeuronCores, each idle 44.44%; a Parquet
# profile gives only lnc_idx, which counts the same way
awk 'BEGIN { printf "{\"trace_event\": ["
	for (i = 0; i < 10; i++)
		printf "%s{\"name\": \"nrt_execute\", \"id\": %d, \"instance_id\": \"i-%s\"," \
			" \"process_id\": \"1\", \"thread_id\": 11, \"lnc_idx\": 0," \
			" \"worker_gid\": %d, \"model_name\": \"m.neff\", \"timestamp\": %d," \
			" \"duration\": 1000000, \"timestamp_unit\": \"ns\"," \
			" \"trace_event_source\": \"neuron_rt\"}", i ? ", " : "", i + 1,
			i % 2 ? "B" : "A", i % 2 ? 36 : 32, 1000000 * i
	print "]}" }' > "$tmp/two-instances.json"
analyze_json "$tmp/two-instances.json" --rule idle
[ "$(jq -r '[.rules[] | select(.id == "idle") | .findings[] |
	"\(.finding | sub(": idle.*"; "")) \(.numbers.idle_ns)/\(.numbers.span_ns)"] |
	join(", ")' "$tmp/a.json")" = \
	"m.neff on NC 0 of i-A 4000000/9000000, m.neff on NC 0 of i-B 4000000/9000000" ] ||
	fail "idle on two instances: $(jq -c '[.rules[] | select(.id == "idle") | .findings[] | .finding]' "$tmp/a.json")"

# throttle: the ham records' time under k/n < 1 inside 1868000:1870000
# ns, and the instructions starting in it per engine, as jq finds them
a=1868000 b=1870000
thr=$(jq --argjson a $a --argjson b $b '[.ham[] | select(.k < .n) |
	([.timestamp + .duration, $b] | min) - ([.timestamp, $a] | max) |
	select(. > 0)] | add' "$small")
eng=$(jq -r --argjson a $a --argjson b $b '[.ham[] | select(.k < .n)] as $h |
	[.instruction[] | .timestamp as $t | select(any($h[];
	$t >= ([.timestamp, $a] | max) and $t < ([.timestamp + .duration, $b] | min)))] |
	group_by(.subgroup) | map("\(.[0].subgroup) \(length)") | join(", ")' "$small")
analyze_json "$tmp/plain.json" --rule throttle --range ${a}ns:${b}ns
[ "$(jq '.rules[0].findings[0].numbers.throttled_ns' "$tmp/a.json")" = "$thr" ] ||
	fail "throttle: not $thr ns throttled"
expect 0 "^\[warning\] throttle: throttled \(limit under 100%\) .*: $thr ns in 1 range; instructions starting in it: $eng\$" \
	"$NXTOP" analyze -q "$tmp/plain.json" --rule throttle --range ${a}ns:${b}ns
edge=$(awk -v t="$thr" -v s=$((b - a)) 'BEGIN { printf "%.17g", 100 * t / s }')
analyze_json "$tmp/plain.json" --rule throttle --range ${a}ns:${b}ns --set throttle.min_pct="$edge"
[ "$(count throttle)" = 0 ] || fail "throttle fired at min_pct"
# a limit of 7/8 is not under 87.5%, and by default a short throttle is quiet
analyze_json "$tmp/plain.json" --rule throttle --range ${a}ns:${b}ns --set throttle.limit=87.5
[ "$(count throttle)" = 0 ] || fail "throttle: a limit of 87.5% is under 87.5%"
analyze_json "$tmp/plain.json" --rule throttle --range ${a}ns:${b}ns --set throttle.limit=87.6
[ "$(count throttle)" = 1 ] || fail "throttle: a limit of 87.5% is under 87.6%"
expect 0 '^\[ok\] throttle: no finding: throttled 0\.0' "$NXTOP" analyze -q "$tmp/plain.json" --rule throttle
expect 0 '^\[ok\] throttle: not checked' "$NXTOP" analyze -q "$tmp/screen.json" --rule throttle

# stall: per engine, gaps longer than the minimum in which another engine
# starts an instruction, as tests/stall.jq finds them
stalls() {
	jq -r --argjson min "$1" -f "$srcdir/tests/stall.jq" "$2" | sort
}
analyze_json "$tmp/screen.json" --rule stall --set stall.gap_us=0.5 --set stall.min_pct=0
got=$(jq -r '.rules[0].findings[] | "\(.finding | sub(" .*"; "")) \(.numbers.gaps) \(.numbers.stall_ns)"' "$tmp/a.json" | sort)
want=$(stalls 500 "$fx/device_screen.json")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "stall: got '$got', wanted '$want'"
expect 0 '^\[ok\] stall: no finding' "$NXTOP" analyze -q "$tmp/screen.json" --rule stall
set -- $(stalls 10000 "$small")
[ "$1 $2" = "Scalar 1" ] || fail "stall.jq: not one Scalar gap in device_small.json"
expect 0 "^\[warning\] stall: Scalar stalls .*: 1 gap over 10 us, $3 ns\$" \
	"$NXTOP" analyze -q "$tmp/plain.json" --rule stall
# at the edges: a gap of exactly gap_us, a share of exactly min_pct
analyze_json "$tmp/plain.json" --rule stall --set stall.gap_us="$(awk -v g="$3" 'BEGIN { printf "%.3f", g / 1000 }')"
[ "$(count stall)" = 0 ] || fail "stall: a gap of gap_us counted"
analyze_json "$tmp/plain.json" --rule stall --set stall.gap_us="$(awk -v g="$3" 'BEGIN { printf "%.3f", (g - 1) / 1000 }')"
[ "$(count stall)" = 1 ] || fail "stall: a gap over gap_us not counted"
# a range past the profile's end is measured to its last ns: the last
# sample or event end, or the metadata's last timestamp
last=$(jq '[.. | objects | select(.timestamp) | (.timestamp | tonumber) +
	((.duration // 0) | tonumber)] + [.metadata[0].last_hw_timestamp |
	tonumber] | max' "$small")
analyze_json "$tmp/plain.json" --rule stall --range 0:2ms \
	--set stall.min_pct="$(awk -v g="$3" -v l="$last" 'BEGIN { printf "%.17g", 100 * g / l }')"
[ "$(count stall)" = 0 ] || fail "stall fired at min_pct"
analyze_json "$tmp/plain.json" --rule stall --range 0:2ms --set stall.min_pct=0
[ "$(jq '.rules[0].findings[0].numbers.range_ns' "$tmp/a.json")" = "$last" ] ||
	fail "stall: a range past the end is not measured to the last ns ($last)"

# collectives: the CcOp table of a Parquet profile; per group (operation
# and replica group) of 3 or more, the operations over FACTOR x from the
# group's lower median, as awk finds them in pqdump's text of the table:
# "operation group operations outliers median farthest"
cp -r "$fx/parquet-device/collectives@latest" "$tmp/"
cc_want() {
	"$builddir/tests/pqdump" "$tmp/collectives@latest/CcOp.parquet" |
	awk -F '\t' -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ g = $c["operation"] " " $c["replica_group_id"]; gsub(/"/, "", g)
	  d[g, ++n[g]] = $c["duration_ns"] }
	END { for (g in n) {
		m = n[g]; if (m < 3) continue
		for (i = 1; i <= m; i++) s[i] = d[g, i]
		for (i = 2; i <= m; i++) for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
			t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
		med = s[int((m + 1) / 2)]; k = 0; best = 0
		for (i = 1; i <= m; i++) {
			x = d[g, i]; r = x >= med ? x / med : med / x
			if (x > f * med || x * f < med) { k++; if (r > best) { best = r; far = x } }
		}
		if (k) print g, m, k, med, far } }' | sort
}
cc_got() {
	jq -r '.rules[] | select(.id == "collectives") | .findings[] |
		"\(.finding | sub(" in replica group "; " ") | sub(":.*"; "")) \(.numbers |
		"\(.operations) \(.outliers) \(.median_ns) \(.farthest_ns)")"' "$tmp/a.json" | sort
}
want=$(cc_want 2)
analyze_json "$tmp/collectives@latest" --rule collectives
[ "$(echo "$want" | grep -c .)" = 2 ] && [ "$(cc_got)" = "$want" ] ||
	fail "collectives: got '$(cc_got)', wanted '$want'"
expect 0 '^\[warning\] collectives: AllReduce in replica group 0: 1 of 5 operations over 2x from the median 10100 ns; the farthest 31000 ns \(3\.07x\)$' \
	"$NXTOP" analyze -q "$tmp/collectives@latest" --rule collectives
[ "$(jq '[.rules[0].findings[].ranges[] | .end - .ts] | sort | join(" ")' -r "$tmp/a.json")" = "2000 31000" ] ||
	fail "collectives: the ranges are not the two far operations"
# at the edges: a ratio of exactly the factor is not far
edge=$(awk 'BEGIN { printf "%.17g", 31000 / 10100 }')
for factor in "$edge" 3.99 4; do
	analyze_json "$tmp/collectives@latest" --rule collectives --set collectives.factor="$factor"
	[ "$(cc_got)" = "$(cc_want "$factor")" ] ||
		fail "collectives at factor $factor: got '$(cc_got)', wanted '$(cc_want "$factor")'"
done
[ "$(count collectives)" = 0 ] || fail "collectives fired at factor 4 (a ratio of 4)"
expect 0 '^\[ok\] collectives: no finding: 12 operations, 3 groups of 3 or more' \
	"$NXTOP" analyze -q "$tmp/collectives@latest" --rule collectives --set collectives.factor=4
expect 0 '^\[ok\] collectives: not checked: no collective operations' \
	"$NXTOP" analyze -q "$tmp/device_small@latest" --rule collectives
expect 0 '^\[ok\] collectives: not checked' "$NXTOP" analyze -q "$tmp/plain.json" --rule collectives

# --between: markers set in the viewer at 10 us and 60 us, named in
# either order, are the range; jq sums the waits starting in it
printf 'keys :goto 10us<Enter>m:goto 60us<Enter>m\n' > "$tmp/marks.keys"
"$NXTOP" --headless "$tmp/marks.keys" "$tmp/screen.json" >/dev/null 2>&1 ||
	fail "the viewer did not set the markers"
want=$(jq -r '.metadata[0].first_hw_timestamp as $t0 | [.instruction[] |
	select(.opcode == "EVENT_SEMAPHORE" and .timestamp - $t0 >= 10000 and
	.timestamp - $t0 < 60000)] | "\(length) \(map(.duration) | add) 50000"' "$fx/device_screen.json")
analyze_json "$tmp/screen.json" --rule semaphore --between M2,M1 --set semaphore.max_pct=0
got=$(jq -r '.rules[0].findings[0].numbers | "\(.waits) \(.wait_ns) \(.range_ns)"' "$tmp/a.json")
[ "$got" = "$want" ] || fail "--between M2,M1: got '$got', wanted '$want'"
expect 1 "no marker 'M3'" "$NXTOP" analyze -q "$tmp/screen.json" --between M1,M3

# names from the profile (a queue "qEvil<ESC>[2J", an opcode with a
# colour escape) reach the terminal cleaned
"$NXTOP" analyze -q "$tmp/screen.json" > "$tmp/all.txt" || fail "analyze screen.json failed"
grep -q 'qEvil' "$tmp/all.txt" || fail "the evil queue is not named"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/all.txt"; then
	fail "an escape character reached the output"
fi

# usage errors
expect 2 "no rule 'nope' \\(rules: quality, mfu, transpose, spill, small-dma, reload, stall, semaphore, throttle, warmup, outliers, idle, collectives\\)" "$NXTOP" analyze "$tmp/plain.json" --rule nope
# an empty list would run nothing and report no finding: refused
expect 2 "^nxtop: --rule: a rule is missing \\(rules: quality, " "$NXTOP" analyze "$tmp/plain.json" --rule=
expect 2 "rule mfu has no parameter 'x'" "$NXTOP" analyze "$tmp/plain.json" --set mfu.x=1
expect 2 "'abc' is not a number" "$NXTOP" analyze "$tmp/plain.json" --set mfu.min_pct=abc
expect 2 "'0x40' is not a number" "$NXTOP" analyze "$tmp/plain.json" --set mfu.min_pct=0x40
expect 2 "'4e1' is not a number" "$NXTOP" analyze "$tmp/plain.json" --set mfu.min_pct=4e1
expect 2 "do not go together" "$NXTOP" analyze "$tmp/plain.json" --range 0:1us --between a,b
expect 2 "unknown format" "$NXTOP" analyze "$tmp/plain.json" --format csv
expect 2 "max-findings: '-1' is not a count" "$NXTOP" analyze "$tmp/plain.json" --max-findings -1
expect 1 "no marker 'a'" "$NXTOP" analyze -q "$tmp/plain.json" --between a,b
expect 2 "not a time" "$NXTOP" analyze -q "$tmp/none.json" --range x:y
expect 2 "^nxtop: --between: expected M1,M2 .two marker names., not 'a'" "$NXTOP" analyze -q "$tmp/none.json" --between a
expect 1 "nxtop: " "$NXTOP" analyze -q "$tmp/missing.json"

# semaphore on rows with name aggregates (whole buckets from them, the
# range's edges from the events): each finding's waits and their time
# are what sqlite3 counts, over the profile and ranges that cut buckets
if have sqlite3; then
	"$NXTOP" demo --events 100000 --write "$tmp/agg.json" >/dev/null ||
		fail "demo failed"
	NXTOP_TEST_AGG_PER_BUCKET=1 "$NXTOP" import -q -o "$tmp/agg.nxdb" \
		"$tmp/agg.json" || fail "demo import failed"
	[ "$(sqlite3 "$tmp/agg.nxdb" "SELECT count(*) FROM track WHERE
		kind = 'engine' AND agg_level IS NOT NULL")" -gt 0 ] ||
		fail "semaphore: no engine row with aggregates"
	for r in 0:10000000000 0:1000000 123456:2345678 2000000:10000000000; do
		analyze_json "$tmp/agg.nxdb" --rule semaphore --range "$r" \
			--set semaphore.max_pct=0
		jq -r '.rules[] | select(.id == "semaphore") | .findings[] |
			"\(.finding | sub(" waits on semaphores.*"; "")) \(.numbers.waits) \(.numbers.wait_ns)"' \
			"$tmp/a.json" | sort > "$tmp/sem.got"
		t0=${r%:*} t1=${r#*:}
		sqlite3 -separator ' ' "$tmp/agg.nxdb" "SELECT t.name, count(*),
			sum(s.dur) FROM slice s JOIN track t ON t.id = s.track_id
			JOIN string n ON n.id = s.name WHERE n.str = 'EVENT_SEMAPHORE'
			AND s.ts >= $t0 AND s.ts < $t1 GROUP BY t.id" |
			sort > "$tmp/sem.want"
		[ -s "$tmp/sem.want" ] || fail "semaphore $r: sqlite3 counts no wait"
		cmp -s "$tmp/sem.want" "$tmp/sem.got" ||
			fail "semaphore $r: $(cat "$tmp/sem.got") / sqlite3: $(cat "$tmp/sem.want")"
	done
fi

pass
