#!/bin/sh
# Neuron device dependencies: every link of device_deps.json and of its
# Parquet twin (tests/parquet/device.mjs) is exported as a flow, as an
# independent jq reading of the fixture finds them: predecessors (an id
# above 2^63 beside a decoy one apart; an id naming nothing kept with
# one end), packets of a listed transfer (exact), a transfer's trigger
# (an engine's instruction starting at it, the one whose own trigger
# names the transfer first) and semaphore waits (the last signal before
# the update that left the awaited value, inferred); the three formats
# agree; a bad predecessors field fails with one line and no cache, a
# bad Flow row leaves its table out with one warning.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch

need jq

# jq reads numbers as doubles: ids are quoted first to compare exactly
cat >"$tmp/deps.jq" <<'JQ'
def fin: .timestamp + .duration;
def nm: .opcode // .variable;
def sem_re: "(?:\\$S\\[([0-9]+)\\]|(?:^|\\s)S\\[([0-9]+)\\] \\([^)]*\\))";
def line($k; $e; $o; $i):
  "\($k)|\($e)|\(if $o then "\($o.timestamp)|\($o | nm)" else "|" end)|\($i.timestamp)|\($i | nm)";
.instruction as $I
| [.dma[] | select(.aggregated == "yes")] as $X
| [.dma[] | select(.aggregated == "no")] as $P
| .semaphore_update as $U
| ([$I[] | . as $w | .operands | [scan(sem_re + "(\\+\\+|\\+=)")]
    | .[] | {sem: (.[0] // .[1]), t: ($w | fin), ev: $w}]
   + [$X[] | . as $x | .semaphore_id | [scan("S\\[([0-9]+)\\]")] | .[]
    | {sem: .[0], t: ($x | fin), ev: $x}]) as $sig
| ([$I[] | . as $w | (.predecessors // [])[] | . as $p
    | line($p.type | ascii_downcase | gsub("_"; " "); 1;
           ([$I[] | select(.id == $p.id)] | .[0]); $w)]
   + [$P[] | . as $k | [$X[] | select(.id == $k.packet_aggregation_id)] | .[0]
      | select(.) | line("dma packet"; 1; .; $k)]
   + [$X[] | . as $x | [$I[] | select(.timestamp == $x.trigger)]
      | (map(select(.trigger == $x.timestamp)) + .) | .[0] | select(.)
      | line("dma trigger"; 0; .; $x)]
   + [$I[] | . as $w
      | (if .opcode == "EVENT_SEMAPHORE" then fin else .timestamp end) as $wend
      | .operands | [scan(sem_re + "(==|>=)([0-9]+)")] | .[]
      | {sem: (.[0] // .[1]), op: .[2], v: (.[3] | tonumber)} as $c
      | ([$U[] | select(.id == $c.sem and .timestamp <= $wend)]
         | max_by(.timestamp)) as $u
      | (if $u and ($u.value == $c.v or ($c.op == ">=" and $u.value > $c.v))
         then $u.timestamp else $wend end) as $at
      | [$sig[] | select(.sem == $c.sem and .t <= $at and .ev.id != $w.id)]
      | max_by(.t) | select(.) | line("semaphore"; 0; .ev; $w)])
| sort | .[]
JQ

fx="$srcdir/tests/fixtures"
sed -E 's/"(id|packet_aggregation_id)":([0-9]+)/"\1":"\2"/g' \
	"$fx/device_deps.json" | jq -r -f "$tmp/deps.jq" >"$tmp/want" ||
	fail "jq failed"
[ "$(wc -l <"$tmp/want")" -eq 11 ] || fail "jq found: $(cat "$tmp/want")"

cp "$fx/device_deps.json" "$tmp/deps.json"
cp -R "$fx/parquet-device/device_deps@latest" "$tmp/"
chmod -R u+w "$tmp/device_deps@latest"
for f in "$tmp/deps.json" "$tmp/device_deps@latest"; do
	expect 0 "" "$NXTOP" export -q "$f" --what flows --format csv
	head -1 "$out" | grep -q '^flow_id,kind,exact,out_id,' ||
		fail "$f: CSV header: $(head -1 "$out")"
	tail -n +2 "$out" | tr -d '\r' |
		awk -F, '{ print $2 "|" $3 "|" $6 "|" $7 "|" $10 "|" $11 }' |
		sort >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		fail "$f: flows differ from jq: $(diff "$tmp/want" "$tmp/got")"

	expect 0 "" "$NXTOP" export -q "$f" --what flows --format json
	jq -e '.paired == 10 and .unpaired_in == 1 and .unpaired_out == 0 and
		([.flows[] | select(.exact)] | length) == 6 and
		([.flows[] | select(.exact | not) | .kind] | unique) ==
		["dma trigger", "semaphore"] and
		([.flows[] | select(.in.name == "ACTIVATE" and .out.name ==
		 "MATMUL") | .exact] | sort) == [false, true]' "$out" \
		>/dev/null || fail "$f: JSON flows: $(cat "$out")"

	expect 0 "^Flows    10 paired, 1 unpaired \(0 without an end, 1 without a start\)$" \
		"$NXTOP" export -q "$f" --what flows
	[ "$(grep -c ' inferred  ' "$out")" -eq 5 ] ||
		fail "$f: text flows: $(cat "$out")"
done

# The Flow table is read, not kept as an unknown table.
expect 0 "" "$NXTOP" summary -q "$tmp/device_deps@latest"
grep -q 'unrecognised table "Flow"' "$out" &&
	fail "the Flow table is unrecognised: $(cat "$out")"

# A Flow row without in_id: the table is left out with one warning
# naming the file and row; the rest of the profile imports.
cp -R "$fx/parquet-device/deps_badflow@latest" "$tmp/"
chmod -R u+w "$tmp/deps_badflow@latest"
expect 0 'Flow\.parquet: row [0-9]+: missing "in_id" \(the Flow table is left out\)' \
	"$NXTOP" summary -q "$tmp/deps_badflow@latest"
[ "$(grep -c 'in_id' "$out")" -eq 1 ] || fail "bad Flow row: $(cat "$out")"

# Bad input: one line naming the file, the record and what was expected.
printf '{"instruction":[{"timestamp":1,"duration":2,"opcode":"MATMUL",%s' \
	'"predecessors":7}]}' >"$tmp/bad.json"
expect 1 'bad\.json: .*"predecessors" is a number, expected an array' \
	"$NXTOP" import -q "$tmp/bad.json"
[ "$(wc -l <"$err")" -eq 1 ] || fail "more than one line: $(cat "$err")"
no_temps "$tmp" "bad predecessors"
printf '{"instruction":[{"timestamp":1,"duration":2,"opcode":"MATMUL",%s' \
	'"predecessors":[{"type":"FLOW_DEPENDENCE"}]}]}' >"$tmp/bad.json"
expect 1 'bad\.json: .*a predecessor without "id"' \
	"$NXTOP" import -q "$tmp/bad.json"

[ "$failures" -eq 0 ]
