#!/bin/sh
# Screen tests: the viewer runs headless on fixtures. Each script
# tests/screens/NAME.keys types keys and dumps screens; every dump must
# equal tests/screens/NAME/DUMP, and no dump may hold a control
# character. A script's header names its profile ("# profile: FILE" in
# tests/fixtures, a file or a folder; "demo": nxtop demo --events 20000; "bundle": the demo
# bundle, a system profile of 2 instances x 4 NeuronCores and 2 device
# profiles; "bundle-queued": the same, not imported before the script (the
# viewer imports its device profiles in the background); "bundle-small": tests/fixtures/system_small.json with
# device_small.json as its one device file present, another one
# missing; "bundle-broken": the same with the device file cut short, so
# that it fails to import; "bundle-parquet": a folder holding the
# Parquet twin of bundle-small, system and device folders;
# "bundle-parquet-queued": the same, not imported before the script;
# "bundle-ncs": one model on several
# NeuronCores, see bundle_ncs in tests/lib.sh; "jaxlog": the JAX log
# folder of jax_logdir in tests/lib.sh; "datapath": no profile,
# the Profile Manager on the fake data path of profiles_datapath in
# tests/lib.sh), a second profile for nxtop A B ("# compare: FILE" in
# tests/fixtures, or a profile named as above), extra options ("# args: ...") and environment ("# env:
# VAR=value"), may list the files it exports ("# exports:
# nxtop-layers-1.txt ..."), which must be written, and dumps that must
# be the same screen ("# same: A B": back where it was). Each script runs in a folder of its own (where e and E write)
# with markers and history of its own. NXTOP_UPDATE_SCREENS=1 rewrites
# the expected screens from what the viewer shows now (check the diff
# before committing). A dump shows the test's temporary folder as $TMP.
# Also: the viewer's errors (no terminal, bad options, bad scripts).
set -u
. "${srcdir:-.}/tests/lib.sh"

if ! locale -a 2>/dev/null | grep -Eiq '^c\.utf-?8$'; then
	echo "no C.UTF-8 locale: skipping the screen tests"
	exit 77
fi
export LC_ALL=C.UTF-8
unset NO_COLOR COLUMNS LINES

tmp=$(mktemp -d)
# markers, history and exports stay in the test's folder
export XDG_DATA_HOME="$tmp/data"
unset NXTOP_EXPORT_DIR
case $NXTOP in /*) ;; *) NXTOP=$(pwd)/$NXTOP ;; esac
trap 'rm -rf "$tmp"' EXIT
screens=$(cd "$srcdir/tests/screens" && pwd)
ctl=$(printf '[\001-\010\013-\037\177]')

# the viewer's own errors
cp "$srcdir/tests/fixtures/device_small.json" "$tmp/small.json"
expect 1 "the viewer needs a terminal" "$NXTOP" -q "$tmp/small.json" </dev/null
expect 2 "unknown --color 'pink'" "$NXTOP" --color=pink "$tmp/small.json"
printf 'keys w\nfrobnicate\n' > "$tmp/bad.keys"
expect 1 "bad.keys:2: unknown script command 'frobnicate'" \
	"$NXTOP" -q --headless="$tmp/bad.keys" --dump="$tmp" "$tmp/small.json"
printf 'size 5x5\n' > "$tmp/bad.keys"
expect 1 "bad.keys:1: expected a size like 80x24" \
	"$NXTOP" -q --headless="$tmp/bad.keys" --dump="$tmp" "$tmp/small.json"
printf 'keys <Bogus>\n' > "$tmp/bad.keys"
expect 1 "bad.keys:1: unknown key name at '<Bogus>'" \
	"$NXTOP" -q --headless="$tmp/bad.keys" --dump="$tmp" "$tmp/small.json"
for line in 'mouse click 80 3' 'mouse wheel left 3 3' 'mouse drag 1 2 3' \
	'mouse click -1 2' 'mouse tap 1 1'; do
	printf 'keys w\n%s\n' "$line" > "$tmp/bad.keys"
	expect 1 "bad.keys:2: expected mouse click|double|press|release COL ROW" \
		"$NXTOP" -q --headless="$tmp/bad.keys" --dump="$tmp" "$tmp/small.json"
done
printf 'dump ../x\n' > "$tmp/bad.keys"
expect 1 "bad.keys:1: expected a file name without '/'" \
	"$NXTOP" -q --headless="$tmp/bad.keys" --dump="$tmp" "$tmp/small.json"

# make_profile NAME: the profile a script names, built in $tmp/NAME.
make_profile() {
	case $1 in
	demo.json)
		# the demo generator is deterministic
		"$NXTOP" demo --events 20000 --seed 1 --write "$tmp/$1" ||
			fail "demo failed" ;;
	bundle | bundle-queued)
		"$NXTOP" demo --events 2000 --system-events 2000 --seed 1 \
			--write "$tmp/$1" || fail "demo bundle failed" ;;
	bundle-ncs)
		bundle_ncs "$tmp/$1" || fail "bundle_ncs failed" ;;
	bundle-small | bundle-broken)
		mkdir "$tmp/$1"
		cp "$srcdir/tests/fixtures/system_small.json" \
			"$tmp/$1/system_profile.json"
		bundle_device "$1" \
			> "$tmp/$1/device_profile_model_1578576049.json" ;;
	bundle-small-b)
		bundle_small_b "$tmp/$1" || fail "bundle_small_b failed" ;;
	bundle-parquet | bundle-parquet-queued)
		# Neuron Explorer's folder of profiles: the Parquet
		# twin of bundle-small (tests/pqsystem.sh)
		mkdir "$tmp/$1"
		cp -R "$srcdir/tests/fixtures/parquet-system/system_small@latest" \
			"$tmp/$1/"
		cp -R "$srcdir/tests/fixtures/parquet-device/device_small@latest" \
			"$tmp/$1/device_profile_model_1578576049@latest"
		chmod -R u+w "$tmp/$1" ;;
	datapath)
		profiles_datapath "$tmp/$1" ;;
	jaxlog)
		jax_logdir "$tmp/$1" || fail "jax_logdir failed" ;;
	*)
		# a file, or a folder (a Parquet device profile)
		mkdir -p "$(dirname "$tmp/$1")"
		cp -R "$srcdir/tests/fixtures/$1" "$tmp/$1" ;;
	esac
}

for script in "$screens"/*.keys; do
	name=$(basename "$script" .keys)
	profile=$(sed -n 's/^# profile: //p' "$script")
	[ "$profile" = demo ] && profile=demo.json
	args=$(sed -n 's/^# args: //p' "$script")
	compare=$(sed -n 's/^# compare: //p' "$script")
	if [ -n "$compare" ] && [ ! -e "$tmp/$compare" ]; then
		make_profile "$compare"
		"$NXTOP" import -q "$tmp/$compare" 2>/dev/null ||
			fail "$compare: import failed"
	fi
	envs=$(sed -n 's/^# env: //p' "$script")
	if [ ! -e "$tmp/$profile" ]; then
		make_profile "$profile"
		case $profile in
		datapath | bundle-queued | bundle-parquet-queued) ;;
		*) "$NXTOP" import -q "$tmp/$profile" 2>/dev/null ||
			fail "$profile: import failed" ;;
		esac
	fi
	target="$tmp/$profile"
	[ "$profile" = datapath ] && target="--data-path=$tmp/$profile"
	mkdir "$tmp/$name" "$tmp/$name.cwd"
	# each script has its own markers and history, and exports into its
	# own folder ("wrote ./nxtop-layers-1.txt")
	# shellcheck disable=SC2086
	if ! (cd "$tmp/$name.cwd" && env XDG_DATA_HOME="$tmp/$name.data" $envs \
		"$NXTOP" -q $args --headless="$script" --dump="$tmp/$name" \
		"$target" ${compare:+"$tmp/$compare"}) 2>"$tmp/$name.err"; then
		fail "$name: nxtop failed: $(cat "$tmp/$name.err")"
		continue
	fi
	# the profile's folder, which y shows, is the same in every run
	for got in "$tmp/$name"/*; do
		sed "s|$tmp/|\$TMP/|g" "$got" > "$got.tmp" && mv "$got.tmp" "$got"
	done
	if [ "${NXTOP_UPDATE_SCREENS:-}" = 1 ]; then
		rm -rf "${screens:?}/$name"
		cp -r "$tmp/$name" "$screens/$name"
		continue
	fi
	for file in $(sed -n 's/^# exports: //p' "$script"); do
		[ -s "$tmp/$name.cwd/$file" ] || fail "$name: $file was not written"
	done
	same=$(sed -n 's/^# same: //p' "$script")
	while read -r a b; do
		[ -n "$a" ] || continue
		cmp -s "$tmp/$name/$a" "$tmp/$name/$b" ||
			fail "$name: $b is not the screen $a was:
$(diff -u "$tmp/$name/$a" "$tmp/$name/$b")"
	done <<EOF
$same
EOF
	for want in "$screens/$name"/*; do
		[ -e "$tmp/$name/$(basename "$want")" ] ||
			fail "$name: no dump $(basename "$want")"
	done
	for got in "$tmp/$name"/*; do
		dump=$(basename "$got")
		if LC_ALL=C grep -q "$ctl" "$got"; then
			fail "$name/$dump: control character on screen"
		fi
		if [ ! -f "$screens/$name/$dump" ]; then
			fail "$name/$dump: unexpected dump"
		elif ! cmp -s "$screens/$name/$dump" "$got"; then
			fail "$name/$dump differs:
$(diff -u "$screens/$name/$dump" "$got")"
		fi
	done
done
# The counters' labels at "fit" (the whole profile in view) give each
# counter's smallest and largest sample, as the cache has them, in 3
# digits with k, M, G or T, and the unit.
if [ "${NXTOP_UPDATE_SCREENS:-}" != 1 ] && have sqlite3; then
	sqlite3 -separator '|' "$tmp/system_small.json.nxdb" \
		"select t.name, coalesce(t.unit, ''), min(c.value), max(c.value)
		 from counter c join track t on t.id = c.track_id group by t.id" |
	awk -F'|' '
	function compact(v,   a) {
		a = v < 0 ? -v : v
		if (a >= 0.9995e12) return sprintf("%.3gT", v / 1e12)
		if (a >= 0.9995e9) return sprintf("%.3gG", v / 1e9)
		if (a >= 0.9995e6) return sprintf("%.3gM", v / 1e6)
		if (a >= 0.9995e3) return sprintf("%.3gk", v / 1e3)
		return sprintf("%.3g", v)
	}
	{
		lo = compact($3); hi = compact($4)
		print $1 "|" (lo == hi ? lo : lo "\342\200\223" hi) ($2 != "" ? " " $2 : "")
	}' > "$tmp/labels"
	while IFS='|' read -r name label; do
		grep -q "^  $name  *$label  " "$screens/counters/fit" ||
			fail "counters/fit: no label '$name ... $label'"
	done < "$tmp/labels"
	[ -s "$tmp/labels" ] || fail "counters: no counter in the cache"
fi
pass
