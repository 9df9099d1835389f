#!/bin/sh
# Neuron Explorer system profile folders (Parquet): the bundle of
# system_small@latest (converted from system_small.json by
# tests/parquet/system.mjs) and the device folder of device_small.json
# gives the JSON bundle's summary, device list, searches and rows;
# nc= on a folder whose events name only the logical NeuronCore;
# flow_id lists become flows; a folder of profiles with one system folder
# opens as that bundle; the cache follows every table file; export -o
# and import -o write no table file, old or new (import -o refuses one
# of the system folder or of a device folder it lists before it reads
# them); bad table files fail with one line and leave no cache.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx="$srcdir/tests/fixtures"

# The JSON bundle, as tests/system.sh builds it, and its Parquet twin:
# the same device profile, the same hostile names in the list.
mkdir "$tmp/json" "$tmp/pq" "$tmp/outside@latest"
cp "$fx/system_small.json" "$tmp/json/system_profile.json"
cp "$fx/device_small.json" "$tmp/json/device_profile_model_1578576049.json"
cp "$fx/device_small.json" "$tmp/outside.json"
ln -s ../outside.json "$tmp/json/linked_out.json"
cp -R "$fx/parquet-system/system_small@latest" "$tmp/pq/"
cp -R "$fx/parquet-device/device_small@latest" \
	"$tmp/pq/device_profile_model_1578576049@latest"
cp "$fx/parquet-device/device_small@latest/"*.parquet "$tmp/outside@latest/"
ln -s ../outside@latest "$tmp/pq/linked_out@latest"
chmod -R u+w "$tmp"
sys="$tmp/pq/system_small@latest"

# What differs by design: the names of the files and folders, the
# format, the files the cache follows, the import's own notes.
norm() {
	sed -e 's/device_profile_model_\([0-9]*\)\(\.json\|@latest\)/device_profile_model_\1/g' \
		-e 's/system_profile\.json\|system_small@latest/SYSTEM/g' \
		-e 's/linked_out\(\.json\|@latest\)/linked_out/g' \
		-e 's/neuron-system-json\|neuron-system-parquet/FORMAT/g' \
		-e "s#$tmp/json#DIR#g; s#$tmp/pq#DIR#g"
}
norm_text() {
	norm | sed -e '/^Files/,/^$/d' -e '/^Warnings (/d' -e '/\[Import\]/d' | tr -s ' '
}
norm_json() {
	jq -S 'del(.files) | .warnings |= map(select(.origin != "import"))' | norm
}
same() {
	what=$1
	shift
	"$NXTOP" "$@" "$tmp/json" 2>&1 | $what >"$tmp/j.txt"
	"$NXTOP" "$@" "$sys" 2>&1 | $what >"$tmp/p.txt"
	cmp -s "$tmp/j.txt" "$tmp/p.txt" ||
		fail "$*: differs: $(diff "$tmp/j.txt" "$tmp/p.txt" | head -6)"
	[ -s "$tmp/p.txt" ] || fail "$*: empty"
}

expect 0 "$tmp/pq: system profile $sys" "$NXTOP" import "$sys"
grep -q "1 device profile: device_profile_model_1578576049@latest" "$err" ||
	fail "device folders not said: $(cat "$err")"
grep -q "missing device profile device_profile_model_2222@latest" "$err" ||
	fail "missing folder not said: $(cat "$err")"
grep -q '"linked_out" ignored: a link to outside the folder' "$err" ||
	fail "link out not refused: $(cat "$err")"

same norm_text summary -q
same norm_json summary -q --format json
same norm_text summary -q --group instance --row lnc_idx
same norm_text summary -q --filter-nc 0
same norm_text export -q --what devices --format csv
same norm_text export -q --what devices
same norm_text export -q --query "name=nrt_execute nc=1"
# model_name comes from extra_attributes_json, lnc_idx from nc_idx
same norm_text export -q --query "model~other"
grep -q "^Matches 1 " "$tmp/p.txt" || fail "model~other: $(cat "$tmp/p.txt")"
same norm_text export -q --query "lnc=1 source=neuron_hw"
grep -q "^Matches 1 " "$tmp/p.txt" || fail "lnc=1: $(cat "$tmp/p.txt")"
same norm export -q --query "dur>30us" --format json
# Neuron Explorer names an event's NeuronCore only in nc_idx, the logical
# one (lnc_idx in the JSON), as the demo's folders do: nc= finds what
# lnc= does, and what it finds in the JSON of the same run, in the
# export and in the viewer's search alike.
opts="--events 200 --system-events 300 --seed 5"
"$NXTOP" demo $opts --write "$tmp/dj" >/dev/null 2>&1 || fail "demo, JSON"
"$NXTOP" demo $opts --format parquet --write "$tmp/dp" >/dev/null 2>&1 ||
	fail "demo, Parquet"
matches() {
	"$NXTOP" export -q --query "$2" "$1" | sed -n 's/^Matches  *\([0-9]*\) .*/\1/p'
}
printf 'size 160x40\nkeys /nc=0 name=nrt_execute<Enter>\ndump search\n' \
	>"$tmp/nc.keys"
want=$(matches "$tmp/dj" "nc=0 name=nrt_execute")
[ "${want:-0}" -gt 0 ] || fail "JSON demo: no nrt_execute on nc=0"
for q in "nc=0 name=nrt_execute" "lnc=0 name=nrt_execute" \
	"nc_idx=0 name=nrt_execute"; do
	got=$(matches "$tmp/dp/system_profile@latest" "$q")
	[ "$got" = "$want" ] || fail "Parquet: '$q' matches $got, not $want"
done
XDG_DATA_HOME="$tmp/data" "$NXTOP" -q --headless="$tmp/nc.keys" \
	--dump="$tmp" "$tmp/dp/system_profile@latest" ||
	fail "searching nc=0 in the viewer: nxtop failed"
grep -q "^/nc=0 name=nrt_execute  in view: $want matches" "$tmp/search" ||
	fail "the viewer's nc=0: $(grep '^/nc=' "$tmp/search")"
same norm_text export -q --what window
expect 0 "^ 0 +1578576049 +graph.neff .* ready" "$NXTOP" export -q --what devices "$sys"
expect 0 "^Kind +system \(neuron-system-parquet\)$" "$NXTOP" summary -q "$sys"

# export -o writes over no table file of the system or a device folder,
# opened as the system folder or as the folder of profiles, nor a new
# table file there (the next import reads it)
pqdev="$tmp/pq/device_profile_model_1578576049@latest"
mkdir "$tmp/orig"
cp "$sys/CpuUsage.parquet" "$pqdev/Instruction.parquet" "$tmp/orig/"
for p in "$sys" "$tmp/pq"; do
	for o in "$sys/CpuUsage.parquet" "$pqdev/Instruction.parquet"; do
		expect 1 "^nxtop: $o: is a file of the profile being exported: not written$" \
			"$NXTOP" export -q -o "$o" "$p"
	done
	for o in "$sys/Notes.parquet" "$pqdev/Instruction_2.parquet"; do
		expect 1 "^nxtop: $o: the profile's next import would read a file of that name as one of its own: not written$" \
			"$NXTOP" export -q -o "$o" "$p"
		no_file "$o"
	done
done
cmp -s "$tmp/orig/CpuUsage.parquet" "$sys/CpuUsage.parquet" ||
	fail "export -o replaced CpuUsage.parquet"
cmp -s "$tmp/orig/Instruction.parquet" "$pqdev/Instruction.parquet" ||
	fail "export -o replaced Instruction.parquet"
# nor does import -o, which refuses a file of the system folder before
# it reads the folder (an empty table file, which fails to import, is
# refused), with nothing else said
mv "$sys/CpuUsage.parquet" "$tmp/CpuUsage.keep"
: > "$sys/CpuUsage.parquet"
for o in "$sys/Notes.parquet" "$sys/CpuUsage.parquet"; do
	why="the profile's next import would read a file of that name as one of its own"
	[ "$o" = "$sys/CpuUsage.parquet" ] && why="is a file of the profile being imported"
	expect 1 "^nxtop: $o: $why: not written$" \
		"$NXTOP" import -o "$o" "$sys"
	[ "$(wc -l < "$err")" -eq 1 ] || fail "import -o: imported first: $(cat "$err")"
done
no_file "$sys/Notes.parquet"
[ ! -s "$sys/CpuUsage.parquet" ] || fail "import -o wrote over a table file"
mv "$tmp/CpuUsage.keep" "$sys/CpuUsage.parquet"
no_temps "$sys" "import -o refused"
# and a new table file of a device folder the system folder lists,
# opened either way, before anything is written in that folder
files=$(ls -A "$pqdev") mtime=$(stat -c %y "$pqdev")
for p in "$sys" "$tmp/pq"; do
	expect 1 "^nxtop: $pqdev/Instruction_2.parquet: the profile's next import would read a file of that name as one of its own: not written$" \
		"$NXTOP" import -o "$pqdev/Instruction_2.parquet" "$p"
	[ "$(wc -l < "$err")" -eq 1 ] || fail "import -o: imported first: $(cat "$err")"
done
[ "$(ls -A "$pqdev")" = "$files" ] && [ "$(stat -c %y "$pqdev")" = "$mtime" ] ||
	fail "import -o wrote in a device folder: $(ls -A "$pqdev")"
expect 0 "" "$NXTOP" export -q -o "$pqdev/notes.txt" "$sys"
test -s "$pqdev/notes.txt" || fail "export -o into a device folder wrote nothing"
rm -rf "$pqdev/notes.txt" "$tmp/orig"
# a cache of another name in a device folder the import reads: the
# temporary cache made there is no change to the folder; the cache
# holds what the system folder's own does
expect 0 "" "$NXTOP" summary -q "$sys"
cp "$out" "$tmp/sum.want"
for p in "$sys" "$tmp/pq"; do
	expect 0 "" "$NXTOP" import -q -o "$pqdev/own.nxdb" "$p"
	expect 0 "" "$NXTOP" summary -q "$pqdev/own.nxdb"
	cmp -s "$tmp/sum.want" "$out" ||
		fail "import -o $pqdev/own.nxdb $p: summary differs: $(diff "$tmp/sum.want" "$out" | head)"
	rm -f "$pqdev/own.nxdb"
done
no_temps "$pqdev" "import -o into a device folder"
# a file added to a device folder while it is read is a change
(i=0; while :; do i=$((i + 1)); : > "$pqdev/Added_$i.txt"; done) &
adder=$!
expect 1 "^nxtop: .*device_profile_model_1578576049@latest.*: the file changed while it was read \(is it still being written\?\)" \
	"$NXTOP" import -q -f "$sys"
kill "$adder"
wait "$adder" 2>/dev/null
rm -f "$pqdev"/Added_*.txt
no_temps "$pqdev" "a device folder changed while it was read"

# The table nxtop does not know is kept and listed.
expect 0 'unrecognised table "FutureSystemTable": 3 record\(s\) kept in the info table' \
	"$NXTOP" summary -q "$sys"
expect 0 '^== FutureSystemTable' "$NXTOP" export -q "$sys" --what info --section FutureSystemTable

# Few columns, int32 where int64 is documented, no other tables: the
# events and rows jq counts in the JSON (a row per source, instance,
# process and thread when there are no NeuronCores), the CPU samples;
# the columns nxtop does not know are listed, and kept with each event.
cp -R "$fx/parquet-system/sparse@latest" "$tmp/"
chmod -R u+w "$tmp/sparse@latest"
rows=$(jq '[.trace_event[] | [(.trace_event_source // (if (.group // "" | startswith("framework"))
	then "framework" elif .name == "nc_exec_running" then "neuron_hw" else "neuron_rt" end)),
	.instance_id, (.process_id | tostring), (.thread_id | tostring)]] | unique | length' \
	"$fx/system_small.json")
want=$(jq -r --arg rows "$rows" '"\(.trace_event | length) trace events in \($rows) rows, \(.cpu_util | length) counter samples, 0 device profiles"' \
	"$fx/system_small.json")
expect 0 "^Events       $want\$" "$NXTOP" summary -q "$tmp/sparse@latest"
grep -q 'SystemProfileEvents.parquet: columns nxtop does not know, kept with each event: future_event_field$' "$out" ||
	fail "the unknown event column is not listed: $(grep Import "$out")"
grep -q 'CpuUsage.parquet: columns nxtop does not know, not read: future_seq$' "$out" ||
	fail "the unknown CPU column is not listed: $(grep Import "$out")"
n=$(sqlite3 "$tmp/sparse@latest.nxdb" "SELECT count(*) FROM arg WHERE args LIKE '%\"future_event_field\":\"f%'")
[ "$n" -eq "$(jq '.trace_event | length' "$fx/system_small.json")" ] ||
	fail "future_event_field kept with $n events"

# Flows by hand from system.mjs's flow_id lists: "101" on events 10, 12
# and 3377699720529032 (two links, in time order), "exec-2" on
# 3377699720529031 and 3377699720529032 (one).
sqlite3 "$tmp/pq/system_small@latest.nxdb" "SELECT a.id, b.id FROM flow f
	JOIN sys_event a ON a.slice_id = f.slice_out
	JOIN sys_event b ON b.slice_id = f.slice_in ORDER BY a.id, b.id" >"$tmp/flows.txt" ||
	fail "flows: $(cat "$tmp/flows.txt")"
printf '10|12\n12|3377699720529032\n3377699720529031|3377699720529032\n' >"$tmp/want.txt"
cmp -s "$tmp/want.txt" "$tmp/flows.txt" || fail "flows: $(cat "$tmp/flows.txt")"

# Neuron Explorer's profiles/global/: its one system folder is the bundle.
"$NXTOP" summary -q "$tmp/pq" | norm_text >"$tmp/g.txt"
"$NXTOP" summary -q "$sys" | norm_text >"$tmp/p.txt"
cmp -s "$tmp/g.txt" "$tmp/p.txt" ||
	fail "the folder of profiles: $(diff "$tmp/g.txt" "$tmp/p.txt" | head -4)"
expect 0 '' "$NXTOP" summary "$tmp/pq"
grep -q rebuilding "$err" && fail "the folder of profiles' fresh cache was rebuilt: $(cat "$err")"
expect 0 '^pq,bundle,' "$NXTOP" list --format csv "$tmp"
# a JSON bundle's own system profile comes before a system folder in it
cp -R "$sys" "$tmp/json/"
expect 0 '^Kind +system \(neuron-system-json\)$' "$NXTOP" summary -q "$tmp/json"
rm -rf "$tmp/json/system_small@latest" "$tmp/json.nxdb"
mkdir "$tmp/two"
cp -R "$sys" "$tmp/two/a@latest"
cp -R "$sys" "$tmp/two/b@latest"
expect 1 "two: several system profile folders \((a@latest, b@latest|b@latest, a@latest)\); open one of them" \
	"$NXTOP" summary -q "$tmp/two"

# The cache follows the table files of the system and device folders.
expect 0 '' "$NXTOP" summary "$sys"
grep -q rebuilding "$err" && fail "a fresh cache was rebuilt: $(cat "$err")"
cp "$sys/Warning.parquet" "$tmp/w.parquet"
cp "$sys/CpuUsage.parquet" "$sys/Warning.parquet"
expect 0 'rebuilding .*Warning\.parquet changed' "$NXTOP" summary "$sys"
cp "$tmp/w.parquet" "$sys/Warning.parquet"
expect 0 'rebuilding' "$NXTOP" summary "$sys"
dev="$tmp/pq/device_profile_model_1578576049@latest"
cp "$dev/DmaPacket.parquet" "$dev/DmaPacket_1.parquet"
expect 0 'rebuilding .*device_profile_model_1578576049@latest' "$NXTOP" summary "$sys"
rm "$dev/DmaPacket_1.parquet"
cp -R "$dev" "$tmp/pq/device_profile_model_2222@latest"
expect 0 'rebuilding .*device_profile_model_2222@latest' "$NXTOP" summary "$sys"
grep -Eq ' 2 +2222 .* ready' "$out" || fail "the listed folder that came is not ready"
rm -rf "$tmp/pq/device_profile_model_2222@latest"

# Bad table files: one line naming the folder and the file, exit 1, no
# cache, no temporary file.
bad() {
	rm -rf "$tmp/bad@latest" "$tmp/bad@latest.nxdb"
	cp -R "$sys" "$tmp/bad@latest"
}
check_bad() {
	expect 1 "$1" "$NXTOP" summary -q "$tmp/bad@latest"
	[ "$(wc -l <"$err")" -eq 1 ] || fail "not one line: $(cat "$err")"
	no_file "$tmp/bad@latest.nxdb"
	no_temps "$tmp" "$1"
}
bad
head -c 300 "$sys/SystemProfileEvents.parquet" >"$tmp/bad@latest/SystemProfileEvents.parquet"
check_bad "^nxtop: $tmp/bad@latest/SystemProfileEvents.parquet: not a Parquet file \(no PAR1 at its end\)$"
bad
cp "$sys/CpuUsage.parquet" "$tmp/bad@latest/SystemProfileEvents.parquet"
check_bad "^nxtop: $tmp/bad@latest/SystemProfileEvents.parquet: no column \"start_ts\" \(the SystemProfileEvents table needs it\)$"
bad
cp "$sys/Warning.parquet" "$tmp/bad@latest/DeviceProfileList.parquet"
check_bad "^nxtop: $tmp/bad@latest/DeviceProfileList.parquet: no column \"device_profile_name\""
bad
cp "$fx/parquet-system/bad_extra@latest/SystemProfileEvents.parquet" "$tmp/bad@latest/"
check_bad "^nxtop: $tmp/bad@latest/SystemProfileEvents.parquet: row 0: \"extra_attributes_json\" is not a JSON object$"
# a table it needs that is a link or a FIFO: the error names it; an
# optional one is left out with a warning
bad
mv "$tmp/bad@latest/DeviceProfileList.parquet" "$tmp/bad@latest/list"
ln -s list "$tmp/bad@latest/DeviceProfileList.parquet"
check_bad "^nxtop: $tmp/bad@latest/DeviceProfileList.parquet: a link: nxtop reads only the regular files of a profile folder$"
bad
rm "$tmp/bad@latest/CpuUsage.parquet"
mkfifo "$tmp/bad@latest/CpuUsage.parquet"
expect 0 "\[Import\] $tmp/bad@latest/CpuUsage.parquet: not a regular file, left out: nxtop reads only the regular files of a profile folder$" \
	"$NXTOP" summary -q "$tmp/bad@latest"
# an optional table that cannot be read is a warning
bad
head -c 200 "$sys/CpuUsage.parquet" >"$tmp/bad@latest/CpuUsage.parquet"
expect 0 "\[Import\] $tmp/bad@latest/CpuUsage.parquet: not a Parquet file .*\(the CpuUsage table is left out\)" \
	"$NXTOP" summary -q "$tmp/bad@latest"
grep -Eq '^  i-0f207fb2a99bd2d08 +CPU' "$out" && fail "CPU counters from a broken table"
# a table named like a device profile's JSON key is left out, the
# warning naming the table that settled the kind as the folder has it
bad
cp "$sys/Warning.parquet" "$tmp/bad@latest/dma.parquet"
expect 0 "\[Import\] $tmp/bad@latest/dma.parquet: row 0: expected a system profile's tables after \"SystemProfileMetadata\", found a device profile's table \(the dma table is left out\)\$" \
	"$NXTOP" summary -q "$tmp/bad@latest"
# of a long unknown table (10005 rows, tests/parquet/device.mjs), the
# first 10000 rows
bad
cp "$fx/parquet-device/screen_split@latest/FutureLog.parquet" "$tmp/bad@latest/"
expect 0 'table "FutureLog": only its first 10000 rows are kept in its info table' \
	"$NXTOP" summary -q "$tmp/bad@latest"
n=$(sqlite3 "$tmp/bad@latest.nxdb" "SELECT count(*), max(idx) FROM info WHERE section = 'FutureLog'")
[ "$n" = "10000|9999" ] || fail "FutureLog: $n info rows (count|max idx), not 10000|9999"
# a broken device folder is a device profile that failed, as in JSON
head -c 300 "$sys/SystemProfileEvents.parquet" >"$dev/Instruction.parquet"
expect 0 " 0 +1578576049 .* failed" "$NXTOP" summary -q "$sys"
grep -q "device_profile_model_1578576049@latest/Instruction.parquet: not a Parquet file" "$out" ||
	fail "the failed device folder's reason: $(grep -i instruction "$out")"
no_temps "$tmp" "failed imports"
pass
