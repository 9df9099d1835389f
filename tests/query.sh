#!/bin/sh
# Search queries through nxtop export --query: a free word and its
# negation against counts jq makes from the profile JSON, every kind of
# term and its "-" complement adding up to all events, on a device and
# a system profile; errors at the column of the bad term or value.
set -u
. "${srcdir:-.}/tests/lib.sh"

command -v jq >/dev/null ||
	{ echo "SKIP: needs jq (./install-deps installs it)" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"

# A device profile of 325 instructions and 40 DMA packets whose names,
# layers, HLO names and queues hold the test words in mixed case.
awk 'BEGIN {
	split("TensorMatrix Tensor Vector Scalar GpSimd Sync", eng, " ")
	split("EVENT_SEMAPHORE MATMUL TENSOR_TENSOR DrainQueue ACTIVATE NOP", op, " ")
	nl = split("_dot.3|attn/drain_buf||mlp_up|50%_cut", layer, "|")
	nh = split("%dot.3 = dot(%p0, %p1)|%add.7 = add(%x)|drain.2|%sum_1", hlo, "|")
	split("identity_40 DRAIN_var unknown", var, " ")
	split("qSyncIO0-Q1-E0 Q0-E5 qDrain0-Q2-E3", sg, " ")
	printf "{\"instruction\": ["
	for (i = 0; i < 325; i++) {
		printf "%s{\"timestamp\": %d, \"duration\": %d, \"label\": \"%s\"," \
			" \"opcode\": \"%s\", \"layer\": \"%s\"", i ? ", " : "",
			1000 + i * 100, 50 + (i * 37) % 200, eng[i % 6 + 1],
			op[(i * 7) % 6 + 1], layer[(i * 3) % nl + 1]
		if (i % 11)
			printf ", \"hlo_name\": \"%s\"", hlo[(i * 5) % nh + 1]
		printf "}"
	}
	printf "], \"dma\": ["
	for (i = 0; i < 40; i++) {
		printf "%s{\"timestamp\": %d, \"duration\": 90, \"subgroup\": \"%s\"," \
			" \"queue_type\": \"data\", \"transfer_size\": %d",
			i ? ", " : "", 1050 + i * 700, sg[i % 3 + 1], 1024 * (i % 4 + 1)
		if (i % 4 < 3)
			printf ", \"variable\": \"%s\"", var[i % 4 + 1]
		printf "}"
	}
	print "]}"
}' > "$tmp/w.json"
p="$tmp/w.json"

# What a free word searches, per event: an instruction's opcode, HLO
# name, layer and row (its label); a DMA packet's variable ("unknown"
# when it has none) and queue (its subgroup less "-Qn-En"), which is
# also its row.
cat > "$tmp/fields.jq" <<'EOF'
def queue: .subgroup | sub("(-Q[0-9]+)?-E[0-9]+$"; "");
[(.instruction[] | {row: .label, text: [.opcode, .hlo_name, .layer, .label]}),
 (.dma[] | {row: queue, text: [(.variable // "unknown"), queue]})]
| map(.has = any(.text[]; (. // "") | ascii_downcase |
		 contains($w | ascii_downcase)))
EOF
total=$(jq '(.instruction | length) + (.dma | length)' "$p")
[ "$total" -eq 365 ] || fail "the generated profile has $total events"

# matches FILE QUERY: the number of events QUERY matches.
matches() {
	"$NXTOP" export -q "$1" --query="$2" --format json 2>"$err" |
		jq -e .matches || fail "query '$2' on $1: $(cat "$err")"
}

# (MLP and 50% only layers hold: found by the instructions' categories)
for w in drain EVENT_SEMAPHORE Vector % _ q1 dot unknown nosuchword MLP 50%; do
	want=$(jq --arg w "$w" -f "$tmp/fields.jq" "$p" |
		jq 'map(select(.has)) | length')
	got=$(matches "$p" "$w")
	[ "$got" = "$want" ] || fail "'$w': $got matches, jq counts $want"
	got=$(matches "$p" "-$w")
	[ "$got" = "$((total - want))" ] ||
		fail "'-$w': $got matches, jq counts $((total - want))"
done
# string_use, which lets a word no other column holds be searched as a
# name, lists exactly the strings each column holds, as SQL finds them
# (a DMA queue only where its row has another name: a word finds the
# others by the row)
if have sqlite3; then
	for c in "1 SELECT hlo_name FROM instruction" \
		"2 SELECT layer FROM instruction" \
		"4 SELECT d.queue FROM (SELECT slice_id, queue FROM dma_packet UNION
			SELECT slice_id, queue FROM dma_transfer) d JOIN slice s ON
			s.id = d.slice_id JOIN track t ON t.id = s.track_id WHERE
			t.name != (SELECT str FROM string WHERE id = d.queue)" \
		"8 SELECT name FROM slice" \
		"16 SELECT cat FROM slice WHERE id NOT IN (SELECT slice_id
			FROM instruction)"; do
		bit=${c%% *}
		want=$(sqlite3 "$p.nxdb" "WITH x(v) AS (${c#* }) SELECT group_concat(v)
			FROM (SELECT DISTINCT v FROM x WHERE v IS NOT NULL ORDER BY v)" 2>&1)
		got=$(sqlite3 "$p.nxdb" "SELECT group_concat(str) FROM (SELECT str
			FROM string_use WHERE columns & $bit ORDER BY str)" 2>&1)
		[ "$got" = "$want" ] || fail "string_use, column $bit: $got, not $want"
		[ "$bit" = 4 ] || [ -n "$want" ] || fail "no value of column $bit"
	done
	# every instruction's layer is its slice's category: no row says
	# otherwise, and a word that layers hold is found without a join
	[ "$(sqlite3 "$p.nxdb" "SELECT count(*) FROM instruction i JOIN slice s
		ON s.id = i.slice_id WHERE i.layer IS NOT s.cat")" = 0 ] ||
		fail "an instruction's layer is not its slice's category"
	[ "$(sqlite3 "$p.nxdb" "SELECT count(*) FROM string_use WHERE str = -1")" = 0 ] ||
		fail "string_use says layers are apart from categories"
fi
# the case of the issue: the Vector events without the word
want=$(jq --arg w drain -f "$tmp/fields.jq" "$p" |
	jq 'map(select(.row == "Vector" and (.has | not))) | length')
[ "$want" -gt 0 ] || fail "no Vector event without 'drain' in the profile"
got=$(matches "$p" "engine=Vector -DRAIN")
[ "$got" = "$want" ] || fail "'engine=Vector -DRAIN': $got matches, jq counts $want"

# complement: TERM and -TERM split all events, for every kind of term
for t in 'name=MATMUL' 'opcode=NOP' 'opcode!=NOP' 'engine=Vector' \
	'row=/^q/' 'layer~drain' 'layer!~drain' 'hlo=/^%dot/' 'hlo_name!=/add/' \
	'queue=Q0' 'variable=identity_40' 'category=data' 'dur>100ns' \
	'dur<=99ns' 'start>=10us' 'end<20us' 'transfer_size>=2048' \
	'read_size=0' 'id=1' 'id!=1' 'pc=5' 'nc=0' 'args.x=1' 'args.x!~y' \
	'operands~a' '/drain|dot/' '"drain q"' 'source=neuron_rt'; do
	a=$(matches "$p" "$t")
	b=$(matches "$p" "-$t")
	[ "$((a + b))" -eq "$total" ] ||
		fail "'$t' matches $a, '-$t' $b: not $total together"
done

# the same on a system profile (no typed device fields at all)
cp "$srcdir/tests/fixtures/system_small.json" "$tmp/s.json"
total=$(jq '.trace_event | length' "$tmp/s.json")
for t in nrt 'nc=0' 'lnc=0' 'model~model' 'process=1' 'thread>0' \
	'instance=/^i-/' 'source=neuron_rt' 'name=nrt_execute' 'layer=x' \
	'dur>1us' 'id=5'; do
	a=$(matches "$tmp/s.json" "$t")
	b=$(matches "$tmp/s.json" "-$t")
	[ "$((a + b))" -eq "$total" ] ||
		fail "system: '$t' matches $a, '-$t' $b: not $total together"
done

# a bad query is a usage error, told in one line before the profile is
# read; a costly regex among them, refused at once (regcomp would take
# gigabytes and seconds)
cp "$p" "$tmp/fresh.json"
ms() { date +%s%N | cut -c1-13; }
t0=$(ms)
expect 2 "^nxtop: --query: column 1: regex repeats a part more than 255 times$" \
	"$NXTOP" export -q "$tmp/fresh.json" --query '/(a|b?){12000}c/'
t1=$(ms)
[ $((t1 - t0)) -lt 1000 ] || fail "the costly regex took $((t1 - t0)) ms to refuse"
[ "$(wc -l < "$err")" -eq 1 ] || fail "not one line: $(cat "$err")"
no_file "$tmp/fresh.json.nxdb"
expect 2 "^nxtop: --query: column 19: regex too costly to compile" \
	"$NXTOP" export -q "$tmp/fresh.json" --query 'engine=Vector hlo=/((a{99}){99}){99}/'
expect 2 "^nxtop: --query: column 1: regex nests groups more than 32 deep$" \
	"$NXTOP" export -q "$tmp/fresh.json" \
	--query "/$(printf '(%.0s' $(seq 33))a$(printf ')%.0s' $(seq 33))/"
expect 2 "^nxtop: --query: column 1: unknown field 'opcdoe'" \
	"$NXTOP" export -q "$tmp/fresh.json" --query 'opcdoe=X'
no_file "$tmp/fresh.json.nxdb"
# an error names the column of what is wrong in the query: an unknown
# field or an operator that does not suit it, the term's; a value that
# is not one, the value's; the viewer's search prompt says the same
col() { awk -v q="$1" -v w="$2" 'BEGIN { print index(q, w) }'; }
if locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	mkdir "$tmp/prompt"
	printf 'keys /name=a dur>abc<Enter>\ndump typed\n' > "$tmp/prompt.keys"
	env LC_ALL=C.UTF-8 "$NXTOP" -q --headless="$tmp/prompt.keys" \
		--dump="$tmp/prompt" "$p" >/dev/null 2>&1 ||
		fail "the viewer failed on a bad query"
	grep -q "^column $(col 'name=a dur>abc' abc): expected a time like 2us" \
		"$tmp/prompt/typed" ||
		fail "search prompt: not the value's column: $(cat "$tmp/prompt/typed")"
fi
for q in 'name=a dur>abc@abc@expected a time like 2us' \
	'name=a  size>"1.1B"@"1.1B"@expected bytes like 65536' \
	'name=a -layer>3@layer@.layer. is text: use' \
	'name=a id>5@id@ids compare with = or !=' \
	'name=a hlo=/[/@/[/@invalid regex' \
	'name=a /x{300}/@/x@regex repeats a part'; do
	text=${q%%@*} rest=${q#*@}
	what=${rest%%@*} msg=${rest#*@}
	expect 2 "^nxtop: --query: column $(col "$text" "$what"): $msg" \
		"$NXTOP" export -q "$tmp/fresh.json" --query "$text"
done
no_file "$tmp/fresh.json.nxdb"
# an ordinary regex with brackets and escapes is taken
expect 0 '"matches": [1-9]' "$NXTOP" export -q "$p" --format json \
	--query 'hlo=/^%(dot|add)\.[0-9]{1,3} [=(]/ layer=/[[:alpha:]_]{2,}/'

# a query written as if terms could be joined or grouped finds nothing,
# and says why; the same words where they do match say nothing more
expect 0 "^Note     'or' is a word here: every term must hold$" \
	"$NXTOP" export -q "$p" --query 'opcode=MATMUL OR opcode=NOP'
expect 0 "^Note     parentheses do not group terms: they are part of a word here$" \
	"$NXTOP" export -q "$p" --query '(MATMUL NOP)'
expect 0 "^Matches  0 " "$NXTOP" export -q "$p" --query 'opcode=NOPE'
grep -q '^Note' "$out" && fail "a note where no word was to blame: $(cat "$out")"
# ... in JSON and CSV too (null and empty where there is none)
expect 0 "\"note\": \"'or' is a word here: every term must hold\"" \
	"$NXTOP" export -q "$p" --query 'opcode=MATMUL OR opcode=NOP' --format json
expect 0 '"note": null' "$NXTOP" export -q "$p" --query 'opcode=NOPE' --format json
"$NXTOP" export -q "$p" --query '(MATMUL NOP)' --format csv | tr -d '\r' > "$out"
[ "$(awk -F, 'NR == 1 { print $NF } NR == 2 { print $NF }' "$out")" = "note
parentheses do not group terms: they are part of a word here" ] ||
	fail "CSV note: $(head -2 "$out")"
printf 'size 160x30\nkeys /dur>1us<Space>and<Space>engine=Vector<Enter>n\ndump and\n' \
	> "$tmp/and.keys"
expect 0 "" "$NXTOP" -q --headless="$tmp/and.keys" --dump="$tmp" "$p"
grep -q "no match ('and' is a word here: every term must hold)" "$tmp/and" ||
	fail "the viewer does not say why: $(tail -3 "$tmp/and")"

pass
