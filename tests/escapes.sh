#!/bin/sh
# \u escapes that name no character read the same in a Neuron JSON file
# and in a Chrome JSON trace: a lone surrogate or \u0000 becomes U+FFFD
# and the record is kept; a surrogate pair is one character. \u0001
# becomes U+FFFD too, never a number: "\u00015" is text, not 5. Expected
# bytes are written by hand (U+FFFD is EF BF BD in UTF-8) and read back
# with sqlite3 from the cache.
set -u
. "${srcdir:-.}/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name as written in JSON | hex of the UTF-8 bytes that must be stored
cat >"$tmp/cases" <<'CASES'
a\udc00b|61EFBFBD62
c\ud800d|63EFBFBD64
e\ud800\u0041|65EFBFBD41
f\u0000g|66EFBFBD67
h\ud83d\ude00|68F09F9880
i\udc00\ud800j|69EFBFBDEFBFBD6A
k\\udc00|6B5C7564633030
l\uDBFF\uDFFF|6CF48FBFBF
\u00015|EFBFBD35
m\u0001x|6DEFBFBD78
CASES

names() {
	sep=
	while IFS='|' read -r name hex; do
		printf "$1" "$sep" "$name"
		sep=,
	done <"$tmp/cases"
}

{
	printf '{"instruction":['
	names '%s{"timestamp":1,"duration":1,"opcode":"%s","label":"Vector"}'
	printf ']}'
} >"$tmp/neuron.json"
{
	printf '{"traceEvents":['
	names '%s{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"%s"}'
	printf ']}'
} >"$tmp/chrome.json"

for f in neuron chrome; do
	expect 0 "" "$NXTOP" import -q -o "$tmp/$f.nxdb" "$tmp/$f.json"
	while IFS='|' read -r name hex; do
		n=$(sqlite3 "$tmp/$f.nxdb" \
			"SELECT count(*) FROM slice JOIN string ON string.id = slice.name WHERE hex(str) = '$hex'" 2>&1)
		[ "$n" = 1 ] || fail "$f.json: \"$name\" not stored as $hex ($n)"
	done <"$tmp/cases"
done

pass
