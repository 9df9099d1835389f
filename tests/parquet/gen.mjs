// Writes the Parquet fixtures of tests/fixtures/parquet/ with three
// writers that are not nxtop's (DuckDB, parquet-wasm, hyparquet-writer),
// and beside each NAME.parquet the NAME.expected text that DuckDB reads
// back, in pqdump's canonical form. Run once after changing it:
//   cd tests/parquet && npm ci && node gen.mjs
// It prints the codecs and encodings DuckDB finds in each file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  duckdb, duckdbCodecs, duckdbDump, rng, sqlTable, writeArrow, writeDuckdb,
  writeHyparquet,
} from './lib.mjs';
import { instructions, mixed } from './data.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'parquet');
mkdirSync(out, { recursive: true });
const con = await duckdb();

const duck = (opts, table = mixed(rng(1), 120)) => async (file) =>
  writeDuckdb(con, file, sqlTable(table), opts);
const wasm = (configure, table = mixed(rng(2), 120)) => async (file) =>
  writeArrow(file, table, configure);
const hyp = (options, encodings = {}, table = mixed(rng(3), 120)) => async (file) =>
  writeHyparquet(file, table.map((c) => ({ ...c, encoding: encodings[c.name] })), options);

const fixtures = {
  duckdb_snappy: duck('COMPRESSION snappy'),
  duckdb_zstd_v2: duck("COMPRESSION zstd, PARQUET_VERSION 'V2'"),
  duckdb_gzip: duck('COMPRESSION gzip'),
  duckdb_lz4raw: duck('COMPRESSION lz4_raw'),
  duckdb_brotli: duck('COMPRESSION brotli'),
  duckdb_none: duck('COMPRESSION uncompressed'),
  duckdb_rowgroups: duck('COMPRESSION zstd, ROW_GROUP_SIZE 1000', instructions(rng(4), 2200)),
  arrow_zstd_v2: wasm((p, w) => p.setCompression(w.Compression.ZSTD)
    .setWriterVersion(w.WriterVersion.V2).setMaxRowGroupSize(50)),
  arrow_lz4raw_v1: wasm((p, w) => p.setCompression(w.Compression.LZ4_RAW)
    .setWriterVersion(w.WriterVersion.V1).setDictionaryEnabled(false)),
  arrow_lz4_legacy: wasm((p, w) => p.setCompression(w.Compression.LZ4)),
  arrow_brotli_split: wasm((p, w) => p.setCompression(w.Compression.BROTLI)
    .setWriterVersion(w.WriterVersion.V2).setDictionaryEnabled(false)
    .setColumnEncoding('d', w.Encoding.BYTE_STREAM_SPLIT)
    .setColumnEncoding('f', w.Encoding.BYTE_STREAM_SPLIT)
    .setColumnEncoding('id', w.Encoding.DELTA_BINARY_PACKED)
    .setColumnEncoding('s', w.Encoding.DELTA_BYTE_ARRAY)),
  arrow_gzip_pages: wasm((p, w) => p.setCompression(w.Compression.GZIP)
    .setWriteBatchSize(16).setDataPageSizeLimit(256)),
  hyparquet_delta: hyp({ codec: 'UNCOMPRESSED', rowGroupSize: 50 }, {
    id: 'DELTA_BINARY_PACKED', n: 'DELTA_BINARY_PACKED', d: 'BYTE_STREAM_SPLIT',
    f: 'BYTE_STREAM_SPLIT', s: 'DELTA_BYTE_ARRAY',
  }),
  hyparquet_dlba: hyp({ codec: 'GZIP', rowGroupSize: [30, 60] }, { s: 'DELTA_LENGTH_BYTE_ARRAY' }),
  hyparquet_snappy: hyp({ codec: 'SNAPPY', statistics: false }),
  hyparquet_brotli: hyp({ codec: 'BROTLI', pageSize: 200 }),
};

// DuckDB cannot read legacy LZ4: its expected values come from the same
// table written by the same writer uncompressed.
const twins = {
  arrow_lz4_legacy: wasm((p, w) => p.setCompression(w.Compression.UNCOMPRESSED)),
};

const tmp = mkdtempSync(join(tmpdir(), 'nxtop-parquet-'));
for (const [name, write] of Object.entries(fixtures)) {
  const file = join(out, `${name}.parquet`);
  await write(file);
  let read = file;
  if (twins[name]) {
    read = join(tmp, `${name}.parquet`);
    await twins[name](read);
  }
  writeFileSync(join(out, `${name}.expected`), await duckdbDump(con, read));
  const { codecs, encodings } = await duckdbCodecs(con, read);
  console.log(`${name}: ${twins[name] ? '(its twin) ' : ''}${codecs.join(' ')}; ${encodings.join(' ')}`);
}
rmSync(tmp, { recursive: true });
