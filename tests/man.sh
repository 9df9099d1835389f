#!/bin/sh
# The man page is valid roff: mandoc's lint and groff's warnings find
# nothing, and no alternating-font macro (.BR, .RB, ...) runs a sentence
# on after its closing punctuation, which renders with the words joined.
set -u
. "${srcdir:-.}/tests/lib.sh"

man="$srcdir/man/nxtop.1"
checked=0

if command -v mandoc >/dev/null 2>&1; then
	checked=1
	# Of the style notes only long source lines are no fault.
	mandoc -T lint -W style "$man" 2>&1 | grep -v 'longer than 80 bytes' >"$out"
	[ -s "$out" ] && fail "mandoc -T lint: $(cat "$out")"
fi
if command -v groff >/dev/null 2>&1; then
	checked=1
	groff -ww -man -Tutf8 -z "$man" >"$out" 2>&1
	[ -s "$out" ] && fail "groff -ww: $(cat "$out")"
fi
if [ "$checked" -eq 0 ]; then
	echo "SKIP: neither mandoc nor groff is installed (./install-deps installs both)" >&2
	exit 77
fi

# ".BR SECURITY ). A listed file" renders as "SECURITY).Alistedfile":
# words after an argument that ends a sentence belong on the next line.
awk '/^\.(BR|RB|BI|IB|IR|RI) / {
	n = 0; line = substr($0, 5)
	while (match(line, /^ *("[^"]*"|[^ "]+)/)) {
		arg[++n] = substr(line, RSTART, RLENGTH); sub(/^ */, "", arg[n])
		line = substr(line, RSTART + RLENGTH)
	}
	for (i = 1; i + 2 <= n; i++)
		if (arg[i] ~ /[.;:]"?$/ && arg[i + 1] ~ /^"?[A-Za-z]/ &&
		    arg[i + 2] ~ /^"?[A-Za-z]/)
			printf "line %d: %s\n", NR, $0
}' "$man" >"$out"
[ -s "$out" ] && fail "text after a sentence's end in a font macro: $(cat "$out")"
pass
