#!/bin/sh
# tests/README maps the code to its tests: every test program and script
# that make check runs, and every folder of src/, model/ and tui/, is
# named there.
set -u
cd "${srcdir:-.}" || exit 1
readme=tests/README
[ -f "$readme" ] || { echo "no $readme"; exit 1; }

tests=$(grep -Eo 'tests/(test_[a-z_]+|[a-z-]+\.sh)' Makefile.am | sort -u)
[ -n "$tests" ] || { echo "readme.sh: no tests found in Makefile.am" >&2; exit 1; }
fail=0
for t in $tests; do
	grep -Eq "(^|[ (/\`])${t#tests/}([ ,.);:\`]|$)" "$readme" || {
		echo "$readme does not name ${t#tests/}"
		fail=1
	}
done
for d in $(find src model tui -type d | LC_ALL=C sort); do
	ls "$d"/*.c >/dev/null 2>&1 || continue
	grep -q "^$d/ " "$readme" || {
		echo "$readme does not map $d/ to its tests"
		fail=1
	}
done
exit $fail
