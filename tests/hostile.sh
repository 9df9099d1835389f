#!/bin/sh
# Hostile input, item by item (man nxtop, SECURITY and LIMITS): each gets
# its exact exit status and message, leaves no cache behind when refused,
# stays within a memory bound (peak RSS, measured), and nothing from the
# file reaches the terminal or an export raw; a name from the file is
# never read as a query, and no regex is costly to compile. Then hostile
# caches (planted, forged, crafted) and, with a second user (as root), the
# attacks through shared folders: links and files planted at the names
# nxtop writes, and locks held on what it opens. NXTOP_SLOW_TESTS=1 adds
# the full-size cases (a 1 GB string, 10^6 threads); .ci/run sets it.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch
slow=${NXTOP_SLOW_TESTS:-0}

# rss_below MB CMD...: runs CMD (any status) and fails if its peak
# resident set exceeds MB (not under sanitizers, NXTOP_SANITIZED=1,
# whose shadow memory counts too); the status is left in $rc, output in
# $out and $err.
rss_below() {
	limit=$1
	shift
	if [ -x /usr/bin/time ] && [ "${NXTOP_SANITIZED:-0}" != 1 ]; then
		/usr/bin/time -f '%M' -o "$tmp/rss" "$@" >"$out" 2>"$err"
		rc=$?
		kb=$(tail -n 1 "$tmp/rss")
		[ "$kb" -le $((limit * 1024)) ] ||
			fail "$*: peak RSS $((kb / 1024)) MB, over $limit MB"
	else
		"$@" >"$out" 2>"$err"
		rc=$?
	fi
}

# refused FILE REGEX [MB]: nxtop import FILE exits 1 with one line
# matching REGEX, within MB of memory (100 by default), and leaves no
# cache or temporary file.
refused() {
	rss_below "${3:-100}" "$NXTOP" import -q "$1"
	[ "$rc" -eq 1 ] || fail "$1: exit $rc, wanted 1; stderr: $(cat "$err")"
	grep -Eq -- "$2" "$err" || fail "$1: no '$2' in: $(cat "$err")"
	[ "$(wc -l < "$err")" -eq 1 ] || fail "$1: more than one line: $(cat "$err")"
	ls "$(dirname "$1")" | grep -q "$(basename "$1")\.nxdb" &&
		fail "$1: a cache was left behind"
	return 0
}

# clean FILE WHAT: FILE holds nothing a terminal would interpret: no C0
# control but newline and tab (and the CR of CSV line ends), no DEL, no
# C1 control, no bidi override (U+202A-E, U+2066-9), only valid UTF-8.
clean() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037\177]')" "$1" ||
		LC_ALL=C grep -q "$(printf '\r.')" "$1" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1" ||
		LC_ALL=C grep -qP '\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1" ||
		! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then
		fail "$2: raw control bytes, bidi overrides or bad UTF-8: $(od -c "$1" | head -20)"
	fi
}

# 10^6 nested brackets: the splitter stops at 512 levels.
awk 'BEGIN { printf "{\"instruction\":"; for (i = 0; i < 1000000; i++) printf "[";
	for (i = 0; i < 1000000; i++) printf "]"; printf "}" }' > "$tmp/deep.json"
refused "$tmp/deep.json" '^nxtop: .*deep.json: byte 528: nesting deeper than 512 levels in "instruction"\[0\]$'
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "["; }' > "$tmp/deep_chrome.json"
refused "$tmp/deep_chrome.json" 'deep_chrome.json: byte 513: nesting deeper than 512 levels in \[0\]$'

# A string longer than a record may be (64 MiB), 1 GB with
# NXTOP_SLOW_TESTS=1, written as the test runs.
if [ "$slow" = 1 ]; then mb=1024; else mb=80; fi
{
	printf '{"instruction":[{"timestamp":1,"duration":1,"opcode":"'
	head -c $((mb * 1024 * 1024)) /dev/zero | tr '\0' a
	printf '"}]}'
} > "$tmp/long.json"
refused "$tmp/long.json" 'long.json: byte [0-9]+: record larger than 64 MiB in "instruction"\[0\]$' 250
rm -f "$tmp/long.json"
{
	printf '{"'
	head -c 100000 /dev/zero | tr '\0' k
	printf '":1}'
} > "$tmp/longkey.json"
refused "$tmp/longkey.json" 'longkey.json: byte 2: key longer than 256 bytes$'

# Numbers: out of range, NaN, -0, integer overflow.
printf '{"instruction":[{"timestamp":1e999,"duration":1}]}' > "$tmp/big.json"
refused "$tmp/big.json" 'byte 16: "timestamp" is a number out of range, expected an integer in "instruction"\[0\]$'
printf '{"instruction":[{"timestamp":NaN,"duration":1}]}' > "$tmp/nan.json"
refused "$tmp/nan.json" "byte 29: expected a JSON value, found 'N' in \"instruction\"\\[0\\]\$"
printf '{"instruction":[{"timestamp":"NaN","duration":1}]}' > "$tmp/nans.json"
refused "$tmp/nans.json" 'byte 16: "timestamp" is a string, expected an integer'
printf '{"instruction":[{"timestamp":9223372036854775808,"duration":1}]}' > "$tmp/ovf.json"
refused "$tmp/ovf.json" 'byte 16: "timestamp" is a number out of range, expected an integer'
printf '{"instruction":[{"timestamp":1,"duration":1,"id":18446744073709551616}]}' > "$tmp/id.json"
refused "$tmp/id.json" '"id" is a number out of range, expected a 64-bit integer'

# refused_as FILE LINE: as refused, the message being LINE exactly.
refused_as() {
	refused "$1" '' && [ "$(cat "$err")" = "$2" ] ||
		fail "$1: wanted '$2', got '$(cat "$err")'"
}

# Malformed JSON, refused in each JSON format whichever reader reads the
# record (cJSON: Neuron device and system records, Chrome metadata; the
# scanner: Chrome events), at the byte that is wrong. strict VALUE AT
# MESSAGE puts VALUE where each has a value, the byte AT bytes into it
# being the one MESSAGE names.
strict() {
	while IFS='|' read -r name head tail where; do
		f="$tmp/strict-$name.json"
		printf '%s%s%s' "$head" "$1" "$tail" > "$f"
		refused_as "$f" "nxtop: $f: byte $((${#head} + $2)): $3 in $where"
	done <<'EOF'
device|{"instruction":[{"timestamp":1,"duration":1,"label":"Vector","opcode":|}]}|"instruction"[0]
system|{"trace_event":[{"timestamp":1000,"duration":5,"name":|}]}|"trace_event"[0]
event|{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":|}]}|"traceEvents"[0]
meta|{"traceEvents":[],"metadata":{"x":|}}|"metadata"
EOF
}
# strings: escapes JSON does not have, short \u escapes, raw control
# bytes (tab, newline, ESC)
q=\'
strict '"a\x"' 3 "expected one of \" \\ / b f n r t u after \\ in a string, found ${q}x$q"
strict '"\u12"' 5 "expected 4 hex digits after \\u in a string, found $q\"$q"
strict '"\u00zz"' 5 "expected 4 hex digits after \\u in a string, found ${q}z$q"
for c in 09 0a 1b; do
	b=$(printf "\\$(printf %03o 0x$c)x")	# x: $() drops a newline
	strict "\"a${b%x}b\"" 2 \
		"raw control byte 0x$c in a string, expected it escaped as \\u00$c"
done
# numbers: a leading zero, a '.' or an exponent without digits
strict '01' 1 "malformed number \"01\": expected no digit after a leading 0, found ${q}1$q"
strict '1.' 2 "malformed number \"1.\": expected a digit after '.'"
strict '-1.5e' 5 "malformed number \"-1.5e\": expected a digit in the exponent"
# grammar: values without a ',' between them (blanks are dropped as a
# record is copied: [1 2] must not become [12]), no ':', a trailing ','
strict '[1 2]' 3 "expected ',' or ']', found ${q}2$q"
strict '{"a" 1}' 5 "expected ':', found ${q}1$q"
strict '{"a":1,}' 7 "expected a quoted key, found $q}$q"
printf '{"dma_throughput":[{"timestamp":1,"transfer_rate":1e999}]}' > "$tmp/rate.json"
refused "$tmp/rate.json" '"transfer_rate" is a number out of range, expected a number'
# -0 is 0; the largest ids stay exact
printf '{"instruction":[{"timestamp":-0,"duration":-0,"opcode":"Z","label":"Vector","id":18446744073709551615}]}' > "$tmp/zero.json"
expect 0 "^0,0,Vector,Z,1" "$NXTOP" export -q "$tmp/zero.json" --query opcode=Z --format csv
expect 0 "^Matches  1 " "$NXTOP" export -q "$tmp/zero.json" --query id=18446744073709551615

# Negative and zero durations: stored as 0 (said once), zero kept.
printf '{"instruction":[{"timestamp":10,"duration":-5,"opcode":"NEG","label":"Vector"},{"timestamp":20,"duration":0,"opcode":"ZERO","label":"Vector"}]}' > "$tmp/dur.json"
expect 0 "1 event\(s\) with a negative duration were stored with duration 0" "$NXTOP" summary -q "$tmp/dur.json"
expect 0 "^0,0,Vector,NEG,1" "$NXTOP" export -q "$tmp/dur.json" --query 'dur=0' --format csv
grep -q "^10,0,Vector,ZERO,2" "$out" || fail "zero duration lost: $(cat "$out")"

# Events far outside the profile: more than 109 years after or 18 years
# before zero they are left out and counted; the rest keeps a sane
# extent.
printf '{"instruction":[{"timestamp":10,"duration":5,"opcode":"OK","label":"Vector"},{"timestamp":9223372036854775000,"duration":1000,"opcode":"FAR","label":"Vector"},{"timestamp":-9223372036854775808,"duration":5,"opcode":"FAR","label":"Vector"},{"timestamp":3458764513820540000,"duration":9223372036854775807,"opcode":"EDGE","label":"Vector"},{"timestamp":-576460752303423488,"duration":1,"opcode":"EDGE","label":"Vector"}]}' > "$tmp/far.json"
expect 0 "2 event\(s\) with times more than 109 years after or 18 years before the time axis' zero were left out" "$NXTOP" summary -q "$tmp/far.json"
expect 0 "^Duration +[0-9.]+ [a-z]+ \(0 ns \.\. " "$NXTOP" summary -q "$tmp/far.json"
grep -q "^Duration *-" "$out" && fail "negative profile duration: $(cat "$out")"
expect 0 "Matches  0" "$NXTOP" export -q "$tmp/far.json" --query opcode=FAR

# Events far outside the profile's own time range (its metadata): kept,
# counted, shown by the viewer, and said in a warning, since exports of
# the profile's range leave them out.
printf '{"metadata":[{"first_hw_timestamp":0,"last_hw_timestamp":1000}],"instruction":[{"timestamp":10,"duration":5,"opcode":"IN","label":"Vector"},{"timestamp":1000000000000000,"duration":5,"opcode":"OUT","label":"Vector"},{"timestamp":-5000,"duration":5,"opcode":"OUT","label":"Vector"}]}' > "$tmp/outside.json"
expect 0 "some events lie far outside the profile's own time range \(more than its length before its start or after its end\): they are kept and shown, but exports of the profile's range leave them out" \
	"$NXTOP" summary -q "$tmp/outside.json"
grep -Eq "^Events +3 instructions" "$out" || fail "outside: events not counted: $(cat "$out")"
expect 0 "Matches  2 " "$NXTOP" export -q "$tmp/outside.json" --query opcode=OUT --range=-1ms:1000001s

# Rows: a trace of more threads than a profile may have rows, as many
# engine names in a device profile; 10^6 with NXTOP_SLOW_TESTS=1.
if [ "$slow" = 1 ]; then n=1000000; else n=70000; fi
awk -v n=$n 'BEGIN { printf "["; for (i = 0; i < n; i++)
	printf "%s{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"dur\":1,\"name\":\"a\"}",
		i ? "," : "", i, i; printf "]" }' > "$tmp/threads.json"
refused "$tmp/threads.json" '^nxtop: .*threads.json: more than 65536 rows in one profile \(nxtop.s limit\)$' 300
awk -v n=70000 'BEGIN { printf "{\"instruction\":["; for (i = 0; i < n; i++)
	printf "%s{\"timestamp\":%d,\"duration\":1,\"label\":\"E%d\"}", i ? "," : "", i, i;
	printf "]}" }' > "$tmp/engines.json"
refused "$tmp/engines.json" 'engines.json: more than 65536 rows in one profile' 300
# system profiles put threads past 16384 rows in one overflow row
awk 'BEGIN { printf "{\"trace_event\":["; for (i = 0; i < 16390; i++)
	printf "%s{\"timestamp\":%d,\"duration\":1,\"thread_id\":%d,\"name\":\"x\"}", i ? "," : "", i + 1000, i;
	printf "]}" }' > "$tmp/sys_threads.json"
expect 0 "6 event\(s\) of threads past the row limit were put in the last row" "$NXTOP" summary -q "$tmp/sys_threads.json"
awk 'BEGIN { printf "{\"instruction\":[{\"timestamp\":1,\"duration\":1}]"; for (i = 0; i < 5000; i++)
	printf ",\"k%d\":1", i; printf "}" }' > "$tmp/keys.json"
refused "$tmp/keys.json" 'byte [0-9]+: more than 4096 different top-level keys in "k4095"$'

# Duplicate ids are kept, each its own event.
printf '{"instruction":[{"timestamp":1,"duration":2,"opcode":"A","label":"Vector","id":7},{"timestamp":5,"duration":2,"opcode":"B","label":"Vector","id":7}]}' > "$tmp/dup.json"
expect 0 "Matches  2 " "$NXTOP" export -q "$tmp/dup.json" --query id=7
printf '{"trace_event":[{"timestamp":1000,"duration":50,"id":1,"parent_id":1,"thread_id":1,"name":"a"},{"timestamp":1010,"duration":5,"id":1,"parent_id":1,"thread_id":1,"name":"b"}]}' > "$tmp/sysdup.json"
expect 0 "Matches  2 " "$NXTOP" export -q "$tmp/sysdup.json" --query id=1

# Device profile names that leave the folder, links out, a folder, a
# FIFO and escape sequences: each refused with a warning, nothing
# outside the folder read.
b="$tmp/bundle"
mkdir "$b" "$b/dir.json"
mkfifo "$b/fifo.json"
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/outside.json"
cp "$srcdir/tests/fixtures/device_small.json" "$b/device_profile_model_1.json"
ln -s ../outside.json "$b/linked.json"
ln -s "$tmp/outside.json" "$b/absolute.json"
ln -s device_profile_model_1.json "$b/inside.json"
esc=$(printf '\033')
printf '{"trace_event":[{"timestamp":1000,"duration":5,"name":"x"}],"device_profile_list":[
{"device_profile_name":"../outside"},{"device_profile_name":"%s/outside"},
{"device_profile_name":"/etc/passwd"},{"device_profile_name":"linked"},
{"device_profile_name":"absolute"},{"device_profile_name":"dir"},
{"device_profile_name":"fifo"},{"device_profile_name":"inside"},
{"device_profile_name":"..\\u002foutside"},
{"device_profile_name":"\\u001b]52;c;ZXZpbA==\\u0007"},
{"device_profile_name":"device_profile_model_1"}]}' "$tmp" > "$b/system_profile.json"
expect 0 "" timeout 60 "$NXTOP" import "$b"
for n in '"../outside" ignored: not a file name in the folder' \
	'"/etc/passwd" ignored: not a file name in the folder' \
	'"linked" ignored: a link to outside the folder' \
	'"absolute" ignored: a link to outside the folder' \
	'"dir" ignored: not a regular file' '"fifo" ignored: not a regular file' \
	'"�]52;c;ZXZpbA==�" ignored: has control characters' \
	'2 device profiles: inside.json device_profile_model_1.json'; do
	grep -qF -- "$n" "$err" || fail "bundle: no '$n' in: $(cat "$err")"
done
clean "$err" "bundle stderr"
sqlite3 "$tmp/bundle.nxdb" "SELECT path FROM source" > "$tmp/sources" ||
	fail "no source table"
real_b=$(cd "$b" && pwd -P)
grep -v "^$real_b/[^/]*$" "$tmp/sources" && fail "a source outside the folder"
# a FIFO or a folder given directly: refused at once, never opened
mkfifo "$tmp/p.json"
expect 1 "^nxtop: $tmp/p.json: not a regular file or folder$" timeout 10 "$NXTOP" import "$tmp/p.json"
mkfifo "$tmp/p.pftrace"
expect 1 "p.pftrace: not a regular file or folder$" timeout 10 "$NXTOP" summary "$tmp/p.pftrace"
mkdir "$tmp/folder.json"
expect 1 "folder.json: a folder with nothing nxtop reads" "$NXTOP" import "$tmp/folder.json"
# a FIFO among the files a folder's system profile is looked for in
mkdir "$tmp/fifos"
mkfifo "$tmp/fifos/x.json"
expect 1 "fifos: no system profile in this folder; open one of its files instead: x.json" \
	timeout 10 "$NXTOP" import "$tmp/fifos"

# Messages on stderr quote paths: a bundle folder, the system profile
# found by listing it and a device profile it names, each with a C1
# control (NEL) and a bidi override (U+202E), and one more listed but
# missing. Every note (system profile, device profiles, the missing one,
# the cache, the rebuild after a device file changed) shows them
# cleaned. The progress line is tested in a pty (tests/test_util).
hb="$tmp/$(printf 'b\342\200\256\302\205x')"
mkdir "$hb"
cp "$srcdir/tests/fixtures/device_small.json" "$hb/$(printf 'dev\342\200\256\302\205x.json')"
printf '{"trace_event":[{"timestamp":1000,"duration":5,"name":"x"}],"device_profile_list":[
{"device_profile_name":"dev\\u202e\\u0085x"},{"device_profile_name":"gone\\u202e\\u009b31m"}]}' \
	> "$hb/$(printf 'sys\342\200\256\302\205.json')"
expect 0 "" "$NXTOP" import "$hb"
r=$(printf '\357\277\275\357\277\275')	# both as U+FFFD
for n in ": system profile $tmp/b${r}x/sys$r.json" ": 1 device profile: dev${r}x.json" \
	": missing device profile gone${r}31m.json" "nxtop: cache $tmp/b${r}x.nxdb"; do
	grep -qF -- "$n" "$err" || fail "bundle notes: no '$n' in: $(cat "$err")"
done
clean "$err" "bundle notes"
touch -d 2001-01-01 "$hb/$(printf 'dev\342\200\256\302\205x.json')"
expect 0 "" "$NXTOP" summary "$hb"
grep -qxF "nxtop: rebuilding $tmp/b${r}x.nxdb ($tmp/b${r}x/dev${r}x.json changed)" "$err" ||
	fail "rebuild note: $(cat "$err")"
clean "$err" "rebuild note"
# arguments quoted in a usage error
expect 2 "unexpected argument" "$NXTOP" summary "$hb" "$(printf 'x\033]0;t\007\302\233')"
clean "$err" "usage error"

# Names with escape sequences, OSC 52, C0 and C1 controls, bidi
# overrides, DEL and invalid UTF-8: replaced in every export, summary
# and message, and on the screen.
h="$tmp/hostile.json"
{
	printf '{"instruction":['
	printf '{"timestamp":10,"duration":5,"opcode":"\\u001b]52;c;ZXZpbA==\\u0007","label":"\\u001b[2J","layer":"a\\u009b31m","hlo_name":"\\u202eevil","id":1},'
	printf '{"timestamp":20,"duration":5,"opcode":"B\\u0000\\u007f\\u0085\\u0008x","label":"Vector","operands":"\302\233\\u001bP+q\\u001b\\\\\377\376","id":2}],'
	printf '"\\u001b]0;title\\u0007":[{"k\\u001b[31m":"\\u001b[5mblink"}],'
	printf '"warnings":[{"category":"\\u001b[1m","message":"\\u001b]8;;http://x\\u0007link"}]}'
} > "$h"
i=0
for args in "summary" "summary --format json" "export" "export --format json" \
	"export --format csv" "export --what layers" "export --what layers --format csv" \
	"export --what info" "export --what info --format json" \
	"export --what info --format csv" "export --query opcode~B" \
	"export --query opcode~B --format csv" "export --query opcode~B --format json"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$NXTOP" $args -q "$h" > "$tmp/o$i" 2>&1 || fail "$args failed: $(cat "$tmp/o$i")"
	clean "$tmp/o$i" "nxtop $args"
done
grep -q "ZXZpbA==" "$tmp/o1" "$tmp/o3" "$tmp/o11" ||
	fail "the hostile name is not shown at all"
# an error quoting the hostile key: decoded, its controls as U+FFFD
printf '{"instruction":[{"timestamp":1,"duration":1}],"\\u001b]52;c;eA==\\u0007":{"a":' > "$tmp/hkey.json"
r=$(printf '\357\277\275')
refused_as "$tmp/hkey.json" "nxtop: $tmp/hkey.json: byte $(wc -c < "$tmp/hkey.json"): unexpected end of file, expected a JSON value in \"$r]52;c;eA==$r\""
clean "$err" "error message"
# the viewer: every screen of a walk through the views
if locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	cat > "$tmp/walk.keys" <<'EOF'
keys jj<Enter>
dump details
keys <Esc>i
dump info
keys q/opcode~B<Enter>R
dump results
keys qv<End>j<Enter>
dump selection
EOF
	mkdir "$tmp/screens"
	LC_ALL=C.UTF-8 "$NXTOP" -q --headless="$tmp/walk.keys" --dump="$tmp/screens" "$h" ||
		fail "viewer failed on hostile names"
	[ "$(ls "$tmp/screens" | wc -l)" -eq 4 ] ||
		fail "viewer: not every screen dumped: $(ls "$tmp/screens")"
	for s in "$tmp"/screens/*; do
		clean "$s" "screen $(basename "$s")"
	done
	grep -q "ZXZpbA==" "$tmp/screens/results" ||
		fail "viewer: the hostile name is not in the list of matches"
fi

# ... and in a real terminal: the bytes nxtop writes to a tmux pane
# hold no OSC, DCS, APC, PM or SOS sequence, no BEL and no C1 control,
# only valid UTF-8, while the hostile names are on the screen.
if have tmux &&
	locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	sock="nxtop-hostile-$$"
	tm() { tmux -L "$sock" -f /dev/null "$@"; }
	# shows TEXT: polls the pane until it shows TEXT (up to 10 s)
	shows() {
		i=0
		while [ $i -lt 200 ]; do
			tm capture-pane -p -t h 2>/dev/null | grep -qF -- "$1" && return 0
			sleep 0.05
			i=$((i + 1))
		done
		fail "tmux: the pane never showed '$1'"
	}
	tm new-session -d -s h -x 100 -y 30 "sh -c 'read x; exec env LC_ALL=C.UTF-8 TERM=xterm-256color \"$NXTOP\" -q \"$h\"'" ||
		fail "tmux cannot start"
	tm pipe-pane -t h -o "cat > '$tmp/raw'"
	tm send-keys -t h Enter
	shows "ZXZpbA=="
	tm send-keys -t h j j Enter
	shows "hlo_name"
	tm send-keys -t h Escape i
	shows "Records"
	tm send-keys -t h q / opcode~B Enter R
	shows "2 matches"
	tm send-keys -t h q q
	i=0
	while tm has-session -t h 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	tm kill-server 2>/dev/null
	if LC_ALL=C grep -q "$(printf '\033[]P_^X]')" "$tmp/raw" ||
		LC_ALL=C grep -q "$(printf '\007')" "$tmp/raw" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$tmp/raw" ||
		! iconv -f UTF-8 -t UTF-8 "$tmp/raw" >/dev/null 2>&1; then
		fail "tmux: nxtop wrote a sequence from the file: $(od -c "$tmp/raw" | head -40)"
	fi
	grep -q "ZXZpbA==" "$tmp/raw" || fail "tmux: the hostile name was never drawn"
fi

# An event name of 24 MiB (within the record limit): the viewer opens
# its details at once (laying the name out line by line with a strlen
# each took minutes), shows its first lines and its length, and the
# pager reads it all: its last screen ends with the name's last
# characters, wrapped with nothing added.
if locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	awk 'BEGIN { s = "abcdefghijklmnopqrstuvwxyz/0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZ.:"
		for (i = 0; i < 10; i++) s = s s
		for (i = 0; i < 384; i++) printf "%s", s }' > "$tmp/name"
	{
		printf '{"traceEvents":[{"ph":"X","name":"'
		cat "$tmp/name"
		printf '","ts":1,"dur":5,"pid":1,"tid":1}]}\n'
	} > "$tmp/longname.json"
	"$NXTOP" import -q "$tmp/longname.json" || fail "long name: import failed"
	printf 'keys j<Enter>\ndump details\nkeys <Tab><Enter>G\ndump pager\n' > "$tmp/long.keys"
	mkdir "$tmp/long"
	LC_ALL=C.UTF-8 timeout 30 "$NXTOP" -q --headless="$tmp/long.keys" \
		--dump="$tmp/long" "$tmp/longname.json" ||
		fail "long name: the viewer did not show the details within 30 s"
	chars=$(wc -c < "$tmp/name" | tr -d ' ')
	grep -q "$chars characters in all" "$tmp/long/details" ||
		fail "long name: no length in the details: $(cat "$tmp/long/details")"
	# the pager's text lines: between the title row and the status line
	sed -n '3,23p' "$tmp/long/pager" | tr -d '\n' > "$tmp/shown"
	tail -c "$(wc -c < "$tmp/shown")" "$tmp/name" | cmp -s - "$tmp/shown" ||
		fail "long name: the pager's last lines are not the name's end: $(cat "$tmp/long/pager")"
fi

# Names that a spreadsheet would evaluate as formulas (=, +, -, @ first):
# every CSV export writes them after a ', and plain numbers stay
# numbers. The CSV is read back by sqlite3's own CSV reader.
cat > "$tmp/formula.json" <<'EOF'
{"instruction":[
{"timestamp":10,"duration":5,"opcode":"=HYPERLINK(\"http://x\",\"y\")","label":"Vector","layer":"+cmd|' /C calc'!A0","hlo_name":"@SUM(1+1)","id":1},
{"timestamp":20,"duration":7,"opcode":"-2+3","label":"-5","layer":"-x","id":2}],
"layer_summary":[{"name":"=1+2","start":10,"end":27,"duration":17}],
"summary":[{"instance_type":"=1+1","total_time":-0.5}]}
EOF
# no_formula FILE WHAT: no cell of the CSV FILE starts like a formula
# unless it is a plain number
no_formula() {
	sqlite3 :memory: ".import --csv $1 t" ".mode line" "SELECT * FROM t" \
		> "$tmp/cells" || fail "$2: sqlite3 cannot read the CSV"
	bad=$(sed -n 's/^ *[^ ]* = //p' "$tmp/cells" | grep -E '^[-=+@]' |
		grep -Ev '^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$')
	[ -z "$bad" ] || fail "$2: cells a spreadsheet would evaluate: $bad"
}
i=0
for args in "export" "export --query dur>0" "export --what layers" "export --what info"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$NXTOP" $args --format csv -q "$tmp/formula.json" > "$tmp/f$i.csv" 2>"$err" ||
		fail "$args: $(cat "$err")"
	no_formula "$tmp/f$i.csv" "$args --format csv"
done
for cell in "'=HYPERLINK(\"http://x\",\"y\")" "'+cmd|' /C calc'!A0" "'@SUM(1+1)" \
	"'-2+3" "'-x"; do
	sqlite3 :memory: ".import --csv $tmp/f1.csv t" "SELECT value FROM t" |
		grep -qxF -- "$cell" || fail "selection CSV: no cell $cell"
done
sqlite3 :memory: ".import --csv $tmp/f2.csv t" "SELECT row, name FROM t" |
	grep -qxF -- "-5|'-2+3" || fail "search CSV: $(cat "$tmp/f2.csv")"
grep -q "^'=1+2," "$tmp/f3.csv" || fail "layers CSV: $(cat "$tmp/f3.csv")"
grep -q "^summary,0,Value,'=1+1" "$tmp/f4.csv" || fail "info CSV: $(cat "$tmp/f4.csv")"

# Queries and names from a profile: Enter on a summary's value that ends
# in a backslash, on a row named like a costly /regex/ with quotes in its
# name, searches for that value on that row (before, the row name was
# parsed as terms: the regex took gigabytes), at once and within 100 MB;
# a costly regex typed in the viewer is refused on its status line.
cat > "$tmp/inject.json" <<'EOF'
{"instruction":[{"timestamp":10,"duration":5,"opcode":"NOP","label":"Vector"}],
"dma":[{"timestamp":20,"duration":9,"subgroup":"q\" /(a|b?){12000}c/ \"x",
"variable":"EVIL\\","queue_type":"data","transfer_size":64},
{"timestamp":40,"duration":9,"subgroup":"q\" /(a|b?){12000}c/ \"x",
"variable":"fine","queue_type":"data","transfer_size":64}]}
EOF
"$NXTOP" import -q "$tmp/inject.json" || fail "inject: import failed"
if locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	printf 'keys W/EVIL<Enter>G<Enter>\ndump searched\nkeys //(a|b?){12000}c/<Enter>\ndump typed\n' \
		> "$tmp/inject.keys"
	mkdir "$tmp/inject"
	rss_below 100 env LC_ALL=C.UTF-8 timeout 30 "$NXTOP" -q \
		--headless="$tmp/inject.keys" --dump="$tmp/inject" "$tmp/inject.json"
	[ "$rc" -eq 0 ] || fail "inject: the viewer exited $rc: $(cat "$err")"
	grep -qF '/variable="EVIL\\" row="q\" /(a|b?){12000}c/ \"x"  in view: 1 match' \
		"$tmp/inject/searched" ||
		fail "inject: not a search for the value on its row: $(cat "$tmp/inject/searched")"
	grep -q 'column 1: regex repeats a part more than 255 times' "$tmp/inject/typed" ||
		fail "inject: a costly regex typed is not refused: $(cat "$tmp/inject/typed")"
	clean "$tmp/inject/searched" "inject: the search line"
fi
# Costly regular expressions (16 bytes can ask regcomp for gigabytes):
# refused before they are compiled, exit 2, one line, at once (under a
# second) and within 100 MB; the costliest shape that is taken still
# compiles within that bound.
for q in '/(a|b?){12000}c/' 'name=/((a{255}){255}){255}/' \
	"/$(printf '(%.0s' $(seq 40))a$(printf ')%.0s' $(seq 40))/" \
	"hlo=/a$(printf '+%.0s' $(seq 200))/" \
	'/(a?|b?|c?|d?){255}(a?|b?|c?|d?){255}/' 'layer=/[[:alpha:]]{99999}/'; do
	t0=$(date +%s%N | cut -c1-13)
	rss_below 100 "$NXTOP" export -q "$tmp/inject.json" --query "$q"
	t1=$(date +%s%N | cut -c1-13)
	[ "$rc" -eq 2 ] && [ "$(wc -l < "$err")" -eq 1 ] &&
		grep -Eq '^nxtop: --query: column [0-9]+: regex (repeats|nests|too costly)' "$err" ||
		fail "costly regex $q: exit $rc: $(cat "$err")"
	[ $((t1 - t0)) -lt 1000 ] || fail "costly regex $q: $((t1 - t0)) ms"
done
rss_below 100 "$NXTOP" export -q "$tmp/inject.json" --query '/(a?|b?|c?|d?){255}/'
[ "$rc" -eq 0 ] || fail "the costliest regex taken: exit $rc: $(cat "$err")"

# Output that cannot be written whole: to a full disk (/dev/full) or
# past a file size limit (ulimit -f 2: 1 or 2 KiB as the shell counts;
# nxtop ignores SIGXFSZ, so the write fails instead of killing it). Exit 1 with one line, whether
# the output is standard output or -o FILE; a new -o FILE that was cut
# short is taken away.
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/w.json"
"$NXTOP" import -q "$tmp/w.json" || fail "write: import failed"
# one_line STATUS REGEX WHAT: the last command's status and its stderr
one_line() {
	[ "$1" -eq 1 ] || fail "$3: exit $1, wanted 1; stderr: $(cat "$err")"
	grep -Eq -- "$2" "$err" || fail "$3: no '$2' in: $(cat "$err")"
	[ "$(wc -l < "$err")" -eq 1 ] || fail "$3: not one line: $(cat "$err")"
}
for args in "summary" "summary --format json" "export" "export --format json" \
	"export --format csv" "export --what layers" "export --what info --format csv"; do
	# shellcheck disable=SC2086
	"$NXTOP" $args -q "$tmp/w.json" > /dev/full 2>"$err"
	one_line $? '^nxtop: standard output: No space left on device$' "$args > /dev/full"
done
for args in "--version" "--help"; do
	"$NXTOP" $args > /dev/full 2>"$err"
	one_line $? '^nxtop: standard output: No space left on device$' "$args > /dev/full"
done
"$NXTOP" export -q "$tmp/w.json" --format csv -o /dev/full 2>"$err"
one_line $? '^nxtop: /dev/full: No space left on device$' "export -o /dev/full"
# diff --fail-if-slower: a report not written whole is a failure (1),
# not a B slower (3), whose reason would follow a report that is not there
printf '{"traceEvents":[{"name":"x","ph":"X","ts":0,"dur":%s,"pid":1,"tid":1}]}' 10 > "$tmp/fast.json"
printf '{"traceEvents":[{"name":"x","ph":"X","ts":0,"dur":%s,"pid":1,"tid":1}]}' 20 > "$tmp/slow.json"
"$NXTOP" diff -q "$tmp/fast.json" "$tmp/slow.json" --fail-if-slower 5 > /dev/full 2>"$err"
one_line $? '^nxtop: standard output: No space left on device$' "diff --fail-if-slower > /dev/full"
for args in "summary" "summary --format json" "export" "export --format json" \
	"export --what info" "export --what info --format csv"; do
	# shellcheck disable=SC2086
	(ulimit -f 2 && exec "$NXTOP" $args -q "$tmp/w.json") > "$tmp/w.out" 2>"$err"
	one_line $? '^nxtop: standard output: File too large$' "$args past ulimit -f"
	# shellcheck disable=SC2086
	[ "$(wc -c < "$tmp/w.out")" -lt "$("$NXTOP" $args -q "$tmp/w.json" | wc -c)" ] ||
		fail "$args: not cut short by ulimit -f"
done
(ulimit -f 2 && exec "$NXTOP" export -q "$tmp/w.json" --format json -o "$tmp/w.new") 2>"$err"
one_line $? "^nxtop: $tmp/w.new: File too large\$" "export -o past ulimit -f"
no_file "$tmp/w.new"
echo "an older export" > "$tmp/w.old"
(ulimit -f 2 && exec "$NXTOP" export -q "$tmp/w.json" --format json -o "$tmp/w.old") 2>"$err"
one_line $? "^nxtop: $tmp/w.old: File too large\$" "export -o over a file past ulimit -f"
# within the limit all is well
(ulimit -f 2 && exec "$NXTOP" export -q "$tmp/w.json" --what layers -o "$tmp/w.new") 2>"$err" ||
	fail "a small export failed under ulimit -f: $(cat "$err")"
grep -q "/sg00/_dot.3" "$tmp/w.new" || fail "the small export: $(cat "$tmp/w.new")"

# A gzip bomb: refused once it expands more than 256 times.
{ printf '['; head -c $((100 * 1024 * 1024)) /dev/zero | tr '\0' ' '; } |
	gzip -9 > "$tmp/bomb.json.gz"
refused "$tmp/bomb.json.gz" 'bomb.json.gz: byte 67108864: read error: gzip data expands more than 256 times: refused as a decompression bomb'

# The same for a gzip-compressed Perfetto trace: one packet of 80 MiB of
# zeros, refused before it is all inflated.
{ printf '\012\200\200\200\050'; head -c $((80 * 1024 * 1024)) /dev/zero; } |
	gzip -9 > "$tmp/bomb.pftrace.gz"
refused "$tmp/bomb.pftrace.gz" 'bomb.pftrace.gz: byte 0: read error: gzip data expands more than 256 times: refused as a decompression bomb in "packet"\[0\]$'

# A Perfetto packet whose length runs past the end of the file.
printf '\012\350\007abcdefghij' > "$tmp/cut.pftrace"
refused "$tmp/cut.pftrace" 'cut.pftrace: byte 0: packet of 1000 bytes runs past the end of the file \(13 bytes\) in "packet"\[0\]$'

# A file that changes while it is imported: refused, nothing kept, and
# imported once it stops changing.
"$NXTOP" demo --events 20000 --seed 3 --write "$tmp/grow.json" >/dev/null 2>&1 ||
	fail "demo failed"
(while :; do echo ' ' >> "$tmp/grow.json"; done) &
grower=$!
sleep 0.2
refused "$tmp/grow.json" 'grow.json: the file changed while it was read \(is it still being written\?\); nothing was kept$' 500
kill "$grower"
wait "$grower" 2>/dev/null
expect 0 "" "$NXTOP" import -q "$tmp/grow.json"
# ... and one cut shorter and shorter while it is read: that it changed,
# not where the cut left a record unfinished
cp "$tmp/grow.json" "$tmp/shrink.json"
(while [ "$(wc -c < "$tmp/shrink.json")" -gt 200000 ]; do
	truncate -s -100000 "$tmp/shrink.json"; sleep 0.01; done) &
shrinker=$!
sleep 0.05
refused "$tmp/shrink.json" 'shrink.json: the file changed while it was read \(is it still being written\?\); nothing was kept$' 500
kill "$shrinker" 2>/dev/null
wait "$shrinker" 2>/dev/null

# A planted cache beside a profile (from an archive, a share): one that
# names no source, or whose source record is forged (path, size and
# time right, as an archive keeps them), is rebuilt, never shown.
mkdir "$tmp/planted" "$tmp/elsewhere"
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/planted/s.json"
cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/planted/other.json"
"$NXTOP" import -q "$tmp/planted/other.json" || fail "import other.json"
cp "$tmp/planted/other.json.nxdb" "$tmp/planted/s.json.nxdb"
sqlite3 "$tmp/planted/s.json.nxdb" "DELETE FROM source"
expect 0 "rebuilding .*s.json.nxdb" "$NXTOP" summary "$tmp/planted/s.json"
grep -q "^Events       8 instructions," "$out" ||
	fail "a cache naming no source was shown: $(head -6 "$out")"
# the archive: a cache made elsewhere, with the profile, times kept
cp -p "$srcdir/tests/fixtures/device_small.json" "$tmp/elsewhere/t.json"
"$NXTOP" import -q "$tmp/elsewhere/t.json" || fail "import t.json"
# (ustar keeps whole seconds: the time the file will have is known)
sqlite3 "$tmp/elsewhere/t.json.nxdb" "UPDATE profile SET name = 'FORGED';
	UPDATE source SET path = '$(cd "$tmp/planted" && pwd -P)/t.json',
	mtime_ns = mtime_ns / 1000000000 * 1000000000"
(cd "$tmp/elsewhere" && tar --format=ustar -cf - t.json t.json.nxdb) |
	(cd "$tmp/planted" && tar xf -)
expect 0 "rebuilding .*t.json.nxdb \(.*t.json changed\)" "$NXTOP" summary "$tmp/planted/t.json"
grep -q FORGED "$out" && fail "a cache with a forged source record was shown"

# null_track_names CACHE: what SQLite's NOT NULL keeps from a cache
# nxtop writes, a crafted one holds (its schema text put back after).
null_track_names() {
	sqlite3 "$1" "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET
		sql = replace(sql, 'name TEXT NOT NULL, sort_key', 'name TEXT, sort_key')
		WHERE name = 'track'" &&
		sqlite3 "$1" "UPDATE track SET name = NULL WHERE id = 2" &&
		sqlite3 "$1" "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET
		sql = replace(sql, 'name TEXT, sort_key', 'name TEXT NOT NULL, sort_key')
		WHERE name = 'track'" || fail "$1: cannot craft"
}

# Crafted caches opened directly: checked in full when not built here
# (their profile is gone), each fault one line and exit 1 from the
# summary, the exports and the viewer, never a crash (NULL names) or a
# hang (a huge max_depth). crafted NAME SQL REGEX
crafted() {
	cp "$srcdir/tests/fixtures/device_small.json" "$tmp/craft.json"
	"$NXTOP" import -q "$tmp/craft.json" -o "$tmp/$1.nxdb" || fail "$1: import"
	rm "$tmp/craft.json"
	if [ "$2" = null_track_names ]; then
		null_track_names "$tmp/$1.nxdb"
	else
		sqlite3 "$tmp/$1.nxdb" "$2" || fail "$1: $2"
	fi
	printf 'keys jj\ndump rows\n' > "$tmp/rows.keys"
	for what in summary export "export --query dur>0" \
		"--headless=$tmp/rows.keys --dump=$tmp"; do
		# shellcheck disable=SC2086
		rss_below 200 timeout 20 "$NXTOP" $what -q "$tmp/$1.nxdb"
		[ "$rc" -eq 1 ] || fail "$1: $what: exit $rc, wanted 1: $(cat "$err")"
		grep -Eq -- "^nxtop: .*$1.nxdb: not a usable nxtop cache \(not valid: $3.*\)$" "$err" ||
			fail "$1: $what: no '$3' in: $(cat "$err")"
		[ "$(wc -l < "$err")" -eq 1 ] || fail "$1: more than one line: $(cat "$err")"
	done
}
crafted null_name null_track_names \
	'track\.name: NULL or a value of the wrong type'
crafted deep "UPDATE track SET max_depth = 9000000000000000000 WHERE id = 2" \
	'track 2: max_depth out of range \(0 to 255\)'
crafted text_ts "UPDATE slice SET ts = 'soon' WHERE id = (SELECT min(id) FROM slice)" \
	'track [0-9]+: its events disagree with it'
crafted real_pc "UPDATE instruction SET pc = 1.5" \
	'instruction\.pc: NULL or a value of the wrong type'
crafted lod_level "INSERT INTO lod VALUES(2, 40, 0, 1, 1, NULL, NULL, NULL)" \
	'lod of track [0-9]+: level, bucket, count or busy time out of range'
crafted far "UPDATE profile SET end_ns = 9000000000000000000" \
	'profile 1: start or end out of range'
crafted count "UPDATE track SET n_events = n_events + 1 WHERE id = 2" \
	'profile 1: n_events is not the sum of its rows. events'
crafted count2 "UPDATE track SET n_events = n_events + 1 WHERE id = 2;
	UPDATE profile SET n_events = n_events + 1" \
	'track 2: its events disagree with it'
crafted blob_name "UPDATE track SET name = x'00' WHERE id = 3" \
	'track\.name: NULL or a value of the wrong type'
crafted view "CREATE VIEW v AS SELECT 1" "its tables are not this nxtop's"
# and untouched, every kind of row passes the full check: a nested trace
# with flows, a system profile, and a demo device profile big enough for
# every level of detail and aggregate (names, layers, HLO, sizes,
# duration bins)
"$NXTOP" demo --events 20000 --seed 3 --write "$tmp/whole-demo" >/dev/null 2>&1 ||
	fail "demo failed"
cp "$srcdir/tests/fixtures/chrome_nesting.json" "$srcdir/tests/fixtures/chrome_flows.json" \
	"$srcdir/tests/fixtures/system_small.json" "$tmp/whole-demo/"
for f in "$tmp"/whole-demo/*.json; do
	"$NXTOP" import -q "$f" -o "$f.nxdb" || fail "$f: import"
	rm "$f"
	expect 0 "" "$NXTOP" summary -q "$f.nxdb"
done
[ "$(sqlite3 "$tmp"/whole-demo/*nc_0*.nxdb "SELECT count(DISTINCT field) FROM agg")" = 5 ] ||
	fail "the demo device profile does not hold every aggregate"
# a rebuild note quoting a crafted source path says it cleaned
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/planted/e.json"
"$NXTOP" import -q "$tmp/planted/e.json" || fail "import e.json"
sqlite3 "$tmp/planted/e.json.nxdb" "UPDATE source SET path = path || char(27) || ']0;x' || char(7)"
expect 0 "rebuilding .*e.json.nxdb" "$NXTOP" summary "$tmp/planted/e.json"
clean "$err" "rebuild note"
# ... and beside their profile, built here: quick checks, then rebuilt
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/planted/u.json"
"$NXTOP" import -q "$tmp/planted/u.json" || fail "import u.json"
null_track_names "$tmp/planted/u.json.nxdb"
expect 0 "rebuilding .*u.json.nxdb \(not valid: track\.name: NULL" \
	timeout 20 "$NXTOP" summary "$tmp/planted/u.json"

# Shared folders (sticky and world-writable, like /tmp or a team share),
# with another user in them (as root; skipped, saying so, otherwise).
export XDG_CACHE_HOME="$tmp/cache"
shared_ok=0
if other_setup "$tmp/other"; then
	shared_ok=1
	chmod 711 "$tmp"
	sd="$tmp/shared"
	mkdir -m 1777 "$sd"
	mkdir -m 700 "$tmp/victim"
	printf 'precious\n' > "$tmp/victim/precious"
	mkfifo "$tmp/go"
	# victim_start CMD...: starts CMD as this user, its pid ($vpid) known
	# before it runs; victim_go lets it run and waits (status in $rc).
	victim_start() {
		sh -c 'echo $$ > "$0/vpid"; read x < "$0/go"; exec "$@"' "$tmp" \
			"$@" >"$out" 2>"$err" &
		vjob=$!
		while [ ! -s "$tmp/vpid" ]; do sleep 0.01; done
		vpid=$(cat "$tmp/vpid")
		rm -f "$tmp/vpid"
	}
	victim_go() {
		echo > "$tmp/go"
		wait "$vjob"
		rc=$?
	}
	intact() {
		[ "$(cat "$tmp/victim/precious")" = precious ] ||
			fail "$1: the victim's file was written through a link"
		[ -e "$tmp/victim/created" ] &&
			fail "$1: a file was created where a link pointed"
		return 0
	}
	mine() {
		[ -f "$1" ] && [ ! -L "$1" ] && [ "$(stat -c %u "$1")" = 0 ] ||
			fail "$1: not a regular file of this user"
	}
fi

# Links planted at the temporary names an import used to take
# ("<cache>.tmp-<pid>", its parts "-<n>"): the import creates its own
# temporary files under random names and writes through no link.
if [ "$shared_ok" = 1 ]; then
	cp "$srcdir/tests/fixtures/device_small.json" "$sd/p.json"
	chmod 644 "$sd/p.json"
	victim_start "$NXTOP" import -q "$sd/p.json"
	as_other ln -s "$tmp/victim/precious" "$sd/p.json.nxdb.tmp-$vpid"
	for i in 1 2 3; do
		as_other ln -s "$tmp/victim/created" "$sd/p.json.nxdb.tmp-$vpid-$i"
	done
	victim_go
	[ "$rc" -eq 0 ] || fail "import beside planted links: exit $rc: $(cat "$err")"
	intact "planted temporary names"
	mine "$sd/p.json.nxdb"
	[ -L "$sd/p.json.nxdb.tmp-$vpid" ] || fail "a planted link was removed"
	no_temps "$sd" "planted temporary names"
	# nxtop demo --write, the same way
	victim_start "$NXTOP" demo --events 200 --write "$sd/demo.json"
	as_other ln -s "$tmp/victim/created" "$sd/demo.json.tmp-$vpid"
	victim_go
	[ "$rc" -eq 0 ] || fail "demo --write beside a planted link: exit $rc: $(cat "$err")"
	intact "demo --write"
	mine "$sd/demo.json"
	# an export's output: a planted link or file is not written to
	as_other ln -s "$tmp/victim/precious" "$sd/report.txt"
	expect 1 "report.txt: a link another user may have put there: not written$" \
		"$NXTOP" export -q -o "$sd/report.txt" "$sd/p.json"
	as_other sh -c "umask 0; : > '$sd/report2.txt'"
	expect 1 "report2.txt: another user's file: not written$" \
		"$NXTOP" export -q -o "$sd/report2.txt" "$sd/p.json"
	intact "export --output"
	# ... nor replaced by an import's cache (-o)
	expect 1 "report.txt: a link another user may have put there: not replaced$" \
		"$NXTOP" import -q -o "$sd/report.txt" "$sd/p.json"
	[ -L "$sd/report.txt" ] || fail "import -o replaced a planted link"
	expect 1 "report2.txt: another user's file: not replaced$" \
		"$NXTOP" import -q -o "$sd/report2.txt" "$sd/p.json"
	[ "$(stat -c %u "$sd/report2.txt")" = "$other_uid" ] ||
		fail "import -o replaced another user's file"
	intact "import --output"
	# a leftover that looks like nxtop's but is another user's: kept
	as_other sh -c "printf 'SQLite format 3\\000' > '$sd/nxtop-Evil0001.tmp'"
	expect 0 "" "$NXTOP" import -q -f "$sd/p.json"
	[ -f "$sd/nxtop-Evil0001.tmp" ] || fail "another user's file was removed"
fi

# A link or another user's cache where the cache goes: not used (this
# user's cache folder is), and left as it is.
if [ "$shared_ok" = 1 ]; then
	cp "$srcdir/tests/fixtures/device_screen.json" "$tmp/victim/other.json"
	"$NXTOP" import -q "$tmp/victim/other.json" || fail "import other.json"
	cp "$srcdir/tests/fixtures/device_small.json" "$sd/q.json"
	chmod 644 "$sd/q.json"
	as_other ln -s "$tmp/victim/other.json.nxdb" "$sd/q.json.nxdb"
	expect 0 "q.json.nxdb is a symbolic link: not used" "$NXTOP" summary "$sd/q.json"
	grep -q "^Events       8 instructions," "$out" ||
		fail "a linked cache was shown instead of the profile: $(head -6 "$out")"
	[ -L "$sd/q.json.nxdb" ] || fail "the planted link was replaced"
	cp "$srcdir/tests/fixtures/device_small.json" "$sd/r.json"
	chmod 644 "$sd/r.json"
	as_other "$NXTOP" import -q "$sd/r.json" || fail "the other user's import failed"
	as_other sqlite3 "$sd/r.json.nxdb" "UPDATE profile SET name = 'FORGED'"
	expect 0 "r.json.nxdb is owned by another user: not used" "$NXTOP" summary "$sd/r.json"
	grep -q FORGED "$out" && fail "another user's cache was used"
	[ "$(stat -c %u "$sd/r.json.nxdb")" = "$other_uid" ] ||
		fail "another user's cache was replaced"
	ls "$XDG_CACHE_HOME"/nxtop/q.json-*.nxdb >/dev/null 2>&1 ||
		fail "no cache in this user's own folder"
	# ... which must be private all the way up (here a folder anyone
	# could rename it in is above it)
	mkdir -m 777 "$tmp/ww"
	expect 1 "^nxtop: $tmp/ww/nxtop: not used: $tmp/ww is writable by others$" \
		env XDG_CACHE_HOME="$tmp/ww" "$NXTOP" summary -q "$sd/q.json"
fi
# Locks another user can take: a shared flock on a profile they can
# read, and fcntl locks on the user data files an older nxtop left
# readable (a data folder of mode 755, files of 644). nxtop waits for
# neither: an import goes ahead at once, the marker export fails at once
# saying why, and the viewer starts without markers, saying so.
if [ "$shared_ok" = 1 ] && command -v flock >/dev/null 2>&1; then
	cp "$srcdir/tests/fixtures/device_small.json" "$sd/l.json"
	chmod 644 "$sd/l.json"
	other_bg "$tmp/held" flock -s "$sd/l.json" sh -c 'echo locked; sleep 60'
	i=0
	while [ ! -s "$tmp/held" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$tmp/held" ] || fail "the other user could not lock the profile"
	expect 0 "" timeout 20 "$NXTOP" import -q -f "$sd/l.json"
	other_stop
	ud="$tmp/vdata/nxtop"
	mkdir -p "$ud"
	chmod 755 "$tmp/vdata" "$ud"
	printf 'keys :goto 1us<Enter>mq\n' > "$tmp/mark.keys"
	XDG_DATA_HOME="$tmp/vdata" "$NXTOP" -q --headless="$tmp/mark.keys" \
		--dump="$tmp" "$sd/l.json" || fail "setting a marker failed"
	: > "$ud/userdata.db-shm"
	chmod 644 "$ud/userdata.db" "$ud/userdata.db-shm"
	cat > "$tmp/hold.pl" <<'EOF'
use Fcntl;
my @held;
foreach my $p (@ARGV) {
	open(my $f, "<", $p) or die "$p: $!";
	my $lk = pack("s s x4 q q l x4", F_RDLCK, 0, 0, 0, 0);
	fcntl($f, F_SETLK, $lk) or die "lock $p: $!";
	push @held, $f;
}
$| = 1;
print "locked\n";
sleep 60;
EOF
	chmod 644 "$tmp/hold.pl"
	rm -f "$tmp/held"
	other_bg "$tmp/held" perl "$tmp/hold.pl" "$ud/userdata.db" "$ud/userdata.db-shm"
	i=0
	while [ ! -s "$tmp/held" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ -s "$tmp/held" ] || fail "the other user could not lock the user data"
	expect 1 "userdata.db(-shm)?: a process of another user \(pid [0-9]+\) holds a lock on it$" \
		env XDG_DATA_HOME="$tmp/vdata" timeout 8 "$NXTOP" export -q --what markers "$sd/l.json"
	printf 'dump start\n' > "$tmp/start.keys"
	expect 0 "" env XDG_DATA_HOME="$tmp/vdata" timeout 8 "$NXTOP" -q \
		--headless="$tmp/start.keys" --dump="$tmp" "$sd/l.json"
	grep -q "markers and history are off: .*userdata.db" "$tmp/start" ||
		fail "the viewer did not say that markers are off: $(tail -1 "$tmp/start")"
	other_stop
	[ "$(stat -c %a "$ud/userdata.db")" = 600 ] ||
		fail "userdata.db is still readable by others"
	expect 0 "^M1 " env XDG_DATA_HOME="$tmp/vdata" "$NXTOP" export -q --what markers "$sd/l.json"
fi
pass
