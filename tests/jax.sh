#!/bin/sh
# JAX / XProf profile folders (tests/lib.sh jax_logdir): LOG_DIR and
# every folder down to one run open a run, the newest by name unless
# --run or the run folder names another; the summary names the run and
# the others; each host file's events are the rows of its host group,
# as jq counts them in the files; an XPlane-only run fails with one line
# saying how to get a trace JSON; a new run or a changed file rebuilds;
# export -o writes no trace file of the run, old or new, and import -o
# refuses to before it reads the run; a run or a trace file that is a
# link is skipped, and so is a plugins or plugins/profile folder that is
# one, with one line saying so.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch
export LC_ALL=C

need jq

log=$tmp/log
jax_logdir "$log" || fail "jax_logdir failed"
runs=$log/plugins/profile
new=2026_11_21_10_00_00
others="2026_11_19_08_00_00, 2026_11_20_09_30_00"

# "name,ts_ns,dur_ns" of the X events of files, ts from the earliest
# event of all of them (the profile's start); ts may be a string
xevents() {
	for f in "$@"; do zcat "$f"; done | jq -rs '
	def ns: tonumber * 1000 | round;
	[.[] | if type == "array" then .[] else .traceEvents[] end
	 | select(.ph == "X")] as $ev
	| ([$ev[] | .ts | ns] | min) as $t0
	| $ev[] | "\(.name),\((.ts | ns) - $t0),\(.dur | ns)"' | sort
}

# each folder level opens the newest run and names the others
for d in "$log" "$log/plugins" "$runs" "$log/"; do
	expect 0 "^Run +$new \(other runs: $others\)$" \
		"$NXTOP" summary -q "$d"
done
expect 0 "^Run +2026_11_20_09_30_00 \(other runs: 2026_11_19_08_00_00, $new\)$" \
	"$NXTOP" summary -q "$runs/2026_11_20_09_30_00"

# the viewer opens the run folder as that run (not as a folder of
# profiles) and says which run it is on the status line
printf 'size 100x10\ndump start\n' > "$tmp/view.keys"
mkdir "$tmp/dump"
"$NXTOP" -q --ascii --headless="$tmp/view.keys" --dump="$tmp/dump" \
	"$runs/2026_11_20_09_30_00" || fail "the viewer failed on a run folder"
grep -q "^JAX run 2026_11_20_09_30_00; other runs (--run): 2026_11_19_08_00_00, $new " \
	"$tmp/dump/start" || fail "run folder: status line: $(tail -1 "$tmp/dump/start")"

# the JSON summary says the same
"$NXTOP" summary -q --format json "$log" > "$tmp/sum.json" ||
	fail "summary --format json failed"
[ "$(jq -r '.profile.run' "$tmp/sum.json")" = "$new" ] ||
	fail "JSON summary: run is $(jq -r '.profile.run' "$tmp/sum.json")"
[ "$(jq -r '.profile.other_runs | join(", ")' "$tmp/sum.json")" = "$others" ] ||
	fail "JSON summary: other runs $(jq -c '.profile.other_runs' "$tmp/sum.json")"
summary_csv_same "$log"

# slices and processes (groups of rows under the hosts) as jq counts them
files="$runs/$new/alpha.trace.json.gz $runs/$new/beta.trace.json.gz $runs/$new/perfetto_trace.json.gz"
# shellcheck disable=SC2086
want=$(xevents $files | wc -l)
# shellcheck disable=SC2086
procs=$(for f in $files; do zcat "$f" |
	jq '[if type == "array" then .[] else .traceEvents[] end | .pid] | unique | length'
	done | awk '{ n += $1 } END { print n }')
[ "$(jq '.slices' "$tmp/sum.json")" = "$want" ] ||
	fail "slices $(jq '.slices' "$tmp/sum.json"), jq counts $want"
[ "$(jq '.processes' "$tmp/sum.json")" = "$procs" ] ||
	fail "processes $(jq '.processes' "$tmp/sum.json"), jq counts $procs"

# every event as in the files; each host group holds its file's events
"$NXTOP" export -q "$log" --what events --format csv |
	awk -F, 'NR > 1 { sub(/\r$/, ""); print $7 "," $3 "," $4 }' | sort > "$tmp/all.got"
# shellcheck disable=SC2086
xevents $files > "$tmp/all.want"
cmp -s "$tmp/all.got" "$tmp/all.want" ||
	fail "events differ from jq: $(diff "$tmp/all.want" "$tmp/all.got")"
for host in alpha beta perfetto_trace; do
	f=$runs/$new/$host.trace.json.gz
	[ "$host" = perfetto_trace ] && f=$runs/$new/perfetto_trace.json.gz
	n=$(zcat "$f" | jq '[if type == "array" then .[] else .traceEvents[] end
		| select(.ph == "X")] | length')
	expect 0 "^Events +$n$" "$NXTOP" export -q "$log" --what events \
		--tracks "$host"
	"$NXTOP" export -q "$log" --what events --tracks "$host" --format csv |
		awk -F, 'NR > 1 { sub(/\r$/, ""); print $7 "," $4 }' | sort > "$tmp/host.got"
	xevents "$f" | awk -F, '{ print $1 "," $3 }' | sort > "$tmp/host.want"
	cmp -s "$tmp/host.got" "$tmp/host.want" ||
		fail "$host: events differ: $(diff "$tmp/host.want" "$tmp/host.got")"
done

# export -o writes over no trace file of the run, nor a new one there
# (the next import reads it)
cp "$runs/$new/alpha.trace.json.gz" "$tmp/alpha.keep"
expect 1 "^nxtop: $runs/$new/alpha.trace.json.gz: is a file of the profile being exported: not written$" \
	"$NXTOP" export -q -o "$runs/$new/alpha.trace.json.gz" "$log"
cmp -s "$tmp/alpha.keep" "$runs/$new/alpha.trace.json.gz" ||
	fail "export -o replaced a trace file"
expect 1 "^nxtop: $runs/$new/gamma.trace.json.gz: the profile's next import would read a file of that name as one of its own: not written$" \
	"$NXTOP" export -q -o "$runs/$new/gamma.trace.json.gz" "$log"
no_file "$runs/$new/gamma.trace.json.gz"
# import -o refuses them before it reads the run: an empty trace file
# (which fails to import) and a new name are refused, with nothing else
# said
cut=$tmp/cut/plugins/profile/$new
mkdir -p "$cut"
: > "$cut/alpha.trace.json.gz"
for o in alpha.trace.json.gz gamma.trace.json.gz; do
	why="the profile's next import would read a file of that name as one of its own"
	[ "$o" = alpha.trace.json.gz ] && why="is a file of the profile being imported"
	expect 1 "^nxtop: $cut/$o: $why: not written$" \
		"$NXTOP" import -o "$cut/$o" "$tmp/cut"
	[ "$(wc -l < "$err")" -eq 1 ] || fail "import -o $o: imported first: $(cat "$err")"
done
[ ! -s "$cut/alpha.trace.json.gz" ] || fail "import -o wrote over a trace file"
no_file "$cut/gamma.trace.json.gz"
no_temps "$cut" "import -o refused first"
rm -rf "$tmp/cut"

# --run opens another run, in a cache of its own
expect 0 "^Run +2026_11_20_09_30_00 " "$NXTOP" summary -q --run 2026_11_20_09_30_00 "$log"
expect 0 "^Events +1 slice " "$NXTOP" summary -q --run 2026_11_20_09_30_00 "$log"
expect 0 "^Run +$new " "$NXTOP" summary -q "$log"
expect 1 "no run 'nope' \(runs: 2026_11_19_08_00_00, 2026_11_20_09_30_00, $new\)$" \
	"$NXTOP" summary -q --run nope "$log"
[ "$(wc -l < "$err")" -eq 1 ] || fail "bad --run: not one line: $(cat "$err")"
# --run on anything else is an error, and leaves no cache
zcat "$runs/$new/beta.trace.json.gz" > "$tmp/beta.json"
expect 1 "beta.json: --run opens a run of a JAX log folder, and this is not one" \
	"$NXTOP" summary -q --run "$new" "$tmp/beta.json"
[ -z "$(find "$tmp" -maxdepth 1 -name 'beta.json*.nxdb')" ] ||
	fail "--run on a file left a cache"

# a run of XPlane files only: one line, how to get a trace JSON, no cache
xplane="only XPlane \(.xplane.pb\) files, which nxtop does not read yet; record a trace JSON too with jax.profiler.trace\(log_dir, create_perfetto_trace=True\)"
expect 1 "2026_11_19_08_00_00: $xplane; other runs: .*$new.* \(--run NAME opens one\)$" \
	"$NXTOP" summary -q --run 2026_11_19_08_00_00 "$log"
mkdir -p "$tmp/xp/plugins/profile/2026_01_01_00_00_00"
cp "$runs/2026_11_19_08_00_00/alpha.xplane.pb" "$tmp/xp/plugins/profile/2026_01_01_00_00_00/"
expect 1 "$xplane$" "$NXTOP" import "$tmp/xp"
[ "$(wc -l < "$err")" -eq 1 ] || fail "XPlane: not one line: $(cat "$err")"
no_file "$tmp/xp.nxdb"
expect 1 "$xplane" "$NXTOP" summary -q "$runs/2026_11_19_08_00_00"

# links lead nowhere: a run folder or a trace file that is a link (here
# out of the log folder) is not read, and a line says it was skipped
mkdir -p "$tmp/out/2099_01_01_00_00_00" "$tmp/lnk/plugins/profile/2026_01_01_00_00_00"
cp "$runs/$new/beta.trace.json.gz" "$tmp/out/2099_01_01_00_00_00/"
cp "$runs/$new/beta.trace.json.gz" "$tmp/out/"
ln -s "$tmp/out/2099_01_01_00_00_00" "$tmp/lnk/plugins/profile/"
ln -s "$tmp/out/beta.trace.json.gz" "$tmp/lnk/plugins/profile/2026_01_01_00_00_00/"
cp "$runs/2026_11_20_09_30_00/alpha.trace.json.gz" "$tmp/lnk/plugins/profile/2026_01_01_00_00_00/"
expect 0 "^Run +2026_01_01_00_00_00$" "$NXTOP" summary "$tmp/lnk"
grep -q "profile: 1 link(s) skipped (2099_01_01_00_00_00): a JAX run and its trace files must be real folders and files$" "$err" ||
	fail "linked run: $(cat "$err")"
grep -q "2026_01_01_00_00_00: 1 link(s) skipped (beta.trace.json.gz)" "$err" ||
	fail "linked trace file: $(cat "$err")"
# ... a note, which -q keeps off stderr as it does every note
expect 0 "^Run +2026_01_01_00_00_00$" "$NXTOP" summary -q -f "$tmp/lnk"
grep -q "skipped" "$err" && fail "-q printed the note: $(cat "$err")"
expect 0 "^Events +1 slice " "$NXTOP" summary -q "$tmp/lnk"
expect 1 "no run '2099_01_01_00_00_00'" \
	"$NXTOP" summary -q --run 2099_01_01_00_00_00 "$tmp/lnk"
# a plugins or plugins/profile folder that is a link is not followed
# either: the folder above it is no JAX log folder, and the note, which
# -q keeps off stderr, says why
mkdir -p "$tmp/lplug" "$tmp/lprof/plugins"
ln -s "$log/plugins" "$tmp/lplug/plugins"
ln -s "$runs" "$tmp/lprof/plugins/profile"
for d in "lplug|$tmp/lplug|plugins" "lprof|$tmp/lprof/plugins|profile" \
	"lprof/plugins|$tmp/lprof/plugins|profile"; do
	in=$tmp/${d%%|*} at=${d#*|}
	expect 1 "^nxtop: $in: a folder with nothing nxtop reads" \
		"$NXTOP" summary -f "$in"
	grep -q "^nxtop: ${at%|*}: 1 link(s) skipped (${d##*|}): a JAX log folder's plugins and plugins/profile must be real folders$" "$err" ||
		fail "linked ${d##*|} in $in: $(cat "$err")"
	expect 1 "" "$NXTOP" summary -q -f "$in"
	grep -q "skipped" "$err" && fail "-q printed the note: $(cat "$err")"
done

# nxtop list: a folder holding a JAX log folder lists it (kind jax, the
# bytes of its newest run's files); the folder of runs lists each run
mkdir "$tmp/holder"
jax_logdir "$tmp/holder/log2" || fail "jax_logdir failed"
bytes=$(cat "$tmp/holder/log2/plugins/profile/$new"/* | wc -c)
"$NXTOP" list --format csv "$tmp/holder" | tr -d '\r' | tail -n +2 |
	cut -d, -f1-3 > "$tmp/list.got"
[ "$(cat "$tmp/list.got")" = "log2,jax,$bytes" ] ||
	fail "nxtop list: $(cat "$tmp/list.got"), wanted log2,jax,$bytes"
"$NXTOP" list --format csv "$tmp/holder/log2/plugins/profile" | tr -d '\r' |
	tail -n +2 | cut -d, -f1,2 | sort > "$tmp/list.got"
printf '%s,jax\n' 2026_11_19_08_00_00 2026_11_20_09_30_00 $new > "$tmp/list.want"
cmp -s "$tmp/list.got" "$tmp/list.want" ||
	fail "nxtop list of runs: $(cat "$tmp/list.got")"

# the cache holds while nothing changes; a new run or a changed file
# rebuilds it
"$NXTOP" summary "$log" >/dev/null 2>"$tmp/again.err"
grep -q rebuilding "$tmp/again.err" && fail "rebuilt unchanged: $(cat "$tmp/again.err")"
mkdir "$runs/2026_11_22_00_00_00"
printf '%s' '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},{"ph":"X","pid":1,"tid":1,"ts":3,"dur":1,"name":"b"}]}' |
	gzip -n > "$runs/2026_11_22_00_00_00/gamma.trace.json.gz"
expect 0 "^Run +2026_11_22_00_00_00 \(other runs: $others, $new\)$" \
	"$NXTOP" summary -q "$log"
expect 0 "^Events +2 slices" "$NXTOP" summary -q "$log"
printf '%s' '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"}]}' |
	gzip -n > "$runs/2026_11_22_00_00_00/gamma.trace.json.gz"
expect 0 "gamma.trace.json.gz changed" "$NXTOP" summary "$log"
expect 0 "^Events +1 slice " "$NXTOP" summary -q "$log"

pass
