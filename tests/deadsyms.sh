#!/bin/sh
# No dead exports: every function or variable that an object file of
# src/, model/ or tui/ exports is used by another object file (another
# module, main, a unit test or a fuzz harness). One used only inside its
# own file is made static; one used nowhere is removed. Reads the symbol
# tables (nm) of the objects make check has built.
set -u
srcdir=$(cd "${srcdir:-.}" && pwd) || exit 1
cd "${builddir:-.}" || exit 1

if ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: nm is not installed (binutils; ./install-deps installs it)" >&2
	exit 77
fi

# The objects of today's sources: DIR/[TARGET-]NAME.o of DIR/NAME.c (a
# build tree keeps the objects of files since moved or removed).
objects() {
	find "$@" -path ./fuzz-build -prune -o -name '*.o' -print 2>/dev/null |
	while read -r o; do
		o=${o#./}
		base=${o##*/}
		dir=${o%"$base"}
		c=${base#*-}
		[ -f "$srcdir/$dir${c%.o}.c" ] && printf '%s\n' "$o"
	done | LC_ALL=C sort
}
lib=$(objects src model tui)
all=$(objects .)
[ "$(printf '%s\n' "$lib" | wc -l)" -gt 50 ] ||
	{ echo "deadsyms.sh: the objects of src/, model/ and tui/ are not built in $(pwd)" >&2; exit 1; }

# "file symbol" for each export of the libraries and each use of a symbol
# shellcheck disable=SC2086
defs=$(nm -A -g --defined-only $lib | awk '{ sub(/:.*/, "", $1); print $1, $NF }')
# shellcheck disable=SC2086
uses=$(nm -A -u $all | awk '{ sub(/:.*/, "", $1); sub(/^\.\//, "", $1); print $1, $NF }')

dead=$(printf '%s\n' "$uses" | awk -v defs="$defs" '
	{ if (!(($2, $1) in seen)) { seen[$2, $1] = 1; users[$2] = users[$2] " " $1 } }
	END {
		n = split(defs, d, "\n")
		for (i = 1; i <= n; i++) {
			split(d[i], f, " ")
			# main, and what a sanitizer or the compiler adds itself
			if (f[2] == "main" || f[2] ~ /^__/)
				continue
			m = split(users[f[2]], u, " ")
			ok = 0
			for (k = 1; k <= m; k++)
				if (u[k] != f[1])
					ok = 1
			if (!ok)
				print f[1] ": " f[2]
		}
	}' | LC_ALL=C sort)
if [ -n "$dead" ]; then
	echo "exported but used by no other file (make it static, or remove it):"
	printf '%s\n' "$dead"
	exit 1
fi
exit 0
