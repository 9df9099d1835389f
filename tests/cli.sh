#!/bin/sh
# Command line: exit status 0/1/2, one clear line for each bad input, no
# cache left behind after a failure, summary text, JSON and CSV (the
# JSON's values) on a fixture.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the recent list of the profiles imported stays in the test's folder
export XDG_DATA_HOME="$tmp/data"
fx="$srcdir/tests/fixtures"

# usage errors exit 2
expect 2 "missing PROFILE" "$NXTOP"
expect 2 "invalid option '--bogus'" "$NXTOP" --bogus x
expect 2 "invalid option '-z'" "$NXTOP" summary -z x
expect 2 "unexpected argument 'b'" "$NXTOP" summary a b
expect 2 "unknown format 'xml' \\(text, json or csv\\)" "$NXTOP" summary --format xml x
expect 2 "invalid option '-o'" "$NXTOP" summary -o x y
expect 0 "Usage: nxtop" "$NXTOP" --help
expect 0 "nxtop 0" "$NXTOP" --version
expect 0 "MIT License" "$NXTOP" --version
# like --help, --version is an option of every command
expect 0 "nxtop 0" "$NXTOP" -q -V
expect 0 "nxtop 0" "$NXTOP" summary --version x
expect 0 "nxtop 0" "$NXTOP" demo -V

# bad input exits 1 with the file named
expect 1 "nxtop: $tmp/nope.json: No such file or directory" "$NXTOP" summary "$tmp/nope.json"
printf '\005\212\134\000' > "$tmp/p.ntff"
expect 1 "export them first with: neuron-profile view --output-format json" "$NXTOP" summary "$tmp/p.ntff"
printf 'x' > "$tmp/p.neff"
expect 1 "p.neff: raw Neuron capture files" "$NXTOP" summary "$tmp/p.neff"
mkdir "$tmp/empty"
expect 1 "a folder with nothing nxtop reads" "$NXTOP" summary "$tmp/empty"
printf '{"instruction":[{"timestamp":1,"duration":2},{"timesta' > "$tmp/trunc.json"
expect 1 "trunc.json: byte 54: unexpected end of file, expected" "$NXTOP" summary "$tmp/trunc.json"
no_file "$tmp/trunc.json.nxdb"
printf '{"instruction":[{"timestamp":1,"duration":2,"label":"Vector"},{"timestamp":"x"}]}' > "$tmp/type.json"
expect 1 'byte 62: "timestamp" is a string, expected an integer in "instruction"\[1\]' "$NXTOP" summary "$tmp/type.json"
no_file "$tmp/type.json.nxdb"
printf '{"instruction":[{"timestamp":1,"duration":2}] garbage' > "$tmp/junk.json"
expect 1 "expected ',' or '}', found 'g'" "$NXTOP" summary "$tmp/junk.json"
printf 'hello' > "$tmp/hello.txt"
expect 1 "hello.txt: not a Neuron profile JSON, Perfetto trace or Chrome trace-event JSON file" "$NXTOP" summary "$tmp/hello.txt"
: > "$tmp/zero.json"
expect 1 "zero.json: empty file" "$NXTOP" summary "$tmp/zero.json"
# a trace of names only: its summary, and a viewer that says, naming the
# profile (not its cache), that there is nothing to show
printf '{"traceEvents":[{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"t"}}]}' > "$tmp/names.json"
expect 0 "^Events +0 slices" "$NXTOP" summary -q "$tmp/names.json"
printf 'keys q\n' > "$tmp/q.keys"
expect 1 "^nxtop: names.json: nothing to show: the profile has no events$" \
	"$NXTOP" -q --headless="$tmp/q.keys" "$tmp/names.json"
# a file the user cannot read says so (as root: another user reads it)
cp "$fx/device_small.json" "$tmp/locked.json"
chmod 000 "$tmp/locked.json"
if [ "$(id -u)" -ne 0 ]; then
	expect 1 "^nxtop: $tmp/locked.json: Permission denied$" "$NXTOP" summary "$tmp/locked.json"
elif other_setup "$tmp/other"; then
	chmod 711 "$tmp"
	mkdir -m 777 "$tmp/open"
	mv "$tmp/locked.json" "$tmp/open/"
	expect 1 "^nxtop: $tmp/open/locked.json: Permission denied$" \
		as_other "$NXTOP" summary "$tmp/open/locked.json"
fi
# gzip damage, said with where it is in the file (the check of a gzip
# member is its last 8 bytes: a CRC-32, read up to 4 bytes before the
# end, and the length): a bad checksum, data cut short, corrupt data;
# first while the format is told, then past the first 64 KiB
gz_damage() {
	n=$(wc -c < "$1")
	cp "$1" "$2-crc.json.gz"
	printf 'XXXX' | dd of="$2-crc.json.gz" bs=1 seek=$((n - 8)) count=4 conv=notrunc 2>/dev/null
	head -c $((n - 10)) "$1" > "$2-cut.json.gz"
	cp "$1" "$2-bad.json.gz"
	printf '\377\377\377\377\377\377' | dd of="$2-bad.json.gz" bs=1 seek=12 count=6 conv=notrunc 2>/dev/null
}
gzip -nc "$fx/chrome_phases.json" > "$tmp/small.json.gz"
gz_damage "$tmp/small.json.gz" "$tmp/small"
n=$(wc -c < "$tmp/small.json.gz")
expect 1 "^nxtop: $tmp/small-crc.json.gz: byte $((n - 4)): gzip: bad checksum$" \
	"$NXTOP" summary -q "$tmp/small-crc.json.gz"
expect 1 "^nxtop: $tmp/small-cut.json.gz: byte $((n - 10)): gzip: cut short$" \
	"$NXTOP" summary -q "$tmp/small-cut.json.gz"
expect 1 "^nxtop: $tmp/small-bad.json.gz: byte [0-9]+: gzip: (corrupt data|bad checksum)$" \
	"$NXTOP" summary -q "$tmp/small-bad.json.gz"
awk 'BEGIN { printf "["; for (i = 0; i < 20000; i++) printf "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1,\"name\":\"e%d\"}", i ? "," : "", i, i; printf "]" }' |
	gzip -n > "$tmp/big.json.gz"
gz_damage "$tmp/big.json.gz" "$tmp/big"
expect 1 "^nxtop: $tmp/big-crc.json.gz: byte [0-9]+: read error: gzip: bad checksum \(near byte [0-9]+ of the file\)" \
	"$NXTOP" summary -q "$tmp/big-crc.json.gz"
expect 1 "^nxtop: $tmp/big-cut.json.gz: byte [0-9]+: read error: gzip: cut short \(near byte [0-9]+ of the file\)" \
	"$NXTOP" summary -q "$tmp/big-cut.json.gz"
# a file of several gzip members reads as their concatenation, the key
# that tells the format in the second member (gzip -c a b > ab); bytes
# after the last member that start no other one (garbage, zero padding)
# are an error where they start, whether the format is being told or
# the file is far past that, never dropped
printf '{"foo":1,' | gzip -n > "$tmp/multi.json.gz"
sed '1s/^{//' "$fx/chrome_phases.json" | gzip -n >> "$tmp/multi.json.gz"
expect 0 "" "$NXTOP" summary -q "$tmp/multi.json.gz"
sed 1d "$out" > "$tmp/multi.txt"
# (a copy: a cache beside the fixture would be one more file in the
# source tree, which other tests list)
cp "$fx/chrome_phases.json" "$tmp/phases.json"
expect 0 "" "$NXTOP" summary -q "$tmp/phases.json"
sed 1d "$out" | diff - "$tmp/multi.txt" >/dev/null ||
	fail "multi.json.gz: $(cat "$tmp/multi.txt")"
for junk in garbage '\0\0\0\0' x; do
	for f in small big; do
		cp "$tmp/$f.json.gz" "$tmp/$f-junk.json.gz"
		printf "$junk" >> "$tmp/$f-junk.json.gz"
	done
	expect 1 "^nxtop: $tmp/small-junk.json.gz: byte $(wc -c < "$tmp/small.json.gz"): gzip: trailing garbage after the compressed data$" \
		"$NXTOP" summary -q "$tmp/small-junk.json.gz"
	expect 1 "^nxtop: $tmp/big-junk.json.gz: byte [0-9]+: read error: gzip: trailing garbage after the compressed data \(near byte $(wc -c < "$tmp/big.json.gz") of the file\)" \
		"$NXTOP" summary -q "$tmp/big-junk.json.gz"
done
cat "$tmp/big.json.gz" "$tmp/small.json.gz" > "$tmp/two.json.gz"
expect 1 "^nxtop: $tmp/two.json.gz: byte [0-9]+: expected end of file, found '\{' in \[20000\]$" \
	"$NXTOP" summary -q "$tmp/two.json.gz"
no_temps "$tmp" "failed imports"
# a file name of 245 bytes (the limit is 255): its temporary files have
# short names of their own, and its cache fits beside it
long="$tmp/$(head -c 240 /dev/zero | tr '\0' n).json"
cp "$fx/device_small.json" "$long"
expect 0 "" "$NXTOP" import -q "$long"
test -f "$long.nxdb" || fail "245-byte name: no cache beside it"

# a good profile: summary agrees with the profile's own figures
cp "$fx/device_small.json" "$tmp/good.json"
expect 0 "Against the profile's own summary" "$NXTOP" summary -q "$tmp/good.json"
grep -q DIFFERS "$out" && fail "summary differs from the profile: $(cat "$out")"
expect 0 "Tensor instructions +count +2 +2 +exact +ok" "$NXTOP" summary -q "$tmp/good.json"
expect 0 '"dma_transfers": 1' "$NXTOP" summary -q --format json "$tmp/good.json"
if have jq; then
	jq -e '.engines.tensor.instruction_count == 2 and .total_time_ns == 1869395' "$out" >/dev/null ||
		fail "summary JSON: $(cat "$out")"
fi
test -f "$tmp/good.json.nxdb" || fail "no cache beside the profile"
# the CSV summary holds the JSON's values (checks, warnings, engines)
if have jq; then
	summary_csv_same "$tmp/good.json"
fi

# active times: the profile's float seconds against the sum of the
# active_time records' end - start; within 10 ns or 0.1% they agree.
# tensor 2 ns apart, vector 10 (the edge), scalar 11, gpsimd 0.1% of
# 1 ms (the edge), sync 1001 ns over 1 ms.
cat > "$tmp/tol.json" <<'EOF'
{"summary":[{"tensor_engine_active_time":5.16e-07,"vector_engine_active_time":5.2e-07,
"scalar_engine_active_time":5.2e-07,"gpsimd_engine_active_time":0.001,
"sync_engine_active_time":0.001}],
"active_time":[{"start_ts":0,"end_ts":300,"engine":"tensor"},{"start_ts":400,"end_ts":618,"engine":"tensor"},
{"start_ts":0,"end_ts":530,"engine":"vector"},{"start_ts":0,"end_ts":531,"engine":"scalar"},
{"start_ts":0,"end_ts":1001000,"engine":"gpsimd"},{"start_ts":0,"end_ts":1001001,"engine":"sync"}],
"instruction":[{"timestamp":0,"duration":1,"label":"Vector","opcode":"X"}]}
EOF
expect 0 "Tensor active time +sum of end-start +518 ns +516 ns +10 ns, 0.1% +ok$" "$NXTOP" summary -q "$tmp/tol.json"
for l in "Vector active time +sum of end-start +530 ns +520 ns +10 ns, 0.1% +ok$" \
	"Scalar active time +sum of end-start +531 ns +520 ns +10 ns, 0.1% +DIFFERS$" \
	"GpSimd active time +sum of end-start +1.001 ms +1 ms +10 ns, 0.1% +ok$" \
	"Sync active time +sum of end-start +1.001001 ms +1 ms +10 ns, 0.1% +DIFFERS$"; do
	grep -Eq "$l" "$out" || fail "no line '$l' in: $(cat "$out")"
done
if have jq; then
	summary_csv_same "$tmp/tol.json"
	expect 0 "" "$NXTOP" summary -q --format json "$tmp/tol.json"
	# numbers, not text; the events' figure is jq's own sum of the records
	jq -e --slurpfile in "$tmp/tol.json" '
		[.checks[] | select(.unit == "ns" and .figure != "Total time")] as $c |
		($c | length) == 5 and
		all($c[]; (.events | type) == "number" and (.profile | type) == "number" and
			.tolerance_abs == 10 and .tolerance_rel == 0.001 and
			.difference == .events - .profile) and
		all($c[]; (.figure | split(" ")[0] | ascii_downcase) as $e |
			.events == ([$in[0].active_time[] | select(.engine == $e) |
				.end_ts - .start_ts] | add)) and
		([$c[] | {(.figure): .agree}] | add) == {"Tensor active time": true,
			"Vector active time": true, "Scalar active time": false,
			"GpSimd active time": true, "Sync active time": false}' "$out" >/dev/null ||
		fail "summary JSON checks: $(jq .checks "$out")"
	# an engine the active-time records leave out was active 0 ns: the
	# profile's 1 us for it differs, and says so
	jq '.summary[0].gpsimd_engine_active_time = 1e-06 |
		.active_time |= map(select(.engine != "gpsimd"))' \
		"$tmp/tol.json" > "$tmp/nogp.json"
	expect 0 "GpSimd active time +sum of end-start +0 ns +1 .s +10 ns, 0.1% +DIFFERS$" \
		"$NXTOP" summary -q "$tmp/nogp.json"
fi
# summary figures given as strings are the numbers they hold: checked,
# stored as numbers and shown as durations and percentages (5.16e-07 s
# is 516 ns, 0.0005 is 0.05%, 1e3 is 1000); a string that is not a
# number, and a version, stay text
cat > "$tmp/strsum.json" <<'EOF'
{"summary":[{"tensor_engine_instruction_count":"2","tensor_engine_active_time":"5.16e-07",
"tensor_engine_active_time_percent":"0.0005","total_time":" 0.001 ","hbm_read_bytes":"1e3",
"runtime_version":"2.30","instance_type":"inf2.xlarge"}],
"active_time":[{"start_ts":0,"end_ts":516,"engine":"tensor"}],
"instruction":[{"timestamp":0,"duration":516,"label":"Tensor","opcode":"A"},
{"timestamp":999000,"duration":1000,"label":"Tensor","opcode":"B"}]}
EOF
expect 0 "Tensor instructions +count +2 +2 +exact +ok$" "$NXTOP" summary -q "$tmp/strsum.json"
for l in "Tensor active time +sum of end-start +516 ns +516 ns +10 ns, 0.1% +ok$" \
	"Total time +last end-profile start +1 ms +1 ms +10 ns, 0.1% +ok$"; do
	grep -Eq "$l" "$out" || fail "no line '$l' in: $(cat "$out")"
done
expect 0 "" "$NXTOP" export -q "$tmp/strsum.json" --what info --format csv
tr -d '\r' <"$out" | awk -F, '$1 == "summary" && $3 == "Key" { k = $4 }
	$1 == "summary" && $3 == "Value" { print k "=" $4 }' >"$tmp/strsum.txt"
for l in "tensor_engine_instruction_count=2" "tensor_engine_active_time=516 ns" \
	"tensor_engine_active_time_percent=0.05%" "total_time=1 ms" \
	"hbm_read_bytes=1000" "runtime_version=2.30" "instance_type=inf2.xlarge"; do
	grep -qx "$l" "$tmp/strsum.txt" || fail "no summary value '$l' in: $(cat "$tmp/strsum.txt")"
done
if have sqlite3; then
	types=$(sqlite3 "$tmp/strsum.json.nxdb" "SELECT group_concat(key || ':' ||
		typeof(value), ' ') FROM (SELECT key, value FROM info WHERE
		section = 'summary' ORDER BY key)")
	[ "$types" = "hbm_read_bytes:integer instance_type:text runtime_version:text tensor_engine_active_time:real tensor_engine_active_time_percent:real tensor_engine_instruction_count:integer total_time:real" ] ||
		fail "summary value types: $types"
fi
# the cache itself can be opened
expect 0 "Profile +graph.neff" "$NXTOP" summary "$tmp/good.json.nxdb"
# import -o writes exactly there
expect 0 "cache $tmp/other.nxdb" "$NXTOP" import "$tmp/good.json" -o "$tmp/other.nxdb"
test -f "$tmp/other.nxdb" || fail "import -o wrote nothing"
# ... and over a cache there before, but never over the profile itself
# (named as it is or through a link), or a file that is no cache
expect 0 "cache $tmp/other.nxdb" "$NXTOP" import -f "$tmp/good.json" -o "$tmp/other.nxdb"
cp "$tmp/good.json" "$tmp/keep.json"
ln -s keep.json "$tmp/keep-link"
printf 'my notes\n' > "$tmp/notes.txt"
for o in keep.json keep-link; do
	expect 1 "^nxtop: $tmp/$o: is the profile being imported: not replaced$" \
		"$NXTOP" import "$tmp/keep.json" -o "$tmp/$o"
	expect 1 "^nxtop: $tmp/$o: is the profile being exported: not written$" \
		"$NXTOP" export "$tmp/keep.json" -o "$tmp/$o"
done
cmp -s "$tmp/good.json" "$tmp/keep.json" || fail "-o replaced the profile"
expect 1 "^nxtop: $tmp/notes.txt: is not an nxtop cache .remove it first to use the name.: not replaced$" \
	"$NXTOP" import "$tmp/keep.json" -o "$tmp/notes.txt"
[ "$(cat "$tmp/notes.txt")" = "my notes" ] || fail "import -o replaced a text file"
# a changed profile is rebuilt, with a note
touch -d '2001-01-01' "$tmp/good.json"
expect 0 "rebuilding $tmp/good.json.nxdb (.*good.json changed)" "$NXTOP" summary "$tmp/good.json"
pass
