#!/bin/sh
# Depths and parents of Chrome thread rows (X, B/E, thread instants) equal
# an independent stack computation in jq: equal starts (the longer one
# encloses; of equal spans, the one begun first in the file, so B/E
# slices nest as their stack does), zero durations, unterminated B
# (closed at the trace's end),
# events out of time order in the file, within the writer's window of
# 16384 slices and beyond it (a parent after 20000 of its children).
# Also the export's formats agree.
# A Neuron system profile's events take the parent their parent_id names
# (an event of the same process, on their row or another), time
# containment on their row where it names none (absent, 0, not in the
# profile, themselves): against jq on a fixture where the two differ.
set -u
. "${srcdir:-.}/tests/lib.sh"

scratch

need jq

# name|row|ts|dur|depth|parent name|parent ts per slice, times in ns
# relative to the first compared slice.
cat >"$tmp/stack.jq" <<'JQ'
def ns: . * 1000 | round;
[(if type == "array" then . else .traceEvents end)
  | to_entries[] | .value + {seq: .key}] as $ev
| ([$ev[] | select(.ts != null) | (.ts | ns) + ((.dur // 0) | ns)] | max) as $tend
| ([$ev[] | select(.ph == "M" and .name == "thread_name")
    | {key: "\(.pid)/\(.tid)", value: .args.name}] | from_entries) as $names
| [$ev[] | select(.ph == "X" or .ph == "B" or .ph == "E" or
    ((.ph == "i" or .ph == "I") and (.s // "t") == "t"))
  | . + {key: "\(.pid)/\(.tid)"}]
| group_by(.key)
| map(. as $g
    | ($names[$g[0].key] // null) as $tn
    | (if $tn then "\($tn) \($g[0].tid)" else "Thread \($g[0].tid)" end) as $row
    # B/E: pair in time order (ties in file order), open ones end at $tend
    | (reduce ($g | map(select(.ph == "B" or .ph == "E")) | sort_by(.ts | ns))[]
        as $e ({open: [], out: []};
        if $e.ph == "B" then .open += [$e]
        elif (.open | length) == 0 then .
        else .out += [{name: .open[-1].name, ts: (.open[-1].ts | ns),
                       dur: (($e.ts | ns) - (.open[-1].ts | ns)),
                       seq: .open[-1].seq}]
             | .open |= .[:-1] end)
      | .out + [.open[] | {name, ts: (.ts | ns), dur: ($tend - (.ts | ns)),
                           seq}])
      as $be
    | [$g[] | select(.ph != "B" and .ph != "E")
       | {name, ts: (.ts | ns), dur: ((.dur // 0) | ns), seq}] + $be
    # nest: by start, longer first, then begun first in the file; a
    # slice ending at ts holds only instants at ts
    | sort_by(.ts, -.dur, .seq)
    | reduce .[] as $s ({stack: [], out: []};
        .stack |= (until(length == 0 or
             (.[-1].ts + .[-1].dur > $s.ts) or
             (.[-1].ts + .[-1].dur == $s.ts and $s.dur == 0); .[:-1]))
        | .out += [$s + {row: $row, depth: (.stack | length),
                         parent: (.stack[-1] // null)}]
        | .stack += [$s])
    | .out[])
| (map(.ts) | min) as $t0
| .[] | "\(.name)|\(.row)|\(.ts - $t0)|\(.dur)|\(.depth)|\(.parent.name // "")|\(if .parent then .parent.ts - $t0 else "" end)"
JQ

# The same lines from the export's CSV: parent ids joined to their event.
from_csv() {
	awk -F, -v rows="$2" 'BEGIN { n = split(rows, r, "\n");
		for (i = 1; i <= n; i++) want[r[i]] = 1 }
	NR > 1 && ($2 in want) { sub(/\r$/, ""); id[NR] = $1; row[NR] = $2;
		ts[NR] = $3; dur[NR] = $4; dep[NR] = $5; par[NR] = $6;
		name[NR] = $7; byid[$1] = NR }
	END { t0 = ""; for (k in ts) if (t0 == "" || ts[k] + 0 < t0) t0 = ts[k] + 0;
		for (k in id) { p = par[k] == "" ? "" : byid[par[k]];
			printf "%s|%s|%d|%d|%d|%s|%s\n", name[k], row[k],
				ts[k] - t0, dur[k], dep[k], p == "" ? "" : name[p],
				p == "" ? "" : ts[p] - t0 } }' "$1"
}

# Thread 1 as Chrome writes X events, at their ends: each parent after
# its children, and the whole run's parent after all 20000 of them.
# Thread 2 in start order, with instants at slices' ends.
awk 'BEGIN { printf "{\"traceEvents\":[\n";
	for (i = 0; i < 5000; i++) { t = 10 + i * 20;
		for (j = 0; j < 3; j++)
			printf "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"c%d.%d\",\"ts\":%d,\"dur\":%d},\n", i, j, t + 1 + j * 5, j == 2 ? 0 : 4;
		printf "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"p%d\",\"ts\":%d,\"dur\":15},\n", i, t;
		printf "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"q%d\",\"ts\":%d,\"dur\":9},\n", i, t;
		printf "{\"ph\":\"i\",\"pid\":1,\"tid\":2,\"name\":\"e%d\",\"ts\":%d},\n", i, t + 9 }
	printf "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"run\",\"ts\":0,\"dur\":200000}]}\n" }' \
	>"$tmp/late.json"

for f in chrome_nesting.json chrome_phases.json trace_same.json \
	chrome_array.json.gz chrome_ties.json late.json; do
	[ -f "$tmp/$f" ] || cp "$srcdir/tests/fixtures/$f" "$tmp/$f"
	gzip -dcf "$tmp/$f" | jq -r -f "$tmp/stack.jq" | sort >"$tmp/want" ||
		fail "$f: jq failed"
	rows=$(cut -d'|' -f2 "$tmp/want" | sort -u)
	expect 0 "" "$NXTOP" export -q "$tmp/$f" --what events --format csv
	from_csv "$out" "$rows" | sort >"$tmp/got"
	[ -s "$tmp/want" ] || fail "$f: no thread slices to compare"
	diff -u "$tmp/want" "$tmp/got" >&2 ||
		fail "$f: depths or parents differ from the stack computation"
done

# name|ts|parent name|parent ts of each system event: the event its
# parent_id names in its process, else the innermost event of its row
# (source, process, thread) enclosing it
cat >"$tmp/sys.jq" <<'JQ'
[.trace_event[] | {name, id: (.id | tostring), inst: .instance_id,
  pid: .process_id, par: ((.parent_id // 0) | tostring), ts: .timestamp,
  dur: .duration, row: "\(.trace_event_source)/\(.process_id)/\(.thread_id)"}]
| (map(.ts) | min) as $t0
| . as $ev
| $ev[] as $e
| ([$ev[] | select(.inst == $e.inst and .pid == $e.pid and .id == $e.par
    and .id != $e.id)][0]) as $named
| ([$ev[] | select(.row == $e.row and . != $e and .ts <= $e.ts and
    .ts + .dur >= $e.ts + $e.dur)] | sort_by(.ts, -.dur) | last) as $cont
| ($named // $cont) as $p
| "\($e.name)|\($e.ts - $t0)|\($p.name // "")|\(if $p then $p.ts - $t0 else "" end)"
JQ
f=system_parents.json
cp "$srcdir/tests/fixtures/$f" "$tmp/$f"
jq -r -f "$tmp/sys.jq" "$tmp/$f" | sort >"$tmp/want" || fail "$f: jq failed"
expect 0 "" "$NXTOP" export -q "$tmp/$f" --what events --format csv
from_csv "$out" "$(awk -F, 'NR > 1 { print $2 }' "$out" | sort -u)" |
	awk -F'|' -v OFS='|' '{ print $1, $3, $6, $7 }' | sort >"$tmp/got"
[ "$(wc -l <"$tmp/want")" -eq 11 ] || fail "$f: expected 11 events"
diff -u "$tmp/want" "$tmp/got" >&2 ||
	fail "$f: parents differ from parent_id, then time containment"
# where the two differ: named parent over the enclosing event, another
# row's parent, another process's event of the same id not taken
grep -qx 'kbl_exec_wait|500|nrt_execute|0' "$tmp/got" &&
	grep -qx 'nc_exec_running|150|nrt_execute|0' "$tmp/got" &&
	grep -qx 'nc_exec_running|4100|nrt_execute|4000' "$tmp/got" ||
	fail "$f: $(cat "$tmp/got")"

# a slice's children are counted from the slice_parent index alone (the
# query of model/nest.c), not read row by row
if command -v sqlite3 >/dev/null; then
	sqlite3 "$tmp/$f.nxdb" "EXPLAIN QUERY PLAN SELECT count(*),
		coalesce(sum(dur), 0) FROM slice WHERE parent_id=1" |
		grep -q "COVERING INDEX slice_parent" ||
		fail "children not counted from the slice_parent index"
fi

# the hand-built fixture's awkward cases, said plainly
f="$tmp/chrome_nesting.json"
expect 0 "" "$NXTOP" export -q "$f" --what events --format json
jq -e '[.events[] | select(.name == "zero-at-start")][0].depth == 3 and
	.count == 17 and
	([.events[] | select(.name == "open-r")][0] | .depth == 0 and .parent == null)' \
	"$out" >/dev/null || fail "JSON events: $(cat "$out")"
expect 0 "^Events   7$" "$NXTOP" export -q "$f" --what events --tracks "Thread 2"
expect 0 "^ +[0-9]+ +- +0 +40000 +550000  Thread 2  open-r$" "$NXTOP" export -q "$f" --what events --tracks "Thread 2"
expect 0 "^Events   3$" "$NXTOP" export -q "$f" --what events --range 0:25us --tracks "Thread 2"
expect 1 "--tracks: no row named 'Nope'" "$NXTOP" export -q "$f" --what events --tracks Nope

# slices that overlap without nesting: the later is drawn under the
# earlier but is not its child; async slices of two ids on one row, and
# X events of one thread; a slice inside still has its parent
cat > "$tmp/overlap.json" <<'EOF'
{"traceEvents":[
{"name":"req","ph":"b","cat":"c","id":"0x1","pid":1,"tid":1,"ts":15},
{"name":"req","ph":"b","cat":"c","id":"0x2","pid":1,"tid":1,"ts":110},
{"name":"req","ph":"e","cat":"c","id":"0x1","pid":1,"tid":1,"ts":120},
{"name":"req","ph":"e","cat":"c","id":"0x2","pid":1,"tid":1,"ts":130},
{"name":"x1","ph":"X","pid":1,"tid":2,"ts":0,"dur":10},
{"name":"x2","ph":"X","pid":1,"tid":2,"ts":5,"dur":10},
{"name":"x3","ph":"X","pid":1,"tid":2,"ts":6,"dur":2}
]}
EOF
expect 0 "" "$NXTOP" export -q "$tmp/overlap.json" --what events --format json
jq -r '.events | (map({key: "\(.id)", value: "\(.name)@\(.ts_ns)"})
	| from_entries) as $n
	| .[] | "\(.name)@\(.ts_ns) \(.depth) \($n["\(.parent)"] // "-")"' "$out" |
	sort > "$tmp/got"
printf '%s\n' 'req@15000 0 -' 'req@110000 1 -' 'x1@0 0 -' 'x2@5000 1 -' \
	'x3@6000 2 x2@5000' | sort > "$tmp/want"
cmp -s "$tmp/got" "$tmp/want" ||
	fail "overlapping slices: $(tr '\n' ',' < "$tmp/got"), wanted $(tr '\n' ',' < "$tmp/want")"

[ "$failures" -eq 0 ]
