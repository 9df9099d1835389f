#!/bin/sh
# Flows of a Chrome trace: every paired flow of the fixture is exported
# with both ends, as an independent jq binding of the flow steps finds
# them (s/t/f by category and id in time order; a step binds to the
# deepest slice enclosing it on its thread, an f without bp "e" to the
# next slice to start there); ends without a partner are counted; the
# three formats agree; 64-bit ids stay exact. Flow v2 (bind_id with
# flow_in/flow_out on slices) against a jq pairing per id.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch

need jq

cat >"$tmp/flows.jq" <<'JQ'
def ns: . * 1000 | round;
.traceEvents as $ev
| [$ev[] | select(.ph == "X")] as $x
| ([$x[].ts | ns] | min) as $t0
| def bind($e):
    [$x[] | select(.pid == $e.pid and .tid == $e.tid)] as $th
    | if $e.ph == "f" and ($e.bp // "") != "e"
      then [$th[] | select(.ts >= $e.ts)] | sort_by(.ts) | .[0]
      else [$th[] | select(.ts <= $e.ts and .ts + .dur >= $e.ts)]
           | sort_by(.ts, -.dur) | .[-1] end;
  [$ev[] | select(.ph == "s" or .ph == "t" or .ph == "f")]
| group_by(.cat, (.id | tostring))
| map(sort_by(.ts))
| ( [.[] | select(length > 1) | . as $g
     | range(1; length) as $i | [bind($g[$i - 1]), bind($g[$i])]
     | "\(.[0].name)|\((.[0].ts | ns) - $t0)|\(.[1].name)|\((.[1].ts | ns) - $t0)"]
    | sort | .[]),
  "unpaired \([.[] | select(length == 1)] | length)"
JQ

f="$srcdir/tests/fixtures/chrome_flows.json"
# got FILE: the paired flows nxtop exports (from|ts|to|ts, sorted) and
# its count of unpaired ends, in $tmp/got, the form of the jq listings
got() {
	expect 0 "" "$NXTOP" export -q "$1" --what flows --format csv
	tail -n +2 "$out" | tr -d '\r' |
		awk -F, '$4 != "" && $8 != "" { print $7 "|" $6 "|" $11 "|" $10 }' |
		sort >"$tmp/got"
	awk -F, 'NR > 1 && ($4 == "" || $8 == "")' "$out" | wc -l |
		awk '{ print "unpaired " $1 }' >>"$tmp/got"
}

cp "$f" "$tmp/flows.json"
f="$tmp/flows.json"
jq -r -f "$tmp/flows.jq" "$f" >"$tmp/want" || fail "jq failed"

got "$f"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "CSV flows differ from jq: $(diff "$tmp/want" "$tmp/got")"

# JSON: the same count and totals; the 64-bit id exact
expect 0 "" "$NXTOP" export -q "$f" --what flows --format json
paired=$(grep -c '|' "$tmp/want")
jq -e --argjson p "$paired" '.paired == $p and .unpaired_out == 1 and
	.unpaired_in == 1 and .count == $p + 2 and
	([.flows[] | select(.out != null and .in != null)] | length) == $p and
	([.flows[] | select(.flow_id == "18446744073709551615")][0]
	 | .out.name == "A" and .in.name == "D")' "$out" >/dev/null ||
	fail "JSON flows: $(cat "$out")"

# text: one line per flow and the totals
expect 0 "^Flows    $paired paired, 2 unpaired \(1 without an end, 1 without a start\)$" \
	"$NXTOP" export -q "$f" --what flows
lines=$(grep -c -- '  ->  ' "$out")
[ "$lines" -eq $((paired + 2 + 1)) ] || fail "text flows: $lines lines: $(cat "$out")"
expect 2 "unknown --what 'flow'.*events or flows" "$NXTOP" export -q "$f" --what flow

# Flow v2: slices with bind_id, flow_out starting and flow_in ending a
# flow (both: a step), in time order per id; an id apart from the s/t/f
# ids; a bind_id above 2^63 exact.
cat >"$tmp/bind.jq" <<'JQ'
def ns: . * 1000 | round;
([.traceEvents[] | .ts // empty | ns] | min) as $t0
| [.traceEvents[] | select(.bind_id != null and
    ((.flow_in // false) or (.flow_out // false)))]
| group_by(.bind_id | tostring)
| map(sort_by(.ts))
| ([.[] | . as $g | range(1; length) as $i
    | select($g[$i - 1].flow_out and $g[$i].flow_in)
    | "\($g[$i - 1].name)|\(($g[$i - 1].ts | ns) - $t0)|\($g[$i].name)|\(($g[$i].ts | ns) - $t0)"]
   | .[]),
  "unpaired \([.[] | select(length == 1)] | length)"
JQ
f="$tmp/bind.json"
cp "$srcdir/tests/fixtures/chrome_bind.json" "$f"
{
	jq -r -f "$tmp/flows.jq" "$f" | grep -v '^unpaired'
	jq -r -f "$tmp/bind.jq" "$f" | grep -v '^unpaired'
} | sort >"$tmp/want" || fail "jq failed"
jq -r -f "$tmp/flows.jq" "$f" | sed -n 's/^unpaired //p' >"$tmp/n1"
jq -r -f "$tmp/bind.jq" "$f" | sed -n 's/^unpaired //p' >"$tmp/n2"
echo "unpaired $(($(cat "$tmp/n1") + $(cat "$tmp/n2")))" >>"$tmp/want"
[ "$(grep -c '|' "$tmp/want")" -eq 4 ] || fail "jq bind flows: $(cat "$tmp/want")"
got "$f"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "bind_id flows differ from jq: $(diff "$tmp/want" "$tmp/got")"
grep -q '^18446744073709551615,' "$out" || fail "bind_id 2^64-1: $(cat "$out")"
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,%s}]}' \
	'"name":"a","bind_id":1,"flow_in":"yes"' >"$tmp/bad.json"
expect 1 'bad\.json: .*"flow_in" is a string, expected true or false' \
	"$NXTOP" import -q "$tmp/bad.json"

[ "$failures" -eq 0 ]
