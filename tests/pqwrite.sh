#!/bin/sh
# The Parquet writer read by an independent reader: tests/test_pqwrite
# --write makes tables of every supported type with nulls, several row
# groups, uncompressed and ZSTD, and the text of their rows; DuckDB
# (tests/parquet/dump.mjs) and pqdump must both read exactly that.
set -u
. "${srcdir:-.}/tests/lib.sh"

mods="$srcdir/tests/parquet/node_modules"
if ! command -v node >/dev/null 2>&1 || [ ! -d "$mods/@duckdb/node-api" ]; then
	msg="SKIPPED: reading the Parquet writer's files with DuckDB needs node"
	msg="$msg and its npm packages: (cd tests/parquet && npm ci)"
	echo "$msg"
	echo "$msg" >&2
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$builddir/tests/test_pqwrite" --write "$dir" || fail "test_pqwrite --write failed"
for n in plain zstd; do
	[ -s "$dir/$n.expected" ] || fail "$n: no expected rows"
	node "$srcdir/tests/parquet/dump.mjs" "$dir/$n.parquet" >"$out" 2>"$err" ||
		fail "$n: DuckDB: $(cat "$err")"
	cmp -s "$out" "$dir/$n.expected" ||
		fail "$n: DuckDB reads other rows: $(diff "$out" "$dir/$n.expected" | head -5)"
	"$builddir/tests/pqdump" "$dir/$n.parquet" >"$out" 2>"$err" ||
		fail "$n: pqdump: $(cat "$err")"
	cmp -s "$out" "$dir/$n.expected" || fail "$n: pqdump reads other rows"
done
pass
