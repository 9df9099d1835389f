#!/bin/sh
# No function in src/, model/ or tui/ is longer than 100 lines, counted
# from the line that names it to its closing brace (what a screen shows).
# The code's style makes this a small awk: a function's body opens with
# "{" alone at column 0 and closes with "}" at column 0; the name is the
# last unindented line with a "(" before the "{". Generated protobuf code
# lives in the build tree, not here.
set -u
cd "${srcdir:-.}" || exit 1
limit=100

files=$(find src model tui -name '*.c' | LC_ALL=C sort)
[ -n "$files" ] || { echo "funclen.sh: no sources under $(pwd)" >&2; exit 1; }

# shellcheck disable=SC2086
long=$(awk -v limit="$limit" '
	FNR == 1 { body = 0; sig = 0 }
	!body && /^[A-Za-z_].*\(/ { sig = FNR; name = $0 }
	!body && /^\{$/ && sig { body = 1; next }
	body && /^\}/ {
		n = FNR - sig + 1
		if (n > limit) {
			sub(/\(.*/, "", name)
			sub(/.*[ *]/, "", name)
			printf "%s:%d: %s is %d lines\n", FILENAME, sig, name, n
		}
		body = 0; sig = 0
	}
	!body && /;[ \t]*$/ { sig = 0 }' $files)
count=$(awk '/^\{$/' $files | wc -l)
[ "$count" -gt 100 ] || { echo "funclen.sh: found only $count function bodies" >&2; exit 1; }
if [ -n "$long" ]; then
	echo "functions over $limit lines (split them into named steps):"
	printf '%s\n' "$long"
	exit 1
fi
exit 0
