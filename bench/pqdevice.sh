#!/bin/sh
# Device profile Parquet folder: a folder holding a NX_BENCH_ROWS-row
# (default 10,000,000) Instruction.parquet (16 columns of FORMATS.md
# §1.5 Instruction, ZSTD, written by DuckDB: the file bench/parquet.sh
# reads) imported by nxtop into its cache, against DuckDB reading every
# column of the same file on one thread, measured in the same run. Then
# the viewer reopening the cached profile: process start to the first
# complete frame at 200x50, headless, median of 5.
#
# Budgets (issue 12): import >= 1,500,000 rows/s with peak RSS < 200 MB;
# first frame on reopening < 150 ms.
set -eu
NXTOP=${NXTOP:-./nxtop}
out=${BENCH_DIR:-bench/out}
n=${NX_BENCH_ROWS:-10000000}
here=$(cd "$(dirname "$0")/.." && pwd)
mods="$here/tests/parquet/node_modules"
mkdir -p "$out"
export XDG_DATA_HOME="$out/data"

if ! command -v node >/dev/null 2>&1 || [ ! -d "$mods/@duckdb/node-api" ]; then
	echo "== pqdevice: skipped, DuckDB writes its table: (cd tests/parquet && npm ci)"
	exit 0
fi
file="$out/instruction-v2-$n.parquet"
[ -s "$file" ] || node "$here/tests/parquet/bench.mjs" write "$file" "$n"
dir="$out/pqdevice-$n@latest"
mkdir -p "$dir"
# the folder holds the same file (no symbolic link: nxtop skips them)
ln -f "$file" "$dir/Instruction.parquet" 2>/dev/null || cp "$file" "$dir/Instruction.parquet"

/usr/bin/time -f '%e %U %M' -o "$out/time.txt" "$NXTOP" import -q -f "$dir" >/dev/null
set -- $(cat "$out/time.txt")
secs=$1 user=$2 kb=$3
duck=$(node "$here/tests/parquet/bench.mjs" read "$file")
rate=$(echo "$n / $secs" | bc -l)
verdict() { awk -v v="$1" -v b="$2" -v up="$3" 'BEGIN { print ((up ? v >= b : v < b) ? "ok" : "OVER BUDGET") }'; }
echo "== device profile Parquet folder, $n instructions x 16 columns, ZSTD"
printf 'nxtop import    %7.2f s (%.2f s CPU)  %9.0f rows/s  budget >= 1500000  %s\n' \
	"$secs" "$user" "$rate" "$(verdict "$rate" 1500000 1)"
printf 'peak RSS        %7.1f MB  budget < 200 MB  %s\n' \
	"$(echo "$kb / 1024" | bc -l)" "$(verdict "$kb" 204800 0)"
printf 'DuckDB read     %7.2f s  %9.0f rows/s (every column, 1 thread)\n' \
	"$duck" "$(echo "$n / $duck" | bc -l)"
printf 'ratio           nxtop import takes %.1fx the time of the DuckDB read\n' \
	"$(echo "$secs / $duck" | bc -l)"

# reopening: a script that only sets the size ends after the first frame
printf 'size 200x50\n' > "$out/pqfirst.keys"
: > "$out/pqfirst.wall"
for i in 1 2 3 4 5; do
	t0=$(($(date +%s%N) / 1000000))
	"$NXTOP" -q --headless="$out/pqfirst.keys" --dump="$out" "$dir"
	t1=$(($(date +%s%N) / 1000000))
	echo $((t1 - t0)) >> "$out/pqfirst.wall"
done
first=$(sort -n "$out/pqfirst.wall" | sed -n 3p)
printf 'first frame     %7d ms on reopening the cached folder (median of 5)  budget < 150 ms  %s\n' \
	"$first" "$(verdict "$first" 150 0)"
