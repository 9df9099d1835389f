#!/bin/sh
# nxtop demo: deterministic output, a profile whose own summary agrees
# with its events, reused between runs, and option errors.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
# markers and history stay in the test's folder
export XDG_DATA_HOME="$tmp/data"

expect 0 "" "$NXTOP" demo --events 3000 --seed 7 --write "$tmp/a.json"
"$NXTOP" demo --events 3000 --seed 7 --write "$tmp/b.json" || fail "second write"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "same options gave different profiles"
"$NXTOP" demo --events 3000 --seed 8 --write "$tmp/c.json" || fail "third write"
cmp -s "$tmp/a.json" "$tmp/c.json" && fail "another seed gave the same profile"
expect 0 "Against the profile's own summary" "$NXTOP" summary -q "$tmp/a.json"
grep -q DIFFERS "$out" && fail "demo summary disagrees with its events: $(grep DIFFERS "$out")"
for e in TensorMatrix Tensor Vector Scalar GpSimd Sync qSyncIO0 Q0; do
	grep -q "^  $e " "$out" || fail "no row $e"
done
if have sqlite3; then
	n=$(sqlite3 "$tmp/a.json.nxdb" "select count(*) from track where kind = 'counter'")
	[ "$n" -ge 5 ] || fail "demo has $n counter rows"
fi
# the demo bundle is written once and reused; it opens in the viewer on
# its system profile: 2 instances x 4 NeuronCores, a device profile for
# each of 2 models
printf 'dump screen\n' > "$tmp/demo.keys"
expect 0 "writing the demo bundle" "$NXTOP" demo --events 2000 --system-events 300 \
	--headless="$tmp/demo.keys" --dump="$tmp"
grep -Eq "system_profile +system" "$tmp/screen" || fail "demo did not open the system timeline"
expect 0 "" "$NXTOP" demo --events 2000 --system-events 300 \
	--headless="$tmp/demo.keys" --dump="$tmp"
grep -q "writing the demo bundle" "$err" && fail "demo rewritten"
bundle=$(ls -d "$tmp"/cache/nxtop/demo/bundle-v*-s1-e2000-n300)
[ -f "$bundle/system_profile.json" ] || fail "demo not kept in XDG_CACHE_HOME"
expect 0 "Kind +system" "$NXTOP" summary -q "$bundle"
grep -q "Device profiles (2)" "$out" || fail "demo bundle without its 2 device profiles"
[ "$(grep -c -- '-neuron_hw ' "$out")" -eq 8 ] || fail "demo without 8 hardware rows"
grep -q "gid39-nc3-tid2110-neuron_rt" "$out" || fail "demo without the second instance"
# laid out as the tools write a bundle: i-<instance>_pid_<pid>_nc_<N>_
# model_<id>.json files that all say NeuronCore 0 inside; the list and
# the names give each its NeuronCore, process and instance
for f in "$bundle"/*.json; do
	case $f in */system_profile.json) continue ;; esac
	echo "$f" | grep -Eq '/i-[0-9a-f]+_pid_[0-9]+_nc_[0-9]+_model_[0-9]+\.json$' ||
		fail "demo device file not named as the tools name it: $f"
	grep -o '"nc_idx": *[0-9][0-9]*' "$f" | grep -vq '"nc_idx": *0$' &&
		fail "demo device file says another NeuronCore than 0: $f"
done
if have jq; then
	jq -r '.device_profile_list[] | [(.nc_id | tostring), .process_id,
		.instance_id, .device_profile_name + ".json"] | join(",")' \
		"$bundle/system_profile.json" | sort > "$tmp/dev.want"
	ls "$bundle" | sed -n 's/^\(i-[0-9a-f]*\)_pid_\([0-9]*\)_nc_\([0-9]*\)_.*json$/\3,\2,\1,&/p' |
		sort | cmp -s - "$tmp/dev.want" ||
		fail "demo device files are not the ones its list names"
	expect 0 "" "$NXTOP" export -q --what devices --format csv "$bundle"
	awk -F, 'NR > 1 { print $1 "," $5 "," $4 "," $6 }' "$out" | sort |
		cmp -s - "$tmp/dev.want" ||
		fail "demo devices: $(cat "$out") wanted $(cat "$tmp/dev.want")"
fi
expect 2 "--system-events takes a number" "$NXTOP" demo --system-events 0
expect 2 "--events takes a number from 100" "$NXTOP" demo --events 5
expect 2 "--events takes a number" "$NXTOP" demo --events lots
expect 2 "unexpected argument 'x'" "$NXTOP" demo x
expect 1 "$tmp/no/dir.json" "$NXTOP" demo --write "$tmp/no/dir.json"
pass
