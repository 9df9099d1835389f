#!/bin/sh
# Parquet reader benchmark: an Instruction-like table of NX_BENCH_ROWS rows
# (default 10,000,000; 16 columns of FORMATS 1.5 Instruction) written by
# DuckDB with ZSTD, read whole by tests/pqdump -n (every column, every
# value, batches lined up as an importer reads them) on one core.
# Baseline: DuckDB reading every column of the same file on one thread,
# measured in the same run.
#
# Budget: >= 3,000,000 rows/s (an importer on top must reach 1,500,000),
# peak RSS < 200 MB.
set -eu
NXTOP=${NXTOP:-./nxtop}
PQDUMP=${PQDUMP:-$(dirname "$NXTOP")/tests/pqdump}
out=${BENCH_DIR:-bench/out}
n=${NX_BENCH_ROWS:-10000000}
here=$(cd "$(dirname "$0")/.." && pwd)
mods="$here/tests/parquet/node_modules"
mkdir -p "$out"

if ! command -v node >/dev/null 2>&1 || [ ! -d "$mods/@duckdb/node-api" ]; then
	echo "== parquet: skipped, DuckDB writes its table: (cd tests/parquet && npm ci)"
	exit 0
fi
file="$out/instruction-v2-$n.parquet"
[ -s "$file" ] || node "$here/tests/parquet/bench.mjs" write "$file" "$n"

/usr/bin/time -f '%e %M' -o "$out/time.txt" "$PQDUMP" -n "$file" >/dev/null
set -- $(cat "$out/time.txt")
secs=$1 kb=$2
duck=$(node "$here/tests/parquet/bench.mjs" read "$file")
echo "== parquet read, $n rows x 16 columns, ZSTD (budget: >= 3000000 rows/s, peak RSS < 200 MB)"
printf 'pqdump %6.2f s  %9.0f rows/s  %6.1f MB/s  peak RSS %6.1f MB  DuckDB (1 thread) %5.2f s  %9.0f rows/s  pqdump/DuckDB %4.2fx\n' \
	"$secs" "$(echo "$n / $secs" | bc -l)" \
	"$(echo "$(stat -c %s "$file") / 1048576 / $secs" | bc -l)" \
	"$(echo "$kb / 1024" | bc -l)" "$duck" "$(echo "$n / $duck" | bc -l)" \
	"$(echo "$secs / $duck" | bc -l)"
