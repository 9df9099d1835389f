// The differential test: random tables (every type, nulls, lists, 64-bit
// extremes, -0.0, NaN, infinities, long and empty strings) written by
// DuckDB, parquet-wasm and hyparquet-writer with every codec, page
// version and encoding, then read by DuckDB and by nxtop's reader
// (pqdump); the two readings must be the same text.
//   node diff.mjs PQDUMP TMPDIR [SEED]
// The seed is printed; pass it again to replay a failure.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  duckdb, duckdbDump, rng, sqlTable, writeArrow, writeDuckdb, writeHyparquet,
} from './lib.mjs';
import { mixed } from './data.mjs';

const [pqdump, tmp, seedArg] = process.argv.slice(2);
const seed = Number(seedArg ?? process.env.NXTOP_PARQUET_SEED ?? Date.now() % 1e9);
const r = rng(seed);
const con = await duckdb();

// The mixed table, a list of 64-bit values and now and then long strings.
function table(rows) {
  const cols = mixed(r, rows, r.float() * 0.5);
  cols.push({
    name: 'vals', sql: 'BIGINT[]',
    data: cols[0].data.map(() => (r.chance(0.1) ? null
      : Array.from({ length: r.int(5) }, () => (r.chance(0.1) ? null : r.i64())))),
  });
  const s = cols.find((c) => c.name === 's');
  s.data = s.data.map((v) => (r.chance(0.02) ? 'long '.repeat(200 + r.int(800)) : v));
  return cols;
}

const duckCodecs = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw', 'brotli'];
const wasmCodecs = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW'];
const hypCodecs = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI'];

function duckCase(i) {
  const codec = duckCodecs[i % duckCodecs.length];
  const version = i % 2 ? 'V2' : 'V1';
  const rows = i === 0 ? 2100 + r.int(2000) : 50 + r.int(400);
  return {
    what: `DuckDB ${codec} ${version} ${rows} rows`,
    write: (file, t) => writeDuckdb(con, file, sqlTable(t),
      `COMPRESSION ${codec}, PARQUET_VERSION ${version}, ROW_GROUP_SIZE 1024`),
    rows,
  };
}

function wasmCase(i) {
  const codec = wasmCodecs[i % wasmCodecs.length];
  const v2 = r.chance(0.5);
  const dict = r.chance(0.5);
  const group = 10 + r.int(200);
  const page = 64 + r.int(4096);
  const configure = (p, w, c = codec) => {
    let q = p.setCompression(w.Compression[c])
      .setWriterVersion(v2 ? w.WriterVersion.V2 : w.WriterVersion.V1)
      .setDictionaryEnabled(dict).setMaxRowGroupSize(group)
      .setDataPageSizeLimit(page).setWriteBatchSize(1 + r.int(64));
    if (!dict) {
      q = q.setColumnEncoding('id', w.Encoding.DELTA_BINARY_PACKED)
        .setColumnEncoding('n', w.Encoding.DELTA_BINARY_PACKED)
        .setColumnEncoding('d', w.Encoding.BYTE_STREAM_SPLIT)
        .setColumnEncoding('f', w.Encoding.BYTE_STREAM_SPLIT)
        .setColumnEncoding('s', r.chance(0.5) ? w.Encoding.DELTA_BYTE_ARRAY : w.Encoding.DELTA_LENGTH_BYTE_ARRAY);
    }
    return q;
  };
  return {
    what: `parquet-wasm ${codec} ${v2 ? 'V2' : 'V1'} dictionary ${dict} row groups of ${group}`,
    write: (file, t) => writeArrow(file, t, configure),
    // DuckDB reads no legacy LZ4: it reads the same table uncompressed
    twin: codec === 'LZ4'
      ? (file, t) => writeArrow(file, t, (p, w) => configure(p, w, 'UNCOMPRESSED')) : null,
    rows: 50 + r.int(400),
  };
}

function hypCase(i) {
  const codec = hypCodecs[i % hypCodecs.length];
  const enc = {
    id: r.pick([undefined, 'PLAIN', 'DELTA_BINARY_PACKED']),
    n: r.pick([undefined, 'PLAIN', 'DELTA_BINARY_PACKED']),
    d: r.pick([undefined, 'PLAIN', 'BYTE_STREAM_SPLIT']),
    f: r.pick([undefined, 'BYTE_STREAM_SPLIT']),
    s: r.pick([undefined, 'PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY']),
  };
  const group = 10 + r.int(200);
  return {
    what: `hyparquet-writer ${codec} ${JSON.stringify(enc)} row groups of ${group}`,
    write: (file, t) => writeHyparquet(file, t.map((c) => ({ ...c, encoding: enc[c.name] })),
      { codec, rowGroupSize: group, pageSize: 256 + r.int(8192), statistics: r.chance(0.5) }),
    rows: 50 + r.int(400),
  };
}

const cases = [];
for (let i = 0; i < 12; i++) cases.push(duckCase(i));
for (let i = 0; i < 14; i++) cases.push(wasmCase(i));
for (let i = 0; i < 8; i++) cases.push(hypCase(i));

let failed = 0;
for (const [i, c] of cases.entries()) {
  const t = table(c.rows);
  const file = join(tmp, `case${i}.parquet`);
  await c.write(file, t);
  let read = file;
  if (c.twin) {
    read = join(tmp, `case${i}.twin.parquet`);
    await c.twin(read, t);
  }
  const want = await duckdbDump(con, read);
  const batch = String(1 + r.int(300));
  let got;
  try {
    got = execFileSync(pqdump, ['-b', batch, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    got = `pqdump failed: ${e.stderr}`;
  }
  if (got !== want) {
    failed++;
    const g = got.split('\n');
    const w = want.split('\n');
    const k = g.findIndex((line, j) => line !== w[j]);
    console.log(`FAIL case ${i}: ${c.what}, batches of ${batch}: ${file}`);
    console.log(`  line ${k + 1}\n  pqdump: ${g[k]}\n  DuckDB: ${w[k]}`);
  }
}
console.log(`seed ${seed}: ${cases.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
