#!/bin/sh
# Perfetto and Chrome JSON import from the command line: one-line errors
# on bad traces (file, byte offset, record) with no cache left behind,
# summaries of traces, formats told apart by content. The rows of every
# fixture are checked by tests/test_import_trace.
set -u
. "${srcdir:-.}/tests/lib.sh"
builddir=${builddir:-.}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$builddir/tests/mkpftrace" "$tmp" || fail "mkpftrace"

expect 1 "truncated.pftrace: byte 18: packet of 64 bytes runs past the end of the file \(22 bytes\) in \"packet\"\[1\]" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/truncated.pftrace"
no_file "$tmp/bad.nxdb"

printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"name":"a","ts":"soon"}]}' >"$tmp/ts.json"
expect 1 "ts.json: byte 16: \"ts\" is not a time in µs that fits in 64 bits in \"traceEvents\"\[0\]" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/ts.json"
printf '{"traceEvents":[{"pid":1,"ts":1}]}' >"$tmp/noph.json"
expect 1 "noph.json: byte 16: missing \"ph\" in \"traceEvents\"\[0\]" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/noph.json"
printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2},{"ph":"X",' >"$tmp/cut.json"
expect 1 "cut.json: byte [0-9]+: unexpected end of file" \
	"$NXTOP" import -q -o "$tmp/bad.nxdb" "$tmp/cut.json"
no_file "$tmp/bad.nxdb"

# a Perfetto trace opens like any profile: summary of the device trace
expect 0 "TensorMatrix +engine +2" "$NXTOP" summary "$tmp/neuron_device.pftrace"
# formats are told apart by content: a trace without its suffix, and JSON
# that starts with a newline (the byte a Perfetto trace starts with)
cp "$tmp/neuron_device.pftrace" "$tmp/device.bin"
expect 0 "Kind +device \(pftrace\)" "$NXTOP" summary "$tmp/device.bin"
printf '\n{"traceEvents":[{"ph":"X","pid":1,"tid":2,"name":"a","ts":1,"dur":2}]}' \
	>"$tmp/newline.json"
expect 0 "Kind +trace \(chrome-json\)" "$NXTOP" summary "$tmp/newline.json"

# names and a counter's unit with escape sequences and C1 controls:
# cleaned in every export
for f in text json csv; do
	expect 0 "" "$NXTOP" export -q --format $f "$tmp/utf8.pftrace"
	if LC_ALL=C grep -q "$(printf '[\001-\010\013\014\016-\037\177]')" "$out" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$out"; then
		fail "utf8.pftrace: raw control bytes in the $f export: $(od -c "$out" | head -20)"
	fi
done
r=$(printf '\357\277\275')	# U+FFFD
expect 0 "" "$NXTOP" export -q "$tmp/utf8.pftrace"
grep -qF "== gauge (counter, $r]0;title$r$r): 1 samples" "$out" ||
	fail "utf8.pftrace: the counter's unit: $(grep gauge "$out")"
pass
