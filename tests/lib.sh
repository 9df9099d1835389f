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

pass() {
	rm -f "$out" "$err"
	[ "$failures" -eq 0 ] || exit 1
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
