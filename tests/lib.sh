# Shared helpers for the shell tests.
NXTOP=${NXTOP:-./nxtop}
srcdir=${srcdir:-.}
out=$(mktemp)
err=$(mktemp)
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# expect STATUS REGEX CMD...: runs CMD, checks its exit status and that
# stdout or stderr matches REGEX (extended, one line; "" checks nothing).
expect() {
	want=$1 re=$2
	shift 2
	"$@" >"$out" 2>"$err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$* exited $got, wanted $want; stderr: $(cat "$err")"
	elif [ -n "$re" ] && ! grep -Eq -- "$re" "$out" "$err"; then
		fail "$*: no line matching '$re' in: $(cat "$out" "$err")"
	fi
}

no_file() {
	[ -e "$1" ] && fail "$1 exists"
	return 0
}

# no_temps DIR WHAT: no temporary file of an import is left in DIR
# ("nxtop-XXXXXXXX.tmp" and a bundle's parts "nxtop-XXXXXXXX.tmp-XXXXXXXX").
no_temps() {
	ls -A "$1" | grep -Eq '^nxtop-[A-Za-z0-9]{8}\.tmp' &&
		fail "$2: temporary file left in $1: $(ls -A "$1")"
	return 0
}

# Another user, for the attacks through shared folders: as root, an
# unused uid (through setpriv) with its own HOME and XDG folders in
# DIR. other_setup DIR says "skipping" and returns 1 where that cannot
# be done; as_other CMD... runs CMD as that user.
other_setup() {
	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
		echo "skipping the two-user tests: they need root and setpriv" >&2
		return 1
	fi
	other_uid=64123
	while getent passwd "$other_uid" >/dev/null 2>&1; do
		other_uid=$((other_uid + 1))
	done
	other_home=$1
	mkdir -p "$other_home"
	chown "$other_uid:$other_uid" "$other_home"
	chmod 700 "$other_home"
	if ! as_other true; then
		echo "skipping the two-user tests: setpriv cannot switch users" >&2
		return 1
	fi
}

as_other() {
	setpriv --reuid="$other_uid" --regid="$other_uid" --clear-groups \
		env HOME="$other_home" XDG_DATA_HOME="$other_home/data" \
		XDG_CACHE_HOME="$other_home/cache" "$@"
}

# other_bg OUT CMD...: runs CMD as the other user in the background, its
# output in OUT; other_stop ends it.
other_bg() {
	o=$1
	shift
	setpriv --reuid="$other_uid" --regid="$other_uid" --clear-groups \
		env HOME="$other_home" "$@" > "$o" 2>&1 &
	other_pid=$!
}

other_stop() {
	kill "$other_pid" 2>/dev/null
	wait "$other_pid" 2>/dev/null
	return 0
}

# have TOOL: whether TOOL (jq, sqlite3, tmux) is installed. Without it
# the checks that need it do not run, and pass() ends the test as
# skipped (77) naming what to install: a missing tool never reads as a
# pass.
missing=""
have() {
	command -v "$1" >/dev/null 2>&1 && return 0
	case " $missing " in
	*" $1 "*) ;;
	*) missing="${missing:+$missing }$1" ;;
	esac
	return 1
}

# need TOOL: for a test none of whose checks can run without TOOL: ends
# it as skipped (77), naming TOOL.
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "skipping: needs $1" >&2
	exit 77
}

# scratch: a temporary folder $tmp, removed on exit, holding the user
# data (markers, recent profiles) so a test never touches the real one.
scratch() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	export XDG_DATA_HOME="$tmp/data"
}

pass() {
	rm -f "$out" "$err"
	[ "$failures" -eq 0 ] || exit 1
	if [ -n "$missing" ]; then
		echo "SKIP: checks not run without $missing (./install-deps installs it)" >&2
		exit 77
	fi
	exit 0
}

# bundle_device bundle-small|bundle-broken: the device file of the small
# test bundle (tests/fixtures/system_small.json lists it): device_small.json,
# or its first 3000 bytes, which fail to import.
bundle_device() {
	if [ "$1" = bundle-broken ]; then
		head -c 3000 "$srcdir/tests/fixtures/device_small.json"
	else
		cat "$srcdir/tests/fixtures/device_small.json"
	fi
}

# bundle_small_b DIR: bundle-small's B, for nxtop A B: nrt_execute 10
# lasts 750 us instead of 500 us, and its device profile is
# device_small_b.json.
bundle_small_b() {
	mkdir "$1" &&
	sed 's/"duration": "500000"/"duration": "750000"/' \
		"$srcdir/tests/fixtures/system_small.json" \
		> "$1/system_profile.json" &&
	cp "$srcdir/tests/fixtures/device_small_b.json" \
		"$1/device_profile_model_1578576049.json"
}

# profiles_datapath DIR: a fake Neuron Explorer data path for the Profile
# Manager's screens (nxtop --data-path DIR): in DIR/profiles/global a
# device profile JSON modified in 2030 (opening it does not make it
# newer), a Parquet device and a Parquet system folder, a bundle, a
# device profile with an escape sequence in its name and a file that is
# no profile, each modified on a day of its own in January 2026.
profiles_datapath() {
	g="$1/profiles/global"
	mkdir -p "$g/dev@latest" "$g/sys@latest" "$g/bundle"
	cp "$srcdir/tests/fixtures/device_small.json" "$g/dev.json"
	: > "$g/dev@latest/Instruction.parquet"
	: > "$g/sys@latest/SystemProfileEvents.parquet"
	cp "$srcdir/tests/fixtures/system_small.json" "$g/bundle/system_profile.json"
	cp "$g/dev.json" "$g/$(printf 'bad\033[2Jname.json')"
	printf 'hello' > "$g/notes.txt"
	touch -d "2026-01-02 10:00Z" "$g/sys@latest/SystemProfileEvents.parquet" \
		"$g/sys@latest"
	touch -d "2026-01-03 10:00Z" "$g/dev@latest/Instruction.parquet" "$g/dev@latest"
	touch -d "2026-01-04 10:00Z" "$g/bundle/system_profile.json" "$g/bundle"
	touch -d "2026-01-05 10:00Z" "$g"/bad*
	touch -d "2030-01-01 10:00Z" "$g/dev.json"
}

# bundle_ncs DIR: a bundle of one model on several NeuronCores, as the
# tools export it: tests/fixtures/system_ncs.json lists the device
# profiles of NeuronCores 0 and 2 of process 100, 2 of process 200 and 3
# (missing from the folder); the folder also holds NeuronCore 1's file,
# which the list does not name. Every device file says NeuronCore 0
# inside, as real exports do: only the list and the names tell them apart.
bundle_ncs() {
	mkdir "$1" || return 1
	cp "$srcdir/tests/fixtures/system_ncs.json" "$1/system_profile.json"
	for f in pid_100_nc_0 pid_100_nc_1 pid_100_nc_2 pid_200_nc_2; do
		cp "$srcdir/tests/fixtures/device_small.json" \
			"$1/i-0c0ffee000000abcd_${f}_model_777.json" || return 1
	done
}

# jax_logdir DIR: a JAX log folder, DIR/plugins/profile/<run>/, of three
# runs: 2026_11_19_08_00_00 holds only an XPlane file;
# 2026_11_20_09_30_00 one host file (alpha, 1 event);
# 2026_11_21_10_00_00, the newest, two host files (alpha: 3 X events on
# two processes, beta: 2) and the run's perfetto_trace.json.gz (1).
jax_logdir() {
	jax_runs=$1/plugins/profile
	mkdir -p "$jax_runs/2026_11_19_08_00_00" "$jax_runs/2026_11_20_09_30_00" \
		"$jax_runs/2026_11_21_10_00_00" || return 1
	printf '\010\001' > "$jax_runs/2026_11_19_08_00_00/alpha.xplane.pb"
	printf '%s' '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":5,"dur":2,"name":"old"}]}' |
		gzip -n > "$jax_runs/2026_11_20_09_30_00/alpha.trace.json.gz"
	jax_new=$jax_runs/2026_11_21_10_00_00
	printf '%s' '{"displayTimeUnit":"ns","traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"M","pid":2,"name":"process_name","args":{"name":"/device:TPU:0"}},
{"ph":"M","pid":1,"tid":7,"name":"thread_name","args":{"name":"python"}},
{"ph":"X","pid":1,"tid":7,"ts":10,"dur":30,"name":"jit_step"},
{"ph":"X","pid":1,"tid":7,"ts":50.5,"dur":20,"name":"jit_step"},
{"ph":"X","pid":2,"tid":1,"ts":12,"dur":25,"name":"fusion.1"}]}' |
		gzip -n > "$jax_new/alpha.trace.json.gz"
	printf '%s' '{"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"X","pid":1,"tid":7,"ts":"15","dur":"10","name":"jit_step"},
{"ph":"X","pid":1,"tid":7,"ts":40,"dur":5,"name":"copy"}]}' |
		gzip -n > "$jax_new/beta.trace.json.gz"
	printf '%s' '[{"ph":"X","pid":9,"tid":9,"ts":20,"dur":40,"name":"step"}]' |
		gzip -n > "$jax_new/perfetto_trace.json.gz"
	printf 'not a trace\n' > "$jax_new/alpha.xplane.pb"
}

# summary_csv_same ARGS...: `nxtop summary -q ARGS --format csv` holds
# the JSON's values and nothing else. jq flattens the JSON the way the
# man page says the CSV is laid out (section, record, column, value;
# true/false as 1/0, null empty); awk reads the CSV (RFC 4180 quoting,
# the ' before a formula-like cell dropped) and compares each value
# with the JSON's, numbers as numbers.
summary_csv_same() {
	"$NXTOP" summary -q --format json "$@" > "$out.json" ||
		{ fail "summary --format json $*"; return; }
	"$NXTOP" summary -q --format csv "$@" > "$out.csv" ||
		{ fail "summary --format csv $*"; return; }
	jq -r 'def v: if . == null then "" elif . == true then "1"
		elif . == false then "0" else tostring end;
	def row($s; $i; $k; $x): [$s, ($i | tostring), $k, ($x | v)] | join("\t");
	. as $d
	| ($d.profile | to_entries[] | select(.value | type != "array")
	   | row("profile"; 0; .key; .value)),
	  ($d.profile.other_runs // [] | to_entries[]
	   | row("profile.other_runs"; .key; "run"; .value)),
	  ($d | to_entries[] | select(.value | type != "object" and type != "array")
	   | row("summary"; 0; .key; .value)),
	  ($d | to_entries[] | select(.key != "profile" and (.value | type) == "array")
	   | .key as $s | .value | to_entries[] | .key as $i
	   | .value | to_entries[] | row($s; $i; .key; .value)),
	  ($d | to_entries[] | select(.key != "profile" and (.value | type) == "object")
	   | .key as $s | .value | to_entries | to_entries[] | .key as $i
	   | row($s; $i; if $s == "engines" then "engine" else "queue_type" end;
		 .value.key),
	     (.value.value | to_entries[] | row($s; $i; .key; .value)))' \
		"$out.json" > "$out.want" || { fail "jq: $out.json"; return; }
	awk -F '\t' '
	function num(s) { return s ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
	# the fields of one CSV line, RFC 4180
	function split_csv(line, f,   n, q, c, i, s) {
		n = 1; q = 0; s = ""
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { s = s c; i++ }
			else if (c == "\"") q = !q
			else if (!q && c == ",") { f[n++] = s; s = "" }
			else s = s c
		}
		f[n] = s
		return n
	}
	NR == FNR { want[$1 "\t" $2 "\t" $3] = $4; nwant++; next }
	FNR == 1 { sub(/\r$/, ""); if ($0 != "section,record,column,value") bad = bad " header:" $0; next }
	{
		sub(/\r$/, "")
		if (split_csv($0, f) != 4) { bad = bad " fields:" $0; next }
		if (f[4] ~ /^'"'"'[-=+@]/) f[4] = substr(f[4], 2)
		k = f[1] "\t" f[2] "\t" f[3]
		if (!(k in want)) { bad = bad " extra:" k; next }
		if (seen[k]++) { bad = bad " twice:" k; next }
		w = want[k]
		if (!(f[4] == w || (num(f[4]) && num(w) && f[4] + 0 == w + 0)))
			bad = bad " " k ":" f[4] "!=" w
		n++
	}
	END {
		if (n != nwant) bad = bad " " n " values, the JSON has " nwant
		if (bad != "") { print bad; exit 1 }
	}' "$out.want" "$out.csv" > "$out.diff" ||
		fail "summary --format csv $*: not the JSON's values:$(cat "$out.diff")"
	rm -f "$out.json" "$out.csv" "$out.want" "$out.diff"
}
