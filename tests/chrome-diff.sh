#!/bin/sh
# Chrome JSON's complete (X) and instant events as nxtop exports them
# equal what jq computes from the file: name, start and duration in ns.
# jq (1.6) holds numbers as doubles, so the times are turned into
# strings first (sed) and converted to ns by string arithmetic: µs with
# up to three decimals are exact ns, further decimals round to the
# nearest ns (halves away from zero), exponents shift the point. Covers
# the repo's Chrome fixtures and a generated trace with awkward cases:
# numbers as strings, 4+ decimals, epoch µs beyond 2^53 ns, exponents,
# unicode escapes in names, duplicate keys, shuffled keys, nested args,
# a top-level array, gzip.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch

need jq

# name|ts|dur per X or instant event; ts relative to the earliest one
cat >"$tmp/want.jq" <<'JQ'
# a decimal string (sign, exponent) as [whole µs, ns within the µs]
def parts:
	capture("^(?<s>-?)(?<m>[0-9]*)(\\.(?<f>[0-9]*))?([eE](?<e>[-+]?[0-9]+))?$") as $c
	| ("0" * 30) as $z
	| ($z + $c.m + ($c.f // "") + $z) as $d
	| (30 + ($c.m | length) + (($c.e // "0") | tonumber)) as $p
	| [($d[0:$p] | tonumber), ($d[$p:$p + 3] | tonumber),
	   ($d[$p + 3:$p + 4] | tonumber)]
	| (if .[2] >= 5 then [.[0], .[1] + 1] else [.[0], .[1]] end)
	| (if .[1] == 1000 then [.[0] + 1, 0] else . end)
	| if $c.s == "-" then [-.[0], -.[1]] else . end;
def ns($t0): parts | (.[0] - $t0[0]) * 1000 + .[1] - $t0[1];
(if type == "array" then . else .traceEvents end)
| [.[] | select(.ph == "X" or .ph == "i" or .ph == "I" or .ph == "R")]
| (map(.ts | parts) | min) as $t0
| .[] | "\(.name // "")|\(.ts | ns($t0))|\(if .ph == "X" and .dur then .dur | ns([0, 0]) else 0 end)"
JQ

# the X and instant events of the export, ts relative to the earliest
got() {
	"$NXTOP" export -q "$1" --what events --format json >"$tmp/got.json" ||
		fail "$1: export failed"
	jq -r '(.events | map(.ts_ns) | min) as $t0
		| .events[] | "\(.name)|\(.ts_ns - $t0)|\(.dur_ns)"' "$tmp/got.json"
}

# numbers of "ts" and "dur" as strings, for jq
strings() {
	gzip -dcf "$1" | sed -E 's/"(ts|dur)"[[:space:]]*:[[:space:]]*(-?[0-9][0-9.eE+-]*)/"\1":"\2"/g'
}

check() {
	strings "$1" | jq -r -f "$tmp/want.jq" | sort >"$tmp/want" ||
		fail "$1: jq failed"
	[ -s "$tmp/want" ] || fail "$1: no events to compare"
	got "$1" | sort >"$tmp/got"
	diff -u "$tmp/want" "$tmp/got" >&2 ||
		fail "$(basename "$1"): events differ from jq's"
}

# Only the fixture's X, instant and metadata events (one a line there),
# so that the export holds nothing jq does not compute: each line without
# the array's opening or closing brackets and the comma after it.
only_x() {
	gzip -dcf "$1" | awk '
	function bal(s,  t) { t = s; return gsub(/[[{]/, "", t) - gsub(/[]}]/, "", s) }
	NR == 1 { print (/^\[/ ? "[" : "{\"traceEvents\":["); close_with = /^\[/ ? "]" : "]}" }
	/"ph":"[XiIRM]"/ { sub(/^(\[|\{"traceEvents":\[)/, ""); sub(/,[[:space:]]*$/, "");
		while (bal($0) < 0) $0 = substr($0, 1, length($0) - 1);
		printf "%s%s\n", (n++ ? "," : ""), $0 }
	END { print close_with }' >"$2"
}

for f in chrome_epoch.json chrome_flows.json chrome_nesting.json \
	chrome_phases.json trace_same.json chrome_array.json.gz; do
	only_x "$srcdir/tests/fixtures/$f" "$tmp/${f%.gz}"
	check "$tmp/${f%.gz}"
done

# Generated: every line a different awkward case, in a shuffled order.
awk 'BEGIN {
	printf "{\"traceEvents\":[\n";
	# %.0f: awk may print %d in 32 bits
	for (i = 0; i < 3000; i++) {
		us = 1729888371056597 + i * 7;
		k = i % 8;
		if (k == 0)	# plain, integer µs
			e = sprintf("\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"n%d\",\"ts\":%.0f,\"dur\":3", i, us);
		else if (k == 1)	# strings, 3 decimals
			e = sprintf("\"name\":\"s%d\",\"dur\":\"1.250\",\"ts\":\"%.0f.613\",\"ph\":\"X\",\"tid\":2,\"pid\":1", i, us);
		else if (k == 2)	# 4 to 6 decimals: rounding
			e = sprintf("\"ph\":\"X\",\"pid\":1,\"tid\":3,\"name\":\"r%d\",\"ts\":%.0f.%06d,\"dur\":0.0005", i, us, (i * 7919) % 1000000);
		else if (k == 3)	# unicode escapes, nested args
			e = sprintf("\"ph\":\"X\",\"pid\":1,\"tid\":4,\"name\":\"u\\u00e9\\ud83d\\ude00%d\",\"ts\":%.0f.5,\"dur\":2,\"args\":{\"a\":{\"b\":[1,{\"c\":\"x\"}]}}", i, us);
		else if (k == 4)	# duplicate keys: the last one counts
			e = sprintf("\"ph\":\"X\",\"pid\":1,\"tid\":5,\"name\":\"first\",\"ts\":1,\"name\":\"d%d\",\"dur\":1,\"ts\":%.0f,\"dur\":4", i, us);
		else if (k == 5)	# instants, thread and process scope
			e = sprintf("\"s\":\"%s\",\"ts\":%.0f.001,\"name\":\"i%d\",\"ph\":\"i\",\"tid\":6,\"pid\":1", i % 2 ? "t" : "p", us, i);
		else if (k == 6)	# exponents
			e = sprintf("\"ph\":\"X\",\"pid\":1,\"tid\":7,\"name\":\"e%d\",\"ts\":%.15fe15,\"dur\":2.5e-3", i, us / 1e15);
		else	# whitespace and an escaped quote
			e = sprintf(" \"ph\" : \"X\" , \"pid\" : 1 , \"tid\" : 8 , \"name\" : \"q\\\"%d\" , \"ts\" : %.0f.999 , \"dur\" : 0 ", i, us);
		line[i] = "{" e "}";
	}
	srand(16);
	for (i = 2999; i > 0; i--) { j = int(rand() * (i + 1)); t = line[i]; line[i] = line[j]; line[j] = t }
	for (i = 0; i < 3000; i++) printf "%s%s\n", line[i], i < 2999 ? "," : "";
	printf "]}\n" }' >"$tmp/gen.json"
check "$tmp/gen.json"
gzip -c "$tmp/gen.json" >"$tmp/gen.json.gz"
check "$tmp/gen.json.gz"

[ "$failures" -eq 0 ]
