#!/bin/sh
# Bundles on the command line: nxtop DIR finds the system profile and its
# device profiles and says which files it used; a missing device file and
# hostile names are warnings; filters get their own cache; --group and
# --row regroup the summary's rows; a thread is one row whether or not
# its events carry worker_gid, in any order; counters of several
# instances in one group are told apart; export -o and import -o
# write over no file of the bundle, nor a new one its next import would
# read, and import -o refuses its system profile before importing; bad
# options are usage errors; a device profile's events are its slices.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the recent list of the profiles imported stays in the test's folder
export XDG_DATA_HOME="$tmp/data"
fx="$srcdir/tests/fixtures"
b="$tmp/run"

mkdir "$b"
cp "$fx/system_small.json" "$b/system_profile.json"
cp "$fx/device_small.json" "$b/device_profile_model_1578576049.json"
cp "$fx/device_small.json" "$tmp/outside.json"
ln -s ../outside.json "$b/linked_out.json"

expect 0 "$b: system profile $b/system_profile.json" "$NXTOP" import "$b"
grep -q "1 device profile: device_profile_model_1578576049.json" "$err" ||
	fail "device files not said: $(cat "$err")"
grep -q "missing device profile device_profile_model_2222.json" "$err" ||
	fail "missing file not said: $(cat "$err")"
grep -q '"linked_out" ignored: a link to outside the folder' "$err" ||
	fail "link out not refused: $(cat "$err")"
test -f "$tmp/run.nxdb" || fail "no cache beside the folder"
ls "$b" | grep -q nxdb && fail "cache written inside the folder"

expect 0 "DROPPED +the profile says events were dropped" "$NXTOP" summary -q "$b"
expect 0 "gid33-nc1-tid1627712-neuron_hw +hw +1" "$NXTOP" summary -q "$b"
expect 0 " 2 +2222 .* missing" "$NXTOP" summary -q "$b"
expect 0 "nc1-neuron_rt +nrt" "$NXTOP" summary -q --group instance --row lnc_idx "$b"
expect 0 '"dropped_events": true' "$NXTOP" summary -q --format json "$b"
if have jq; then
	jq -e '(.device_profiles | length) == 2 and .events == 10 and
	       ([.rows[] | select(.kind == "hw")] | length) == 2' "$out" >/dev/null ||
		fail "summary JSON: $(cat "$out")"
	summary_csv_same "$b"
	summary_csv_same --group instance --row lnc_idx "$b"
fi

# counters of two instances in one group are told apart: GROUP/NAME, as
# --tracks reads them; in a group of their own they keep their names
"$NXTOP" demo --write "$tmp/demo" >/dev/null 2>&1 || fail "the demo failed"
for grouping in "--group=" "--group=process"; do
	"$NXTOP" summary -q --format csv "$grouping" --row= "$tmp/demo" > "$out" ||
		fail "summary $grouping failed"
	sed -n 's/^counters,[0-9]*,name,//p' "$out" | sort | uniq -d > "$tmp/dup"
	[ -s "$tmp/dup" ] && fail "$grouping: counters named alike: $(cat "$tmp/dup")"
	grep -q "^counters,[0-9]*,name,i-0a1b2c3d4e5f6a7b1/CPU average" "$out" ||
		fail "$grouping: no i-0a1b2c3d4e5f6a7b1/CPU average: $(grep counters "$out")"
done
expect 0 "^counters,[0-9]*,name,CPU average" "$NXTOP" summary -q --format csv "$tmp/demo"

# a device profile's events, in the device list and in the system
# summary, are its slices as sqlite3 counts them, not its counter samples
if have sqlite3; then
	sqlite3 -separator , "$tmp/demo.nxdb" "SELECT t.profile_id, count(*)
		FROM slice s JOIN track t ON t.id = s.track_id JOIN profile p
		ON p.id = t.profile_id WHERE p.kind = 'device' GROUP BY 1
		ORDER BY 1" > "$tmp/slices.want"
	expect 0 "" "$NXTOP" export -q --what devices --format csv "$tmp/demo"
	tr -d '\r' < "$out" | awk -F, 'NR > 1 { print $10 "," $7 }' | sort |
		cmp -s - "$tmp/slices.want" ||
		fail "device events: $(cat "$out") wanted $(cat "$tmp/slices.want")"
	cut -d, -f2 "$tmp/slices.want" | sort > "$tmp/events.want"
	expect 0 "" "$NXTOP" summary -q "$tmp/demo"
	sed -n '/^Device profiles/,/^$/p' "$out" |
		awk 'NR > 2 && NF { print $(NF - 3) }' | sort |
		cmp -s - "$tmp/events.want" ||
		fail "summary device events: $(cat "$out") wanted $(cat "$tmp/events.want")"
fi

# the device list, and search over system events
expect 0 "^ 0 +1578576049 +graph.neff .* ready" "$NXTOP" export -q --what devices "$b"
expect 0 "^nc_idx,model,name,instance_id,process_id,file,events,duration_ns,state,profile_id" \
	"$NXTOP" export -q --what devices --format csv "$b"
expect 0 "Matches +1 " "$NXTOP" export -q --query "name=nrt_execute nc=1" "$b"

# filters: a cache of their own, named after them
expect 0 "cache $tmp/run\.[0-9a-f]{16}\.nxdb" "$NXTOP" import --filter-nc 0 "$b"
expect 0 "filtered at import \(nc=0\)" "$NXTOP" summary -q --filter-nc 0 "$b"
expect 0 "Events +7 trace events in 3 rows" "$NXTOP" summary -q --filter-nc 0 "$b"

# a system profile file brings its folder's device profiles too
expect 0 "1 device profile" "$NXTOP" import "$b/system_profile.json"

# export -o writes over no file of the bundle (its system profile, a
# device profile, one the list names that is not there yet), named as
# the folder or as its system profile, nor a new file the next import
# would read (a system profile's name, a device profile named the
# tools' way); other new files in the folder are fine
mkdir "$tmp/orig"
cp "$b/system_profile.json" "$b/device_profile_model_1578576049.json" "$tmp/orig/"
for p in "$b" "$b/system_profile.json"; do
	for o in system_profile.json device_profile_model_1578576049.json; do
		expect 1 "^nxtop: $b/$o: is (the|a file of the) profile being exported: not written$" \
			"$NXTOP" export -q -o "$b/$o" "$p"
	done
	expect 1 "^nxtop: $b/device_profile_model_2222.json: is a device profile the bundle lists: not written$" \
		"$NXTOP" export -q -o "$b/device_profile_model_2222.json" "$p"
	for o in profile.json device_profile_model_7.json.gz \
		i-0123_pid_5_nc_3_model_7.json; do
		expect 1 "^nxtop: $b/$o: the profile's next import would read a file of that name as one of its own: not written$" \
			"$NXTOP" export -q -o "$b/$o" "$p"
	done
done
for o in system_profile.json device_profile_model_1578576049.json; do
	cmp -s "$tmp/orig/$o" "$b/$o" || fail "export -o replaced $o"
done
for o in device_profile_model_2222.json profile.json \
	device_profile_model_7.json.gz i-0123_pid_5_nc_3_model_7.json; do
	no_file "$b/$o"
done
expect 0 "" "$NXTOP" export -q -o "$b/notes.json" "$b"
test -s "$b/notes.json" || fail "export -o into the bundle's folder wrote nothing"
# nor the cache the export reads, which would be left empty
expect 1 "^nxtop: $b.nxdb: is the cache the profile is read from: not written$" \
	"$NXTOP" export -q -o "$b.nxdb" "$b"
expect 0 "Kind +system" "$NXTOP" summary -q "$b"
rm -rf "$b/notes.json" "$tmp/orig"

# import -o writes its cache over no file of the bundle either, not even
# an empty one (its device profile would then fail to import), nor a new
# file the next import would read: one line saying why, status 1, no
# file made or changed and no temporary file left; a new name of its
# own in the folder is written
mv "$b/device_profile_model_1578576049.json" "$tmp/device.keep"
: > "$b/device_profile_model_1578576049.json"
expect 1 "^nxtop: $b/device_profile_model_1578576049.json: is a file of the profile being imported: not written$" \
	"$NXTOP" import -q -o "$b/device_profile_model_1578576049.json" "$b"
[ "$(wc -l < "$err")" -eq 1 ] || fail "import -o: more than one line: $(cat "$err")"
[ ! -s "$b/device_profile_model_1578576049.json" ] ||
	fail "import -o wrote over the bundle's empty device profile"
mv "$tmp/device.keep" "$b/device_profile_model_1578576049.json"
expect 1 "^nxtop: $b/device_profile_model_2222.json: is a device profile the bundle lists: not written$" \
	"$NXTOP" import -q -o "$b/device_profile_model_2222.json" "$b"
for o in profile.json device_profile_model_7.json.gz i-0123_pid_5_nc_3_model_7.json; do
	expect 1 "^nxtop: $b/$o: the profile's next import would read a file of that name as one of its own: not written$" \
		"$NXTOP" import -q -o "$b/$o" "$b"
	no_file "$b/$o"
done
no_file "$b/device_profile_model_2222.json"
no_temps "$b" "import -o refused"
# it refuses before the import reads anything: no note of the import,
# and a bundle whose system profile is empty, which fails to import, is
# refused
mkdir "$tmp/empty"
: > "$tmp/empty/system_profile.json"
expect 1 "^nxtop: $tmp/empty/system_profile.json: is a file of the profile being imported: not written$" \
	"$NXTOP" import -o "$tmp/empty/system_profile.json" "$tmp/empty"
[ "$(wc -l < "$err")" -eq 1 ] || fail "import -o: imported first: $(cat "$err")"
[ ! -s "$tmp/empty/system_profile.json" ] ||
	fail "import -o wrote over an empty system profile"
no_temps "$tmp/empty" "import -o refused first"
rm -rf "$tmp/empty"
expect 0 "" "$NXTOP" import -q -o "$b/notes.nxdb" "$b"
expect 0 "Kind +system" "$NXTOP" summary -q "$b/notes.nxdb"
rm -f "$b/notes.nxdb"
expect 0 "^ 0 +1578576049 +graph.neff .* ready" "$NXTOP" export -q --what devices "$b"

expect 2 "--filter-nc: 'x' is not a NeuronCore" "$NXTOP" summary --filter-nc x "$b"
expect 2 "--filter-event-type: no names given" "$NXTOP" summary --filter-event-type , "$b"
# past 4096 items a filter is refused, not cut short; NeuronCores go up
# to 1000000
many=$(seq -s, 1 4097)
expect 2 "--filter-instance: more than 4096 names" "$NXTOP" summary --filter-instance "i-$many" "$b"
expect 2 "--filter-nc: more than 4096 NeuronCores or ranges" "$NXTOP" summary --filter-nc "$(seq -s, 0 2 8194)" "$b"
expect 2 "--filter-nc: '1000001' is not a NeuronCore" "$NXTOP" summary --filter-nc 1000001 "$b"
expect 0 "" "$NXTOP" import -q --filter-nc 1000000 --filter-event-type "$(seq -s, 1 4096)" "$b"
expect 2 "--group: unknown field 'host'" "$NXTOP" summary --group host "$b"
expect 2 "--row: 'thread_id' given twice" "$NXTOP" summary --row tid,thread_id "$b"

# A thread is one row when some of its events lack worker_gid (or one of
# lnc_idx and nc_idx), whichever come first: rows and their counts as jq
# finds them grouping the events by source, instance, process, thread
# and logical core (lnc_idx, else nc_idx), under each grouping.
threads_rows() { # FIXTURE GROUPKEY ROWKEY: "group|row|events|event time"
	jq -r --arg g "$2" --arg r "$3" '
	def core: (.lnc_idx // .nc_idx) | tostring;
	def gid: [.[].worker_gid | select(. != null) | tostring] | first;
	def part($k):
		if $k == "process" then "\(.[0].instance_id)-pid\(.[0].process_id)"
		elif $k == "instance" then .[0].instance_id
		elif $k == "thread" then "tid\(.[0].thread_id)"
		elif $k == "lnc" then "nc\(.[0] | core)"
		else (if gid then "gid\(gid)-" else "" end) +
			"nc\(.[0] | core)-tid\(.[0].thread_id)" end;
	.trace_event
	| group_by([.trace_event_source, .instance_id,
		    (if $g == "process" then .process_id else "" end),
		    (if $r == "lnc" then "" else .thread_id end),
		    (if $r == "thread" then "" else core end)])
	| map("\(part($g))|\(part($r))-\(.[0].trace_event_source)|\(length)|\(map(.duration) | add)")
	| .[]' "$1" | sort
}
nxtop_rows() { # CACHE ARGS...: the same from nxtop's summary
	"$NXTOP" summary -q --format json "$@" |
		jq -r '.rows[] | "\(.group)|\(.name)|\(.events)|\(.event_time_ns)"' | sort
}
if command -v jq >/dev/null; then
	th="$tmp/system_threads.json"
	cp "$fx/system_threads.json" "$th"
	jq '.trace_event |= reverse' "$th" > "$tmp/threads_reversed.json"
	for f in "$th" "$tmp/threads_reversed.json"; do
		threads_rows "$th" process row > "$tmp/want"
		[ "$(wc -l < "$tmp/want")" -eq 7 ] || fail "jq found $(wc -l < "$tmp/want") rows"
		nxtop_rows "$f" > "$tmp/got"
		diff "$tmp/want" "$tmp/got" > "$tmp/diff" ||
			fail "rows of $(basename "$f"): $(cat "$tmp/diff")"
		threads_rows "$th" process thread > "$tmp/want"
		nxtop_rows --row thread_id "$f" > "$tmp/got"
		diff "$tmp/want" "$tmp/got" > "$tmp/diff" ||
			fail "rows by thread of $(basename "$f"): $(cat "$tmp/diff")"
		threads_rows "$th" instance lnc > "$tmp/want"
		nxtop_rows --group instance --row lnc "$f" > "$tmp/got"
		diff "$tmp/want" "$tmp/got" > "$tmp/diff" ||
			fail "rows by core of $(basename "$f"): $(cat "$tmp/diff")"
	done
fi

# One model on several NeuronCores: each device file says NeuronCore 0
# inside; the bundle says which is which. Wanted: "NC,process,file,state"
# from the fixture's device_profile_list (jq), plus the file it does not
# name with the NeuronCore its name gives (sed).
ncs="$tmp/ncs"
bundle_ncs "$ncs" || fail "bundle_ncs failed"
if have jq; then
	{
		jq -r --arg dir "$ncs" '.device_profile_list[] |
			[(.nc_id | tonumber), .process_id,
			 .device_profile_name + ".json"] | map(tostring) | join(",")' \
			"$fx/system_ncs.json" | while IFS=, read -r nc pid file; do
			state=missing
			[ -f "$ncs/$file" ] && state=ready
			echo "$nc,$pid,$file,$state"
		done
		for f in "$ncs"/*_nc_*.json; do
			f=$(basename "$f")
			jq -e --arg f "${f%.json}" 'any(.device_profile_list[];
				.device_profile_name == $f)' "$fx/system_ncs.json" \
				>/dev/null && continue
			echo "$f" | sed 's/^i-[^_]*_pid_\([0-9]*\)_nc_\([0-9]*\)_.*/\2,\1/' |
				tr -d '\n'
			echo ",$f,ready"
		done
	} | sort > "$tmp/ncs.want"
	expect 0 "" "$NXTOP" export -q --what devices --format csv "$ncs"
	awk -F, 'NR > 1 { print $1 "," $5 "," $6 "," $9 }' "$out" | sort \
		> "$tmp/ncs.got"
	cmp -s "$tmp/ncs.want" "$tmp/ncs.got" ||
		fail "devices by NeuronCore: $(diff "$tmp/ncs.want" "$tmp/ncs.got")"
	expect 0 "" "$NXTOP" summary -q --format json "$ncs"
	jq -r '.device_profiles[] | [.nc_idx, .process_id, .file, .state] |
		map(tostring) | join(",")' "$out" | sort > "$tmp/ncs.got"
	cmp -s "$tmp/ncs.want" "$tmp/ncs.got" ||
		fail "summary devices: $(diff "$tmp/ncs.want" "$tmp/ncs.got")"
fi
# the summary's text names each one's NeuronCore, process and file
expect 0 "^ +2 +777 .* 200 +i-0c0ffee000000abcd_pid_200_nc_2_model_777.json" \
	"$NXTOP" summary -q "$ncs"
expect 0 "^ +1 +777 .* 100 +i-0c0ffee000000abcd_pid_100_nc_1_model_777.json" \
	"$NXTOP" summary -q "$ncs"
# --filter-nc keeps NeuronCore 2's files, by the bundle's word
expect 0 "" "$NXTOP" export -q --filter-nc 2 --what devices --format csv "$ncs"
[ "$(awk -F, 'NR > 1 { print $1 }' "$out" | sort -u)" = 2 ] ||
	fail "--filter-nc 2 devices: $(cat "$out")"

# One device file that the list gives to two NeuronCores (one compiled
# model run on both): one device profile, its NeuronCore not known, a
# warning that says so, and each NeuronCore's execution drills into it.
mkdir "$tmp/shared"
cp "$fx/device_small.json" "$tmp/shared/device_profile_model_1.json"
cat > "$tmp/shared/system_profile.json" <<'EOF'
{"trace_event": [
 {"name": "nrt_execute", "timestamp": 1729888371056597613, "duration": 1000,
  "timestamp_unit": "ns", "id": 1, "instance_id": "i-a", "process_id": "1",
  "thread_id": 7, "lnc_idx": 0, "nc_idx": 0, "worker_gid": 0,
  "trace_event_source": "neuron_rt", "model_id": "1"},
 {"name": "nrt_execute", "timestamp": 1729888371066597613, "duration": 1000,
  "timestamp_unit": "ns", "id": 2, "instance_id": "i-a", "process_id": "1",
  "thread_id": 8, "lnc_idx": 1, "nc_idx": 1, "worker_gid": 1,
  "trace_event_source": "neuron_rt", "model_id": "1"}],
 "device_profile_list": [
 {"nc_id": 0, "device_profile_name": "device_profile_model_1",
  "instance_id": "i-a", "process_id": "1", "model_id": "1"},
 {"nc_id": 1, "device_profile_name": "device_profile_model_1",
  "instance_id": "i-a", "process_id": "1", "model_id": "1"}]}
EOF
expect 0 "" "$NXTOP" export -q --what devices --format csv "$tmp/shared"
[ "$(awk -F, 'NR > 1 { print $1 "," $6 }' "$out")" = ",device_profile_model_1.json" ] ||
	fail "a file listed for two NeuronCores: $(cat "$out")"
expect 0 "device_profile_model_1.json is listed for NeuronCores 0, 1: one device profile for all of them" \
	"$NXTOP" summary -q "$tmp/shared"
for nc in 0 1; do
	printf 'size 160x40\nkeys /name=nrt_execute nc=%d<Enter>n<Enter><Enter>\ndump d\n' \
		"$nc" > "$tmp/shared.keys"
	"$NXTOP" -q --headless="$tmp/shared.keys" --dump="$tmp" "$tmp/shared" ||
		fail "drilling from NeuronCore $nc: nxtop failed"
	head -n 1 "$tmp/d" | grep -q "device_profile_model_1.json" ||
		fail "NeuronCore $nc's execution did not drill: $(head -n 1 "$tmp/d")"
done
# A marker dropped in a device profile drilled into is filed under the
# device file, as when it is opened alone; one an older version filed
# under "<bundle>::<file>" moves there when the profile is shown
dev="$tmp/shared/device_profile_model_1.json"
sqlite3 "$XDG_DATA_HOME/nxtop/userdata.db" "INSERT INTO marker(profile,
	name, ts, created) VALUES('$(cd "$tmp/shared" && pwd -P)::device_profile_model_1.json',
	'old', 1000, 0)" || fail "sqlite3 could not add the older marker"
printf 'size 160x40\nkeys /name=nrt_execute nc=0<Enter>n<Enter><Enter>:mark drilled<Enter>\n' \
	> "$tmp/mark.keys"
"$NXTOP" -q --headless="$tmp/mark.keys" --dump="$tmp" "$tmp/shared" ||
	fail "marking a drilled-into device profile: nxtop failed"
expect 0 "" "$NXTOP" export -q "$dev" --what markers --format csv
[ "$(tail -n +2 "$out" | cut -d, -f1 | tr -d '\r' | sort | tr '\n' ' ')" = "drilled old " ] ||
	fail "the device file's markers: $(cat "$out")"

mkdir "$tmp/two"
cp "$fx/system_small.json" "$tmp/two/a.json"
cp "$fx/system_small.json" "$tmp/two/b.json"
expect 1 "several system profiles \(a.json, b.json\)" "$NXTOP" summary "$tmp/two"
no_temps "$tmp" "failed imports"

# The progress line of a bundle's device profiles counts what each has
# read, not only those done: every line before the first is done shows
# some of them read (it first shows after a second). Its events are the
# device profiles' slices and counter samples, not their rows in every
# table. On a terminal (script), with device profiles that take seconds.
# flow_id entries: a 64-bit id, as a number or as text, is that number
# (exact past 2^53 and past INT64_MAX, "7" the same flow as 7); other
# text is the id itself, in every export, ends of the same text linking
# as numbers do
cp "$fx/system_flow_ids.json" "$tmp/flow_ids.json"
expect 0 "" "$NXTOP" export -q --format csv --what flows "$tmp/flow_ids.json"
tail -n +2 "$out" | tr -d '\r' | cut -d, -f1,4,8 >"$tmp/got"
printf '%s\n' -5,1,2 7,1,2 9007199254740993,1,2 9223372036854775807,1,2 \
	18446744073709551615,1,2 0x1A,1,2 only,2, req-9,1,2 req-9,2,3 >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" ||
	fail "flow_ids.json: flow ids: $(diff "$tmp/want" "$tmp/got")"
if have jq; then
	expect 0 "" "$NXTOP" export -q --format json --what flows "$tmp/flow_ids.json"
	[ "$(jq -r '[.flows[].flow_id] | join(" ")' "$out")" = \
		"-5 7 9007199254740993 9223372036854775807 18446744073709551615 0x1A only req-9 req-9" ] ||
		fail "flow_ids.json: JSON flow ids: $(cat "$out")"
fi
expect 0 "^req-9 +flow " "$NXTOP" export -q --what flows "$tmp/flow_ids.json"

if [ "${NXTOP_SLOW_TESTS:-0}" = 1 ] && have script; then
	"$NXTOP" demo --events 300000 --system-events 2000 --seed 2 \
		--write "$tmp/big" >/dev/null 2>&1 || fail "the big demo failed"
	COLUMNS=200 script -qfec "'$NXTOP' import '$tmp/big'" "$tmp/typescript" \
		>/dev/null 2>&1 || fail "import of the big demo failed"
	tr '\r' '\n' < "$tmp/typescript" |
		sed -n 's/.*importing device profiles 0\/2 \([0-9]*\)%\(, \([0-9]*\) events\)\{0,1\}.*/\1 \3/p' \
		> "$tmp/progress"
	[ -s "$tmp/progress" ] || fail "no progress line: $(tr '\r' '\n' < "$tmp/typescript")"
	[ "$(awk '$1 == 0' "$tmp/progress" | wc -l)" = 0 ] ||
		fail "device profiles at 0% while they import: $(cat "$tmp/progress")"
	total=$(sqlite3 "$tmp/big.nxdb" "SELECT (SELECT count(*) FROM slice s JOIN
		track t ON t.id = s.track_id JOIN profile p ON p.id = t.profile_id
		WHERE p.kind = 'device') + (SELECT count(*) FROM counter c JOIN
		track t ON t.id = c.track_id JOIN profile p ON p.id = t.profile_id
		WHERE p.kind = 'device')")
	awk -v n="$total" '$2 > n { bad = 1 } END { exit bad }' "$tmp/progress" ||
		fail "more events than the device profiles hold ($total): $(cat "$tmp/progress")"
fi
pass
