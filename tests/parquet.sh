#!/bin/sh
# Parquet fixtures written by DuckDB, parquet-wasm and hyparquet-writer
# (tests/parquet/gen.mjs): pqdump must print exactly what DuckDB read in
# each (NAME.expected), whatever the batch size, and the fixtures must
# together use every codec, encoding and page type the reader supports.
set -u
. "${srcdir:-.}/tests/lib.sh"

pqdump="$builddir/tests/pqdump"
fx="$srcdir/tests/fixtures/parquet"
[ -x "$pqdump" ] || { echo "no $pqdump: skipping"; exit 77; }

for f in "$fx"/*.parquet; do
	n=$(basename "$f" .parquet)
	for b in 1 7 1000; do
		if ! "$pqdump" -b "$b" "$f" >"$out" 2>"$err"; then
			fail "$n (batches of $b): $(cat "$err")"
		elif ! cmp -s "$out" "$fx/$n.expected"; then
			fail "$n (batches of $b) differs from DuckDB's reading:"
			diff "$out" "$fx/$n.expected" | head -5 >&2
		fi
	done
done

# Every codec, value encoding and page type appears in some fixture.
seen=$(for f in "$fx"/*.parquet; do "$pqdump" -n -m "$f"; done |
	grep -E '^(codecs|encodings|pages) ' | cut -d' ' -f2- | tr ' ' '\n' |
	sort -u | tr '\n' ' ')
for want in UNCOMPRESSED SNAPPY GZIP BROTLI LZ4 ZSTD LZ4_RAW \
	PLAIN PLAIN_DICTIONARY RLE_DICTIONARY RLE DELTA_BINARY_PACKED \
	DELTA_LENGTH_BYTE_ARRAY DELTA_BYTE_ARRAY BYTE_STREAM_SPLIT \
	DATA_PAGE DATA_PAGE_V2 DICTIONARY_PAGE; do
	case " $seen " in
	*" $want "*) ;;
	*) fail "no fixture uses $want (seen: $seen)" ;;
	esac
done

# Columns are found by name: a list column by its field's name, then
# printed alone with its nulls, empty lists and null elements.
expect 0 '^flow_id\.list\.element$' "$pqdump" -c flow_id "$fx/duckdb_snappy.parquet"
cut -f7 "$fx/duckdb_snappy.expected" >"$out.want"
"$pqdump" -c flow_id.list.element "$fx/duckdb_snappy.parquet" >"$out.got"
cmp -s "$out.got" "$out.want" || fail "the list column alone differs"
grep -qx 'null' "$out.want" && grep -qx '\[\]' "$out.want" &&
	grep -qx '\[null\]' "$out.want" || fail "the fixture lacks a null or empty list"
rm -f "$out.want" "$out.got"
expect 1 "no column 'nosuch'" "$pqdump" -c nosuch "$fx/duckdb_snappy.parquet"

# The schema: types, logical types, levels.
expect 0 '^column flow_id\.list\.element BYTE_ARRAY STRING def 3 rep 1$' \
	"$pqdump" -s -c id "$fx/duckdb_snappy.parquet"
expect 0 '^rows 2200, row groups 2, columns 3$' "$pqdump" -s -c pc \
	"$fx/duckdb_rowgroups.parquet"

# Not Parquet: one line naming the file.
printf 'PAR1 but not quite' >"$out.bad"
expect 1 "^pqdump: $out.bad: not a Parquet file" "$pqdump" "$out.bad"
rm -f "$out.bad"
pass
