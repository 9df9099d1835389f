#!/bin/sh
# The Profile Manager's listing (nxtop list) and its recent list: which
# files and folders of Neuron Explorer's data path (or of a folder named
# on the command line) are profiles, of which kind, their size and time
# (a Parquet bundle's in its profile folders), cleaned names, system
# profile JSON told from device JSON by its top-level keys as the
# importer tells them, the recent profiles newest first with a missing
# source marked and forgotten with d; nxtop on a folder of profiles
# opens the manager, on a bundle its timeline as before.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" TZ=UTC
unset XDG_DATA_HOME
ctl=$(printf '[\001-\010\013-\037\177]')

# the default data path: ~/.local/share/neuron-profile/profiles/global
g="$HOME/.local/share/neuron-profile/profiles/global"
mkdir -p "$g"
# a device profile JSON: 46 bytes
printf '{"instruction":[{"timestamp":1,"duration":2}]}' > "$g/dev.json"
# a system profile JSON: 30 bytes
printf '{"system_profile_metadata":[]}' > "$g/sys.json"
# a Chrome trace: 18 bytes
printf '{"traceEvents":[]}' > "$g/chrome.json"
# a JSON bundle folder: 18 bytes in its one file
mkdir "$g/bundle"
printf '{"trace_event":[]}' > "$g/bundle/system_profile.json"
# Parquet folders, known by their file names alone: a split Instruction
# table (4 + 5 bytes), and a system profile (7 bytes)
mkdir "$g/dev@latest" "$g/sys@latest" "$g/agg@latest"
printf 'PAR1' > "$g/dev@latest/Instruction_0.parquet"
printf 'PAR1x' > "$g/dev@latest/Instruction_1.parquet"
printf 'PAR1abc' > "$g/sys@latest/SystemProfileEvents.parquet"
# not profiles: another table whose name starts like one, a text file, a
# cache, a hidden file, an empty folder
: > "$g/agg@latest/DmaPacketAggregated.parquet"
: > "$g/agg@latest/Instructions.parquet"
printf 'hello' > "$g/notes.txt"
printf 'SQLite format 3\000' > "$g/dev.json.nxdb"
cp "$g/dev.json" "$g/.hidden.json"
mkdir "$g/empty"
# a hostile name: an escape sequence and a bell (46 bytes, a device)
bad=$(printf 'bad\033]0;x\007.json')
cp "$g/dev.json" "$g/$bad"
# as every export shows it: each control character a U+FFFD
clean=$(printf 'bad\357\277\275]0;x\357\277\275.json')
# times, one hour apart, 2026-01-01 01:00 UTC to 08:00 UTC
t=1767229200
for f in dev.json sys.json chrome.json bundle/system_profile.json bundle \
	dev@latest/Instruction_0.parquet dev@latest/Instruction_1.parquet \
	dev@latest sys@latest/SystemProfileEvents.parquet sys@latest "$bad"; do
	case $f in
	bundle/* | dev@latest/* | sys@latest/*) ;;
	*) t=$((t + 3600)) ;;
	esac
	touch -d "@$t" "$g/$f"
done

# csv: lines without their CR
csv() {
	"$NXTOP" list --format csv "$@" | tr -d '\r' > "$out"
}

# newest first; sizes and times counted by hand above
csv
cat > "$tmp/want.csv" <<WANT
name,kind,size_bytes,when_ns,state,recent,path
$clean,device,46,1767254400000000000,import,no,$g/$clean
sys@latest,parquet system,7,1767250800000000000,import,no,$g/sys@latest
dev@latest,parquet device,9,1767247200000000000,import,no,$g/dev@latest
bundle,bundle,18,1767243600000000000,import,no,$g/bundle
chrome.json,trace,18,1767240000000000000,import,no,$g/chrome.json
sys.json,system,30,1767236400000000000,import,no,$g/sys.json
dev.json,device,46,1767232800000000000,import,no,$g/dev.json
WANT
diff -u "$tmp/want.csv" "$out" >&2 || fail "nxtop list: not the rows written by hand"

# text: the hostile name cleaned, times in local time (TZ=UTC)
expect 0 "^sys@latest +parquet system +7 B +2026-01-01 07:00 +import" \
	"$NXTOP" list
LC_ALL=C grep -q "$ctl" "$out" && fail "nxtop list: control character in text"
grep -q "^$clean  *device  *46 B  *2026-01-01 08:00" "$out" ||
	fail "nxtop list: no cleaned row for the hostile name: $(cat "$out")"
grep -q "^From  *$g\$" "$out" || fail "nxtop list: no data path line"
expect 0 "" "$NXTOP" list --format json
[ "$(jq -r '.profiles[0].name' "$out")" = "$clean" ] ||
	fail "nxtop list --format json: hostile name not cleaned"
[ "$(jq -r '[.profiles[].kind] | join(",")' "$out")" = \
	"device,parquet system,parquet device,bundle,trace,system,device" ] ||
	fail "nxtop list --format json: kinds: $(cat "$out")"
# times keep every digit in JSON (not rounded through a double)
touch -d '@1767232800.123456789' "$g/dev.json"
expect 0 '"when_ns": 1767232800123456789,' "$NXTOP" list --format json
touch -d '@1767232800' "$g/dev.json"

# a Parquet bundle keeps its files in its profile folders: sized (7 + 9
# bytes) and timed by them, not by its own (none)
pb="$tmp/pb/run"
mkdir -p "$pb/system_profile@latest" "$pb/dev@latest"
printf 'PAR1abc' > "$pb/system_profile@latest/SystemProfileEvents.parquet"
printf 'PAR1xyzab' > "$pb/dev@latest/Instruction.parquet"
touch -d @1767225600 "$pb/dev@latest" "$pb/system_profile@latest" "$pb"
touch -d @1767232800 "$pb/dev@latest/Instruction.parquet"
touch -d @1767229200 "$pb/system_profile@latest/SystemProfileEvents.parquet"
csv "$tmp/pb"
[ "$(tail -n +2 "$out" | cut -d, -f1-4)" = "run,bundle,16,1767232800000000000" ] ||
	fail "nxtop list: a Parquet bundle's size and time: $(cat "$out")"

# --data-path P means P/profiles/global; a folder is listed one level down
mkdir -p "$tmp/dp/profiles/global/x@latest"
: > "$tmp/dp/profiles/global/x@latest/Instruction.parquet"
csv --data-path "$tmp/dp"
[ "$(cut -d, -f1,2 "$out" | tail -n +2)" = "x@latest,parquet device" ] ||
	fail "--data-path: $(cat "$out")"
csv "$g/bundle/.."
[ "$(tail -n +2 "$out" | wc -l)" -eq 7 ] || fail "list DIR: $(cat "$out")"
# a gzip'd system profile is told from a device one by its inflated
# start; a gzip'd Perfetto trace (one empty packet) is a trace, by its
# name or by its inflated first byte
mkdir "$tmp/gz"
printf '{"system_profile_metadata":[]}' | gzip -n > "$tmp/gz/s.json.gz"
printf '{"instruction":[]}' | gzip -n > "$tmp/gz/d.json.gz"
for f in t.pftrace.gz u.perfetto-trace.gz v.bin.gz; do
	printf '\012\000' | gzip -n > "$tmp/gz/$f"
done
csv "$tmp/gz"
[ "$(cut -d, -f1,2 "$out" | tail -n +2 | sort | tr '\n' ' ')" = \
	"d.json.gz,device s.json.gz,system t.pftrace.gz,trace u.perfetto-trace.gz,trace v.bin.gz,trace " ] ||
	fail "gzip kinds: $(cat "$out")"
expect 0 "^Kind +trace \(pftrace\)" "$NXTOP" summary -q "$tmp/gz/t.pftrace.gz"
# a system profile is told by its top-level keys wherever they come, as
# the importer tells it: not by a system key's text among a device
# profile's values or in its nested objects, and not only in its first
# 64 KiB; a bundle's system profile file is found the same way
mkdir -p "$tmp/keys/mix"
printf '%s' '{"metadata":{"profile_name":"trace_event"},"instruction":[{"timestamp":1,"duration":2,"opcode":"trace_event","args":{"device_profile_list":[]}}]}' \
	> "$tmp/keys/dev.json"
{
	printf '{"annotation":[{"note":"'
	head -c 70000 /dev/zero | tr '\0' x
	printf '"}],'
	tail -c +2 "$srcdir/tests/fixtures/system_small.json"
} > "$tmp/keys/late.json"
cp "$tmp/keys/dev.json" "$tmp/keys/late.json" "$tmp/keys/mix/"
csv "$tmp/keys"
[ "$(cut -d, -f1,2 "$out" | tail -n +2 | sort | tr '\n' ' ')" = \
	"dev.json,device late.json,system mix,bundle " ] ||
	fail "kinds by top-level keys: $(cat "$out")"
expect 0 "^Kind +device " "$NXTOP" summary -q "$tmp/keys/dev.json"
expect 0 "^Kind +system " "$NXTOP" summary -q "$tmp/keys/late.json"
expect 0 "mix: system profile $tmp/keys/mix/late.json$" \
	"$NXTOP" summary "$tmp/keys/mix"
# the first key of a device or a system profile's data settles the
# kind, for the listing and the importer alike (FORMATS.md: keys come in
# any order, a device profile may put its large arrays first, both kinds
# may have "warnings"): a device profile is known by its "instruction"
# however much follows, a system profile's key after it is refused with
# one line saying where, and the other way round; nothing is cached
mkdir -p "$tmp/kind/bundle"
pad=$(head -c 70000 /dev/zero | tr '\0' x)
dhead='{"instruction":[{"timestamp":1,"duration":2,"label":"Vector","opcode":"'$pad'"}],"trace_event":['
printf '%s{"timestamp":1000,"duration":5,"name":"x"}]}' "$dhead" \
	> "$tmp/kind/devsys.json"
shead='{"trace_event":[{"timestamp":1000,"duration":5,"name":"'$pad'"}],"instruction":['
printf '%s{"timestamp":1,"duration":2,"label":"Vector","opcode":"A"}]}' \
	"$shead" > "$tmp/kind/sysdev.json"
# a system profile whose first key is one device profiles have too
{
	printf '{"warnings":[{"category":"Dropped events","message":"%s"}],' "$pad"
	tail -c +2 "$srcdir/tests/fixtures/system_small.json"
} > "$tmp/kind/syswarn.json"
cp "$tmp/kind/syswarn.json" "$tmp/kind/devsys.json" "$tmp/kind/bundle/"
csv "$tmp/kind"
[ "$(cut -d, -f1,2 "$out" | tail -n +2 | sort | tr '\n' ' ')" = \
	"bundle,bundle devsys.json,device sysdev.json,system syswarn.json,system " ] ||
	fail "kinds by the first key: $(cat "$out")"
for f in devsys sysdev; do
	if [ $f = devsys ]; then
		at=${#dhead} msg="a device profile's keys after \"instruction\", found a system profile's key in \"trace_event\"\\[0\\]"
	else
		at=${#shead} msg="a system profile's keys after \"trace_event\", found a device profile's key in \"instruction\"\\[0\\]"
	fi
	expect 1 "" "$NXTOP" import "$tmp/kind/$f.json"
	grep -Eq "^nxtop: $tmp/kind/$f.json: byte $at: expected $msg\$" "$err" &&
		[ "$(wc -l < "$err")" -eq 1 ] ||
		fail "$f.json: not one line saying where: $(cat "$err")"
	no_file "$tmp/kind/$f.json.nxdb"
	no_temps "$tmp/kind" "$f.json"
done
# each JSON file is opened once to be told apart, however far its
# kind's key is (devsys.json's is past the first 64 KiB), where strace
# can watch (a leak check cannot run under ptrace: off for this one)
if have strace && strace -o /dev/null true 2>/dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=open,openat -o "$tmp/list.trace" \
		"$NXTOP" list --format csv "$tmp/kind" >/dev/null ||
		fail "nxtop list under strace failed"
	for f in devsys sysdev syswarn; do
		n=$(grep -c "kind/$f.json\"" "$tmp/list.trace")
		[ "$n" -eq 1 ] || fail "nxtop list opened $f.json $n times"
	done
fi
# a key of the other kind holding an empty array is refused at that
# array, as a key's value is, not past it
printf '%s]}' "$dhead" > "$tmp/kind/devempty.json"
at=$((${#dhead} - 1))
expect 1 "^nxtop: $tmp/kind/devempty.json: byte $at: expected a device profile's keys after \"instruction\", found a system profile's key in \"trace_event\"\$" \
	"$NXTOP" import "$tmp/kind/devempty.json"
no_file "$tmp/kind/devempty.json.nxdb"
expect 0 "^Kind +system " "$NXTOP" summary -q "$tmp/kind/syswarn.json"
expect 0 "bundle: system profile $tmp/kind/bundle/syswarn.json$" \
	"$NXTOP" summary "$tmp/kind/bundle"
expect 1 "nxtop: $tmp/nope: No such file or directory" "$NXTOP" list "$tmp/nope"
# a data path that is not a folder is an error; one that is missing is
# an empty one
mkdir -p "$tmp/fdp/profiles"
: > "$tmp/fdp/profiles/global"
expect 1 "nxtop: $tmp/fdp/profiles/global: Not a directory" \
	"$NXTOP" list --data-path "$tmp/fdp"
expect 0 "^Profiles 0" "$NXTOP" list --data-path "$tmp/none"
expect 2 "unexpected argument 'b'" "$NXTOP" list a b
expect 2 "unknown format 'xml'" "$NXTOP" list --format xml
expect 2 "a folder or --data-path, not both" "$NXTOP" list --data-path x y

# recent: two profiles opened, newest first, caches ready
mkdir "$tmp/p"
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/p/a.json"
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/p/b.json"
expect 0 "" "$NXTOP" import -q "$tmp/p/a.json"
expect 0 "" "$NXTOP" import -q "$tmp/p/b.json"
csv --data-path "$tmp/none"
cut -d, -f1,2,3,5,6,7 "$out" > "$tmp/got"
size=$(wc -c < "$srcdir/tests/fixtures/device_small.json")
cat > "$tmp/want" <<WANT
name,kind,size_bytes,state,recent,path
b.json,device,$size,ready,yes,$tmp/p/b.json
a.json,device,$size,ready,yes,$tmp/p/a.json
WANT
diff -u "$tmp/want" "$tmp/got" >&2 || fail "recent list"
# a source gone is marked, not hidden
rm "$tmp/p/b.json"
csv --data-path "$tmp/none"
grep -q "^b.json,device,0,[0-9]*,missing,yes,$tmp/p/b.json\$" "$out" ||
	fail "missing source not marked: $(cat "$out")"
# the manager on a data path it cannot read says why, and still lists
# the recent profiles
printf 'dump unread\n' > "$tmp/unread.keys"
expect 0 "" "$NXTOP" -q --data-path "$tmp/fdp" --headless="$tmp/unread.keys" \
	--dump="$tmp"
grep -q "^a.json " "$tmp/unread" && tail -n 1 "$tmp/unread" |
	grep -q "^$tmp/fdp/profiles/global: Not a directory" ||
	fail "unreadable data path: $(cat "$tmp/unread")"
# d on it (the first line: the most recent) forgets it, and only it
printf 'keys d\n' > "$tmp/forget.keys"
expect 0 "" "$NXTOP" -q --data-path "$tmp/none" --headless="$tmp/forget.keys" \
	--dump="$tmp"
csv --data-path "$tmp/none"
[ "$(cut -d, -f1,5 "$out" | tail -n +2)" = "a.json,ready" ] ||
	fail "d did not forget b.json alone: $(cat "$out")"

# a folder of profiles opens the manager; a bundle its timeline as
# before (the data path above is one: it holds one system profile JSON)
mkdir "$tmp/parent"
cp -r "$g/dev.json" "$g/dev@latest" "$g/bundle" "$g/$bad" "$tmp/parent"
printf 'dump first\n' > "$tmp/first.keys"
expect 0 "" "$NXTOP" -q --headless="$tmp/first.keys" --dump="$tmp" "$tmp/parent"
grep -q "profiles  4 profiles in $tmp/parent" "$tmp/first" ||
	fail "nxtop FOLDER: not the manager: $(cat "$tmp/first")"
LC_ALL=C grep -q "$ctl" "$tmp/first" && fail "manager: control character on screen"
# Enter opens the first line (the newest: dev.json, modified in 2030)
# and records it; q comes back to the list
touch -d "2030-01-01 00:00Z" "$tmp/parent/dev.json"
printf 'keys <Enter>\ndump opened\nkeys q\ndump back\n' > "$tmp/open.keys"
expect 0 "" "$NXTOP" -q --headless="$tmp/open.keys" --dump="$tmp" "$tmp/parent"
grep -q "^nxtop › profiles › dev.json  device" "$tmp/opened" ||
	fail "Enter did not open dev.json: $(head -1 "$tmp/opened")"
grep -q "^dev.json  *device  *46 B  *2030-01-01 00:00  *ready" "$tmp/back" ||
	fail "q did not come back to the list: $(cat "$tmp/back")"
csv --data-path "$tmp/none"
[ "$(sed -n 2p "$out" | cut -d, -f1,6,7)" = "dev.json,yes,$tmp/parent/dev.json" ] ||
	fail "the profile opened from the manager is not the most recent: $(cat "$out")"
mkdir "$tmp/b"
cp "$srcdir/tests/fixtures/system_small.json" "$tmp/b/system_profile.json"
expect 0 "" "$NXTOP" -q --headless="$tmp/first.keys" --dump="$tmp" "$tmp/b"
grep -q "^nxtop › system_profile  system" "$tmp/first" ||
	fail "nxtop BUNDLE: not its timeline: $(head -1 "$tmp/first")"
# a bundle opened from the manager: its system view first, its device
# profiles imported in the background, as with nxtop BUNDLE (a headless
# script imports none before its wait line); back in the list, the
# imports are over and the cache whole
mkdir "$tmp/bp"
"$NXTOP" demo --events 3000 --system-events 1000 --seed 2 \
	--write "$tmp/bp/bun" >/dev/null 2>&1 || fail "demo bundle failed"
printf 'keys <Enter>\ndump sysview\nkeys D\ndump devs\nwait\ndump devs2\nkeys qq\ndump back2\n' \
	> "$tmp/bun.keys"
expect 0 "" "$NXTOP" -q --headless="$tmp/bun.keys" --dump="$tmp" "$tmp/bp"
grep -q "^nxtop › profiles › system_profile  system" "$tmp/sysview" ||
	fail "manager: the bundle's system view is not first: $(head -1 "$tmp/sysview")"
[ "$(grep -c ' queued ' "$tmp/devs")" = 2 ] ||
	fail "manager: the device profiles were imported before the system view: $(cat "$tmp/devs")"
[ "$(grep -c ' ready ' "$tmp/devs2")" = 2 ] ||
	fail "manager: the device profiles did not import: $(cat "$tmp/devs2")"
grep -Eq "^bun +bundle .* ready( |$)" "$tmp/back2" ||
	fail "manager: not back in the list: $(cat "$tmp/back2")"
! have sqlite3 ||
	[ "$(sqlite3 "$tmp/bp/bun.nxdb" "SELECT group_concat(state) FROM profile")" = \
	"ready,ready,ready" ] || fail "manager: the bundle's cache is not whole"
[ -e "$tmp/bp/bun.nxdb-wal" ] && fail "manager: the cache stayed in WAL mode"

# without a terminal: the usage error, no wait
expect 2 "missing PROFILE" "$NXTOP" </dev/null
pass
