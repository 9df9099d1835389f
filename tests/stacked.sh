#!/bin/sh
# The stacked timeline of nxtop A B, on device_small.json and its copy
# device_small_b.json (an opcode renamed, one moved to another opcode, a
# duration doubled, a layer renamed): :align on an event of each side
# moves B by the difference of their starts (from jq); the window's and
# a box's figures over both profiles hold each engine's instruction
# count and time on both sides as jq sums them, with B-A and % as awk
# computes them, and a box over both sides' rows whole equals the
# window; n walks both sides' matches in time order; :compare B opens B
# from a timeline opened alone; the Compare view's e and E write what
# nxtop diff prints, byte for byte; two system profiles stack too, and Enter
# opens B's device profiles; a system profile against a device profile
# stays bad input.
set -u
. "${srcdir:-.}/tests/lib.sh"

need jq
scratch
export NXTOP_EXPORT_DIR="$tmp/out"
mkdir "$tmp/out"
a="$tmp/a.json"
b="$tmp/b.json"
cp "$srcdir/tests/fixtures/device_small.json" "$a"
cp "$srcdir/tests/fixtures/device_small_b.json" "$b"
expect 0 "" "$NXTOP" import -q "$a"
expect 0 "" "$NXTOP" import -q "$b"

# Rows from the top: A's heading, Engines, TensorMatrix, Tensor, Vector
# (4 down); B's Vector is 20 rows further. A's Vector event covering
# 5.01 us is marked, then B's covering 6.01 us; then the start again.
# 0 W: the window over everything; then both headings folded and boxed
# from 0 to the end.
cat >"$tmp/ui.keys" <<'KEYS'
size 120x50
keys q:zoom 4us 8us<Enter>jjjj:goto 5.01us<Enter>:align<Enter>
keys jjjjjjjjjjjjjjjjjjjj:goto 6.01us<Enter>:align<Enter>
dump aligned
keys :align start<Enter>
dump start
keys 0WEcq
keys kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk<Space>j<Space>
keys :goto 0<Enter>vk:goto 1.869ms<Enter><Enter>Ecq
KEYS
expect 0 "" "$NXTOP" -q --headless="$tmp/ui.keys" --dump="$tmp" "$a" "$b"

# the event covering T on engine E
ts_at() {
	jq --arg e "$2" --argjson t "$3" '[.instruction[] |
	    (.timestamp | tonumber) as $s | select(.label == $e and $s <= $t
	    and $s + (.duration | tonumber) > $t) | $s] | first' "$1"
}
ta=$(ts_at "$a" Vector 5010)
tb=$(ts_at "$b" Vector 6010)
sa=$(jq '[.instruction[].timestamp | tonumber] | min' "$a")
sb=$(jq '[.instruction[].timestamp | tonumber] | min' "$b")
# B moved from its start on A's by the marks' difference, in µs
want=$(awk -v d=$((ta - tb - (sa - sb))) 'BEGIN {
	printf "B %s%g µs", d < 0 ? "-" : "+", (d < 0 ? -d : d) / 1000 }')
head -1 "$tmp/aligned" | grep -q "  $want\$" ||
	fail "aligned: no '$want' in: $(head -1 "$tmp/aligned")"
head -1 "$tmp/start" | grep -q '  B at start$' ||
	fail "align start: $(head -1 "$tmp/start")"

# the window over both, B moved by :align as above, exported (W, e, E
# j): each side's range from its own start, A's from 4 us as :zoom put
# it, B's as much earlier as B was moved later (jq); its figure the
# active time, labelled so, and the same as the table's Active time
d=$((ta - tb - (sa - sb)))
cat >"$tmp/win.keys" <<'KEYS'
size 120x50
keys q:zoom 4us 8us<Enter>jjjj:goto 5.01us<Enter>:align<Enter>
keys jjjjjjjjjjjjjjjjjjjj:goto 6.01us<Enter>:align<Enter>WeEjq
KEYS
mkdir "$tmp/winx"
NXTOP_EXPORT_DIR="$tmp/winx" expect 0 "" "$NXTOP" -q \
	--headless="$tmp/win.keys" --dump="$tmp" "$a" "$b"
wj="$tmp/winx/nxtop-window-1.json"
jq -e --argjson d "$d" '.scope == "window" and .a.start_ns == 4000 and
	.b.start_ns == 4000 - $d and .a.end_ns - .a.start_ns ==
	.b.end_ns - .b.start_ns and (.rows[] | select(.figure == "Range")
	| .value_a == .value_b) as $r | $r and
	(.rows[] | select(.figure == "Range") | .value_a) ==
	.a.end_ns - .a.start_ns and
	(.rows[] | select(.figure == "Active time") | .value_a) == .a.active_ns
	and (.rows[] | select(.figure == "Active time") | .value_b) ==
	.b.active_ns and .active_delta_ns == .b.active_ns - .a.active_ns
	and (.a | has("total_ns") | not)' "$wj" >/dev/null ||
	fail "window JSON: range or active time: $(head -30 "$wj")"
wt="$tmp/winx/nxtop-window-1.txt"
sed -n 4p "$wt" | grep -q "^Range    A 4 µs \.\. .*, B $(awk -v d=$d 'BEGIN {
	printf "%g µs", (4000 - d) / 1000 }') \.\. " ||
	fail "window text: no range line: $(head -6 "$wt")"
sed -n 5p "$wt" | grep -q '^Active   ' && ! grep -q '^Total' "$wt" ||
	fail "window text: the active time is not labelled so: $(head -6 "$wt")"

# per engine: "E instructions,count,a,b" and "E instruction time,ns,a,b"
sums() {
	jq -r '.instruction | group_by(.label)[] |
	    [.[0].label, length, (map(.duration | tonumber) | add)] | @tsv' \
	    "$1" | sort
}
sums "$a" >"$tmp/sa"
sums "$b" >"$tmp/sb"
join -t "$(printf '\t')" "$tmp/sa" "$tmp/sb" | awk -F'\t' '{
	printf "%s instructions,count,%d,%d,%d\n", $1, $2, $4, $4 - $2
	printf "%s instruction time,ns,%d,%d,%d\n", $1, $3, $5, $5 - $3 }' |
	sort >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 12 ] || fail "jq: not 6 engines: $(cat "$tmp/want")"
win="$tmp/out/nxtop-window-1.csv"
box="$tmp/out/nxtop-selection-1.csv"
for f in "$win" "$box"; do
	[ -f "$f" ] || { fail "no $f"; continue; }
	tr -d '\r' <"$f" | grep ' instruction' | cut -d, -f1-5 | sort >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		fail "$f: engines differ from jq: $(diff "$tmp/want" "$tmp/got")"
	# every percentage is (B-A)/A, empty without a base
	tr -d '\r' <"$f" | awk -F, 'NR > 1 && $2 != "" {
		want = $3 == 0 ? "" : sprintf("%.6f", ($4 - $3) * 100 / $3)
		got = $6 == "" ? "" : sprintf("%.6f", $6)
		if (want != got || $5 != $4 - $3) print }' >"$tmp/bad"
	[ -s "$tmp/bad" ] && fail "$f: deltas: $(cat "$tmp/bad")"
done
grep -q '^Tensor instruction time,ns,82,164,82,100,both' "$win" ||
	fail "the doubled duration: $(cat "$win")"
# a box over both headings, from 0 to past the last start: the window
cmp -s "$win" "$box" || fail "box over both is not the window: $(diff "$win" "$box")"

# n walks the matches of both sides in time order, A's before B's at
# one time, and wraps: against jq's ACTIVATE instructions of each
cat >"$tmp/n.keys" <<'KEYS'
size 120x50
keys q/opcode=ACTIVATE<Enter>
keys n
dump n1
keys n
dump n2
keys n
dump n3
keys n
dump n4
KEYS
expect 0 "" "$NXTOP" -q --headless="$tmp/n.keys" --dump="$tmp" "$a" "$b"
for s in A B; do
	f=$a
	[ $s = B ] && f=$b
	jq -r --arg s "$s" '.instruction[] | select(.opcode == "ACTIVATE") |
	    [(.timestamp | tonumber), $s, .label] | @tsv' "$f"
done | sort -k1,1n -k2,2 | awk -F'\t' '{ print "ACTIVATE on " $3 " (" $2 ")" }' \
	>"$tmp/n-want"
[ "$(wc -l <"$tmp/n-want")" -eq 3 ] || fail "jq: not 3 matches: $(cat "$tmp/n-want")"
head -n 1 "$tmp/n-want" >>"$tmp/n-want"	# wrapped to the first
for k in 1 2 3 4; do
	tail -n 1 "$tmp/n$k" | sed 's/ at .*//'
done >"$tmp/n-got"
cmp -s "$tmp/n-want" "$tmp/n-got" ||
	fail "n over both sides: $(diff "$tmp/n-want" "$tmp/n-got")"
tail -n 1 "$tmp/n4" | grep -q 'wrapped to the first' ||
	fail "n did not wrap: $(tail -n 1 "$tmp/n4")"

# :compare B from A's timeline stacks B as nxtop A B does; a second
# :compare with a path is no table's name
cat >"$tmp/cmp.keys" <<KEYS
size 120x50
keys :compare $b<Enter>
dump cmp-view
keys q
dump cmp-stacked
keys :compare $tmp/missing.json<Enter>
dump cmp-again
KEYS
expect 0 "" "$NXTOP" -q --headless="$tmp/cmp.keys" --dump="$tmp" "$a"
head -1 "$tmp/cmp-view" | grep -q ' › compare  layers, B: ' ||
	fail ":compare B: no Compare view: $(head -1 "$tmp/cmp-view")"
grep -q '^▾ B: graph.neff' "$tmp/cmp-stacked" ||
	fail ":compare B: not stacked: $(cat "$tmp/cmp-stacked")"
tail -1 "$tmp/cmp-again" | grep -q "compare: B is open; '.*missing.json' is not overall" ||
	fail ":compare again: $(tail -1 "$tmp/cmp-again")"

# e and E in the Compare view write what nxtop diff prints for the
# same table, byte for byte: the layers, then the overall figures, in
# text, JSON and CSV; the profiles named as on the command line
# (relative here), as nxtop diff names them. The window's export (W, e)
# names A and B as nxtop diff's header does.
cat >"$tmp/cmpx.keys" <<'KEYS'
size 120x50
keys eEjEc:what overall<Enter>eEjEcq0We
KEYS
mkdir "$tmp/cmpx"
(cd "$tmp" && NXTOP_EXPORT_DIR="$tmp/cmpx" exec "$NXTOP" -q \
	--headless="$tmp/cmpx.keys" --dump="$tmp" a.json b.json) ||
	fail "the viewer failed on the Compare view's exports"
for x in layers:1 overall:2; do
	for f in text:txt json:json csv:csv; do
		file="$tmp/cmpx/nxtop-compare-${x#*:}.${f#*:}"
		(cd "$tmp" && "$NXTOP" diff -q a.json b.json --what "${x%:*}" \
			--format "${f%:*}") >"$tmp/cmpx-want" 2>&1 ||
			fail "diff --what ${x%:*}: $(cat "$tmp/cmpx-want")"
		cmp -s "$tmp/cmpx-want" "$file" ||
			fail "${file##*/} is not nxtop diff --what ${x%:*}: $(diff "$tmp/cmpx-want" "$file")"
	done
done
grep -q '^A  .* (device)  a\.json$' "$tmp/cmpx/nxtop-compare-1.txt" ||
	fail "the Compare view's export does not name A's file: $(head -3 "$tmp/cmpx/nxtop-compare-1.txt")"
(cd "$tmp" && "$NXTOP" diff -q a.json b.json) | sed -n 2,3p >"$tmp/cmpx-want"
sed -n 2,3p "$tmp/cmpx/nxtop-window-1.txt" | cmp -s "$tmp/cmpx-want" - ||
	fail "the window's export names A and B otherwise than nxtop diff: $(head -3 "$tmp/cmpx/nxtop-window-1.txt")"

# y while stacked: the line reopens the stacked timeline as it was, B
# moved by :align (--align), the search and the zoom; run again, it
# gives the same screen
k24=kkkkkkkkkkkkkkkkkkkkkkkk
cat >"$tmp/y.keys" <<KEYS
size 200x50
keys q:zoom 4us 8us<Enter>jjjj:goto 5.01us<Enter>:align<Enter>
keys jjjjjjjjjjjjjjjjjjjj:goto 6.01us<Enter>:align<Enter>$k24
keys /opcode=ACTIVATE<Enter><C-l>
dump y-before
keys y
dump y-line
KEYS
expect 0 "" "$NXTOP" -q --headless="$tmp/y.keys" --dump="$tmp" "$a" "$b"
line=$(tail -n 1 "$tmp/y-line" | sed 's/  .*//')
case $line in
"nxtop $a $b --align=$(((ta - tb) - (sa - sb)))ns --search opcode=ACTIVATE --zoom="*) ;;
*) fail "y stacked: not the line wanted: $line" ;;
esac
printf 'size 200x50\ndump y-again\n' >"$tmp/again.keys"
eval "\"\$NXTOP\" -q --headless=\"\$tmp/again.keys\" --dump=\"\$tmp\" ${line#nxtop }" ||
	fail "y stacked: the line failed: $line"
cmp -s "$tmp/y-before" "$tmp/y-again" ||
	fail "y stacked: not the same screen: $(diff "$tmp/y-before" "$tmp/y-again")"
expect 2 "^nxtop: --align goes with two profiles" "$NXTOP" --align=1us "$a"
expect 2 "^nxtop: --align: '1 parsec' is not a time like -1.2ms" \
	"$NXTOP" -q --headless="$tmp/again.keys" --dump="$tmp" --align='1 parsec' "$a" "$b"

# flows on B's rows: B aligned so that its event A starts where A's
# event B does; F on B's B follows its flow to B's C, at C's start in B
# moved as B is (jq), and Backspace comes back to B's B
fa="$tmp/fa.json"
fb="$tmp/fb.json"
cp "$srcdir/tests/fixtures/chrome_flows.json" "$fa"
cp "$srcdir/tests/fixtures/chrome_flows_b.json" "$fb"
x_ts() { jq --arg n "$2" '[.traceEvents[] | select(.ph == "X" and .name == $n) | .ts] | first' "$1"; }
ab=$(x_ts "$fa" B)
ba=$(x_ts "$fb" A)
bb=$(x_ts "$fb" B)
bc=$(x_ts "$fb" C)
cat >"$tmp/f.keys" <<KEYS
size 100x30
keys qjjjj:goto ${ab}us<Enter>:align<Enter>jjjjj:goto ${ba}us<Enter>:align<Enter>
keys jj:goto $((bb + ab - ba))us<Enter>F<Enter>
dump f-followed
keys <Backspace>
dump f-back
KEYS
expect 0 "" "$NXTOP" -q --headless="$tmp/f.keys" --dump="$tmp" "$fa" "$fb"
sed -n 2p "$tmp/f-followed" | grep -q "^$((bc + ab - ba)) µs " ||
	fail "F on B: not at $((bc + ab - ba)) µs: $(sed -n 2p "$tmp/f-followed")"
sed -n 2p "$tmp/f-back" | grep -q "^$((bb + ab - ba)) µs " ||
	fail "Backspace on B: $(sed -n 2p "$tmp/f-back")"

# two system profiles stack as device profiles do. Bundle A: the small
# system profile and device_small.json; bundle B, not imported before
# (nxtop A B imports its device profiles first): nrt_execute 10 lasts
# longer (jq) and its device profile is device_small_b.json. :align on
# A's nrt_execute on NeuronCore 0, then on B's on NeuronCore 2, moves B
# by the difference of their starts (jq); Enter twice on B's
# nrt_execute on NeuronCore 0 shows B's duration, then opens B's device
# profile: the breadcrumb and status line say B, and B's own opcode is
# found there as often as jq counts it; A's device profile, imported in
# the background meanwhile, opens from A's nrt_execute; :group regroups
# both sides.
mkdir "$tmp/sysa" "$tmp/sysb"
cp "$srcdir/tests/fixtures/system_small.json" "$tmp/sysa/system_profile.json"
cp "$a" "$tmp/sysa/device_profile_model_1578576049.json"
jq '(.trace_event[] | select(.id == 10) | .duration) = "750000"' \
	"$srcdir/tests/fixtures/system_small.json" >"$tmp/sysb/system_profile.json"
cp "$b" "$tmp/sysb/device_profile_model_1578576049.json"
cp "$tmp/sysa/system_profile.json" "$tmp/sa.json"
cat >"$tmp/sys.keys" <<'KEYS'
size 120x50
keys q
dump sys
keys /name=nrt_execute nc=0<Enter>n:align<Enter>/name=nrt_execute nc=2<Enter>nn:align<Enter>
dump sys-aligned
keys :align start<Enter>/name=nrt_execute nc=0<Enter>nn<Enter>
dump sys-details
keys <Enter>
dump sys-drilled
keys /opcode=TENSOR_REDUCE_V2<Enter>
dump sys-found
keys <Backspace>/name=nrt_execute nc=0<Enter>n<Enter><Enter>
wait 1
dump sys-drilled-a
keys <Backspace>:group --group=<Enter>
dump sys-regrouped
keys 0W
dump sys-window
KEYS
expect 0 "" "$NXTOP" -q --headless="$tmp/sys.keys" --dump="$tmp" \
	"$tmp/sysa" "$tmp/sysb"
grep -q '^▾ A: system_profile.json' "$tmp/sys" &&
	grep -q '^▾ B: system_profile.json' "$tmp/sys" ||
	fail "system profiles not stacked: $(cat "$tmp/sys")"
[ "$(grep -c 'gid32-nc0-tid1627711-neuron_rt' "$tmp/sys")" -eq 2 ] ||
	fail "not each side's NeuronCore rows: $(cat "$tmp/sys")"
exec_ts() {
	jq -r --argjson nc "$2" '.trace_event[] | select(.name ==
	    "nrt_execute" and .nc_idx == $nc) | .timestamp' "$1"
}
d=$(($(exec_ts "$tmp/sysa/system_profile.json" 0) - $(exec_ts "$tmp/sysb/system_profile.json" 2)))
want=$(awk -v d=$d 'BEGIN { printf "B %s%g ms", d < 0 ? "-" : "+", (d < 0 ? -d : d) / 1e6 }')
head -1 "$tmp/sys-aligned" | grep -q "  $want " ||
	fail "system :align: no '$want' in: $(head -1 "$tmp/sys-aligned")"
dur=$(jq -r '.trace_event[] | select(.id == 10) | .duration' "$tmp/sysb/system_profile.json")
grep -q "duration  *[0-9.]* µs ($dur ns)" "$tmp/sys-details" ||
	fail "B's nrt_execute: not $dur ns: $(cat "$tmp/sys-details")"
tail -1 "$tmp/sys-details" | grep -q 'the device profile of this nrt_execute of B$' ||
	fail "drill hint: $(tail -1 "$tmp/sys-details")"
head -1 "$tmp/sys-drilled" | grep -q ' › B: neuron_matmul nc0 ' ||
	fail "B's device profile: $(head -1 "$tmp/sys-drilled")"
tail -1 "$tmp/sys-drilled" | grep -q 'this nrt_execute of B; Backspace' ||
	fail "drilled: $(tail -1 "$tmp/sys-drilled")"
k=$(jq '[.instruction[] | select(.opcode == "TENSOR_REDUCE_V2")] | length' "$b")
[ "$k" -gt 0 ] || fail "jq: B has no TENSOR_REDUCE_V2"
grep -q "in view: $k match" "$tmp/sys-found" ||
	fail "not B's device profile: $(cat "$tmp/sys-found")"
# A's bundle imports its device profiles in the background (the script
# lets one import run): A's opens once ready, named as A's
head -1 "$tmp/sys-drilled-a" | grep -q ' › A: neuron_matmul nc0 .* device ' ||
	fail "A's device profile: $(head -1 "$tmp/sys-drilled-a")"
# :group regroups both sides: each side's rows right under its heading
[ "$(grep -c '^  gid32-nc0-tid1627711-neuron_rt' "$tmp/sys-regrouped")" -eq 2 ] ||
	fail ":group stacked: $(cat "$tmp/sys-regrouped")"
# the window over both: B's event time exceeds A's by what jq says
# nrt_execute 10 gained
d=$(( $(jq -r '.trace_event[] | select(.id == 10) | .duration' "$tmp/sysb/system_profile.json") -
	$(jq -r '.trace_event[] | select(.id == 10) | .duration' "$tmp/sysa/system_profile.json") ))
grep -q "^Event time .* +$((d / 1000)) µs " "$tmp/sys-window" ||
	fail "system window: not +$((d / 1000)) µs: $(cat "$tmp/sys-window")"
# a system profile against a device profile: one line, exit 1
printf 'size 120x30\nkeys q\n' >"$tmp/sys.keys"
expect 1 'both must be system profiles or neither' \
	"$NXTOP" -q --headless="$tmp/sys.keys" --dump="$tmp" "$tmp/sa.json" "$a"
[ "$(wc -l <"$err")" -eq 1 ] || fail "mixed kinds: not one line: $(cat "$err")"
pass
