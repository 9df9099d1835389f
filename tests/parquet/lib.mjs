// Shared by gen.mjs and diff.mjs: the three writers, and DuckDB reading
// a file back in pqdump's canonical text form (see tests/pqdump.c).
import { writeFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import * as arrow from 'apache-arrow';
import * as pqwasm from 'parquet-wasm/node';
import { parquetWriteBuffer } from 'hyparquet-writer';

// A deterministic generator (xorshift64*), for reproducible tables.
export function rng(seed) {
  let s = BigInt.asUintN(64, BigInt(seed) * 0x9e3779b97f4a7c15n + 1n);
  const next64 = () => {
    s ^= s >> 12n; s ^= BigInt.asUintN(64, s << 25n); s ^= s >> 27n;
    return BigInt.asUintN(64, s * 0x2545f4914f6cdd1dn);
  };
  const r = {
    u64: next64,
    i64: () => BigInt.asIntN(64, next64()),
    float: () => Number(next64() >> 11n) / 2 ** 53,
    int: (n) => Number(next64() % BigInt(n)),
    pick: (a) => a[r.int(a.length)],
    chance: (p) => r.float() < p,
  };
  return r;
}

// The exact decimal digits of a finite a > 0: a = 0.d1d2... shifted so
// that d1 stands at 10^e10.
function exactDigits(a) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const bits = view.getBigUint64(0);
  let exp = Number((bits >> 52n) & 0x7ffn);
  let man = bits & ((1n << 52n) - 1n);
  if (exp === 0) exp = 1; else man |= 1n << 52n;
  exp -= 1075;
  const d = exp >= 0 ? man << BigInt(exp) : man * 5n ** BigInt(-exp);
  const s = d.toString();
  return { s: s.replace(/0+$/, ''), e10: s.length - 1 - (exp >= 0 ? 0 : -exp) };
}

// p significant digits, rounded half to even as C's printf does.
function roundTo({ s, e10 }, p) {
  if (s.length <= p) return { d: s.padEnd(p, '0'), e10 };
  let head = s.slice(0, p);
  const rest = s.slice(p);
  const odd = Number(head[p - 1]) % 2 === 1;
  if (rest[0] > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || odd))) {
    head = String(BigInt(head) + 1n);
    if (head.length > p) return { d: head.slice(0, p), e10: e10 + 1 };
  }
  return { d: head, e10 };
}

// Doubles as C's "%.*e" with the fewest digits that read back the same
// (what tests/pqdump.c prints).
export function fmtDouble(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const a = Math.abs(x);
  const exact = a === 0 ? { s: '0', e10: 0 } : exactDigits(a);
  for (let p = 1; ; p++) {
    const { d, e10 } = roundTo(exact, p);
    const str = `${d[0]}${p > 1 ? `.${d.slice(1)}` : ''}e${e10 < 0 ? '-' : '+'}${String(Math.abs(e10)).padStart(2, '0')}`;
    if (Number(str) === a || p === 17) return sign + str;
  }
}

export function fmtBytes(u8) {
  let s = '"';
  for (const c of u8) {
    s += c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c
      ? `\\x${c.toString(16).padStart(2, '0')}` : String.fromCharCode(c);
  }
  return `${s}"`;
}

function fmtValue(v, type) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return fmtBytes(Buffer.from(v, 'utf8'));
  if (typeof v === 'number') {
    return type === 'DOUBLE' || type === 'FLOAT' ? fmtDouble(v) : String(v);
  }
  if (v.items) {
    const inner = type.replace(/\[\]$/, '');
    return `[${v.items.map((x) => fmtValue(x, inner)).join(', ')}]`;
  }
  if (v.bytes) return fmtBytes(v.bytes);
  throw new Error(`no canonical form for ${type} value ${v}`);
}

let instance;
export async function duckdb() {
  instance ??= await DuckDBInstance.create(':memory:', { threads: '1' });
  return instance.connect();
}

const quote = (s) => `'${s.replaceAll("'", "''")}'`;

// What DuckDB reads in file, as pqdump prints it.
export async function duckdbDump(con, file) {
  const meta = await con.runAndReadAll(
    `SELECT path_in_schema FROM parquet_metadata(${quote(file)})
     WHERE row_group_id = 0 ORDER BY column_id`);
  const paths = meta.getRowsJS().map((r) => r[0].replaceAll(', ', '.'));
  const res = await con.runAndReadAll(`SELECT * FROM read_parquet(${quote(file)})`);
  const types = [];
  for (let i = 0; i < res.columnCount; i++) types.push(res.columnType(i).toString());
  const lines = [paths.join('\t')];
  for (const row of res.getRows()) lines.push(row.map((v, i) => fmtValue(v, types[i])).join('\t'));
  return `${lines.join('\n')}\n`;
}

// What the pages of file use, by DuckDB: codecs and encodings.
export async function duckdbCodecs(con, file) {
  const res = await con.runAndReadAll(
    `SELECT DISTINCT compression, encodings FROM parquet_metadata(${quote(file)})`);
  const codecs = new Set();
  const encodings = new Set();
  for (const [c, e] of res.getRowsJS()) {
    codecs.add(c);
    for (const x of e.split(', ')) encodings.add(x);
  }
  return { codecs: [...codecs].sort(), encodings: [...encodings].sort() };
}

// DuckDB: a table from SQL, copied out with COPY options.
export async function writeDuckdb(con, file, select, options) {
  await con.run(`COPY (${select}) TO ${quote(file)} (FORMAT parquet, ${options})`);
}

export function sqlValue(v, type) {
  if (v === null) return `NULL::${type}`;
  if (Array.isArray(v)) {
    const inner = type.replace(/\[\]$/, '');
    return `[${v.map((x) => sqlValue(x, inner)).join(', ')}]::${type}`;
  }
  if (typeof v === 'string') return `${quote(v)}::${type}`;
  if (typeof v === 'number' && !Number.isFinite(v)) {
    return `'${Number.isNaN(v) ? 'nan' : v < 0 ? '-inf' : 'inf'}'::${type}`;
  }
  if (Object.is(v, -0)) return `'-0.0'::${type}`;
  if (typeof v === 'number' && (type === 'DOUBLE' || type === 'FLOAT')) {
    return `CAST(${v.toExponential()} AS ${type})`;
  }
  return `CAST(${v} AS ${type})`;
}

// columns: [{ name, sql: 'BIGINT', data: [...] }] as a SELECT.
export function sqlTable(columns) {
  const n = columns[0].data.length;
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(`(${columns.map((c) => sqlValue(c.data[i], c.sql)).join(', ')})`);
  }
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  return `SELECT * FROM (VALUES ${rows.join(',\n')}) t(${names})`;
}

const arrowTypes = {
  BIGINT: () => new arrow.Int64(),
  INTEGER: () => new arrow.Int32(),
  DOUBLE: () => new arrow.Float64(),
  FLOAT: () => new arrow.Float32(),
  BOOLEAN: () => new arrow.Bool(),
  VARCHAR: () => new arrow.Utf8(),
  'VARCHAR[]': () => new arrow.List(new arrow.Field('element', new arrow.Utf8(), true)),
  'BIGINT[]': () => new arrow.List(new arrow.Field('element', new arrow.Int64(), true)),
};

// parquet-wasm (the Rust parquet crate) through an Arrow table.
export function writeArrow(file, columns, configure) {
  const vectors = {};
  for (const c of columns) vectors[c.name] = arrow.vectorFromArray(c.data, arrowTypes[c.sql]());
  const ipc = arrow.tableToIPC(new arrow.Table(vectors), 'stream');
  let props = new pqwasm.WriterPropertiesBuilder();
  props = configure(props, pqwasm);
  writeFileSync(file, pqwasm.writeParquet(pqwasm.Table.fromIPCStream(ipc), props.build()));
}

const hyTypes = {
  BIGINT: 'INT64', INTEGER: 'INT32', DOUBLE: 'DOUBLE', FLOAT: 'FLOAT',
  BOOLEAN: 'BOOLEAN', VARCHAR: 'STRING',
};

function hySchema(columns) {
  const schema = [{ name: 'root', num_children: columns.length }];
  for (const c of columns) {
    if (c.sql.endsWith('[]')) {
      const inner = hyTypes[c.sql.slice(0, -2)];
      schema.push({ name: c.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 });
      schema.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      schema.push({
        name: 'element', repetition_type: 'OPTIONAL',
        type: inner === 'STRING' ? 'BYTE_ARRAY' : inner,
        ...(inner === 'STRING' ? { converted_type: 'UTF8' } : {}),
      });
    } else {
      const t = hyTypes[c.sql];
      schema.push({
        name: c.name, repetition_type: 'OPTIONAL',
        type: t === 'STRING' ? 'BYTE_ARRAY' : t,
        ...(t === 'STRING' ? { converted_type: 'UTF8' } : {}),
      });
    }
  }
  return schema;
}

export const hyCompressors = {
  GZIP: (b) => new Uint8Array(zlib.gzipSync(b)),
  BROTLI: (b) => new Uint8Array(zlib.brotliCompressSync(b)),
};

// hyparquet-writer: pages V2, an encoding per column (c.encoding).
export function writeHyparquet(file, columns, options) {
  const columnData = columns.map((c) => ({
    name: c.name,
    data: c.data,
    ...(c.encoding ? { encoding: c.encoding } : {}),
  }));
  const buf = parquetWriteBuffer({
    columnData, schema: hySchema(columns), compressors: hyCompressors, ...options,
  });
  writeFileSync(file, new Uint8Array(buf));
}
