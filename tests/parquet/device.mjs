// Converts device profile JSON fixtures into Neuron Explorer device
// profile folders (FORMATS.md §1.5 field mapping, §1.5a layout), written
// by writers that are not nxtop's, into tests/fixtures/parquet-device/:
//   device_small@latest   from device_small.json, DuckDB, ZSTD
//   device_deps@latest    from device_deps.json, DuckDB, ZSTD (its
//     instructions' trigger as dma_trigger_start_ts, predecessors as Flow)
//   deps_badflow@latest   its instructions, and a Flow row without in_id
//   device_screen@latest  from device_screen.json, DuckDB, SNAPPY
//   collectives@latest    device_small@latest with a CcOp table, DuckDB
//   screen_split@latest   from device_screen.json, hyparquet-writer:
//     Instruction and DmaPacket split in parts, SbufUsage/PsumUsage and
//     the hlo_attrs column left out, engine names in lower case and
//     times as int32 in one part, a column and tables nxtop does not
//     know (one longer than the rows it keeps of them), a schema
//     version newer than nxtop's, and SchemaFields describing some
//     Instruction, DmaPacket and DmaPacketAggregated fields.
//   small_flops@latest    from device_small.json, DuckDB: the tensor
//     engine's size and clock in Metadata under their Parquet names, and
//     FLOPs on the instructions (see flops() below; tests/pqdevice.sh
//     recomputes them with jq).
// Run once after changing it:  cd tests/parquet && node device.mjs
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckdb, sqlTable, writeDuckdb, writeHyparquet } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'fixtures');
const out = join(fixtures, 'parquet-device');

// JSON with every integer of 16 digits or more kept exact, as a BigInt.
function parseExact(text) {
  const tagged = text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"__nxbig__$2"');
  return JSON.parse(tagged, (k, v) => (typeof v === 'string' && v.startsWith('__nxbig__')
    ? BigInt(v.slice(9)) : v));
}

const jsonText = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `__nxbig__${x}` : x))
  .replace(/"__nxbig__(-?\d+)"/g, '$1');

// Fields the schema gives as int64, which the JSON may give as strings.
const intFields = new Set([
  'start_ts', 'end_ts', 'duration_ns', 'timestamp', 'engine_idx', 'queue_idx',
  'id', 'pc', 'compiler_pc', 'evt_wait_time_ns', 'packet_idx',
  'packet_aggregation_id', 'transfer_bytes', 'read_bytes', 'write_bytes',
]);

const isIntText = (v) => typeof v === 'string' && /^-?\d+$/.test(v);

// A column's SQL type from its values.
function columnType(name, values) {
  const vals = values.filter((v) => v !== null && v !== undefined);
  if (!vals.length) return 'VARCHAR';
  const ints = vals.every((v) => typeof v === 'bigint' || Number.isInteger(v) ||
    (intFields.has(name) && isIntText(v)));
  if (ints) return vals.some((v) => BigInt(v) > 9223372036854775807n) ? 'UBIGINT' : 'BIGINT';
  if (vals.every((v) => typeof v === 'number' || typeof v === 'bigint')) return 'DOUBLE';
  if (vals.every((v) => typeof v === 'boolean')) return 'BOOLEAN';
  return 'VARCHAR';
}

function cell(v, type) {
  if (v === null || v === undefined) return null;
  if (type === 'BIGINT' || type === 'UBIGINT') return BigInt(v);
  if (type === 'DOUBLE') return Number(v);
  if (type === 'BOOLEAN') return v;
  if (typeof v === 'string') return v;
  return jsonText(v);
}

// Records as columns: [{ name, sql, data }], in first-seen field order.
function columns(records) {
  const names = [];
  for (const r of records) for (const k of Object.keys(r)) if (!names.includes(k)) names.push(k);
  return names.map((name) => {
    const raw = records.map((r) => r[name]);
    const sql = columnType(name, raw);
    return { name, sql, data: raw.map((v) => cell(v, sql)) };
  });
}

const renamed = (map) => (r) => Object.fromEntries(Object.entries(r)
  .filter(([k]) => map[k] !== null).map(([k, v]) => [map[k] ?? k, v]));

const instructionNames = {
  timestamp: 'start_ts', duration: 'duration_ns', subgroup: 'engine',
  label: 'timeline_track', evt_wait_time: 'evt_wait_time_ns',
  activation_fn: 'scalar_activation_fn',
};
const dmaNames = {
  timestamp: 'start_ts', duration: 'duration_ns', transfer_size: 'transfer_bytes',
  read_size: 'read_bytes', write_size: 'write_bytes', subgroup: 'queue_name',
  dma_queue: 'queue_idx', dma_engine: 'engine_idx', transfer_rate: 'throughput',
  aggregated: null, source_sb_partitions: 'read_sbuf_partitions',
  source_num_sb_partitions: 'read_num_sbuf_partitions', source_offset: 'read_offset',
  source_steps: 'read_steps', dest_sb_partitions: 'write_sbuf_partitions',
  dest_num_sb_partitions: 'write_num_sbuf_partitions', dest_offset: 'write_offset',
  dest_steps: 'write_steps',
};
const queueNames = {
  q_name: 'name', q_type: 'type', q_idx: 'idx', q_eng_idx: 'engine_idx',
  q_axi_port: 'axi_port', q_dram_channel: 'dram_channel', q_event_id: 'event_id',
};

const flat = (v) => (Array.isArray(v) ? v.map(flat).join(',') : String(v));

// JSON fields with no Parquet column (§1.5): predecessors go to Flow.
const jsonOnly = {
  elements: null, is_psum_read_sbuf_write: null, predecessors: null, trigger: null,
  duplicate: null, is_cc_dma: null,
};

function instruction(r) {
  const o = renamed({ ...jsonOnly, ...instructionNames })(r);
  if (o.start_ts !== undefined && o.duration_ns !== undefined) {
    o.end_ts = BigInt(o.start_ts) + BigInt(o.duration_ns);
  }
  return o;
}

function dma(r) {
  const agg = r.aggregated === 'yes';
  const o = renamed({ ...jsonOnly, ...dmaNames, trigger: agg ? 'trigger' : null })(r);
  if (agg) delete o.crc;
  for (const k of ['source', 'dest']) if (Array.isArray(o[k])) o[k] = `[${flat(o[k])}]`;
  if (o.start_ts !== undefined) o.end_ts = BigInt(o.start_ts) + BigInt(o.duration_ns);
  return o;
}

// The device JSON as Parquet tables: { Table: [records] }.
function tables(j) {
  const t = {};
  const add = (name, rows) => { if (rows && rows.length) t[name] = rows; };
  const meta = { ...(j.metadata?.[0] ?? {}) };
  meta.profile_schema_version = '12.0.1';
  if (j.profile_info?.[0]?.profile_name) meta.profile_name = j.profile_info[0].profile_name;
  if (j.model_info?.[0]?.nc_idx !== undefined) meta.neuroncore_idx = j.model_info[0].nc_idx;
  add('Metadata', [meta]);
  add('Instruction', j.instruction?.map(instruction));
  add('Flow', j.instruction?.flatMap((r) => (r.predecessors ?? []).map((p) => ({
    in_id: r.id, out_id: p.id, in_table: 'Instruction', out_table: 'Instruction',
    dependency_type: p.type,
  }))));
  add('DmaPacket', j.dma?.filter((r) => r.aggregated !== 'yes').map(dma));
  add('DmaPacketAggregated', j.dma?.filter((r) => r.aggregated === 'yes').map(dma));
  add('ActiveTime', j.active_time);
  add('SemaphoreUpdate', j.semaphore_update);
  add('PendingDma', j.pending_dma);
  add('Throttle', j.ham);
  add('DmaUsage', j.dma_throughput);
  const usage = (type) => j.instruction_usage?.filter((r) => r.type === type)
    .map(({ type: _, ...rest }) => rest);
  add('SbufUsage', usage('sb'));
  add('PsumUsage', usage('psum'));
  add('Warning', j.warnings);
  add('DmaQueuesInfo', j.dma_queues_info?.map(renamed(queueNames)));
  add('HbmUsageSummaryByType', j.nc_mem_usage);
  add('NeffHeader', j.neff_header);
  add('TensorInfo', j.neff_node);
  add('Summary', j.summary);
  const terms = Object.entries(j.terminology?.[0] ?? {});
  add('SchemaFields', terms.map(([field, description]) => ({
    table_name: 'Summary', field_name: field, type: 'float64', description, unit: '',
  })));
  return t;
}

const load = (name) => parseExact(readFileSync(join(fixtures, name), 'utf8'));

const con = await duckdb();
async function duckFolder(dir, t, options) {
  mkdirSync(dir, { recursive: true });
  for (const [name, rows] of Object.entries(t)) {
    await writeDuckdb(con, join(dir, `${name}.parquet`), sqlTable(columns(rows)), options);
  }
}

// Rows in n nearly equal parts.
const parts = (rows, n) => Array.from({ length: n },
  (_, i) => rows.slice(Math.floor((i * rows.length) / n), Math.floor(((i + 1) * rows.length) / n)));

const int32Fields = new Set(['start_ts', 'end_ts', 'duration_ns', 'pc', 'evt_wait_time_ns']);

function hypFolder(dir, t) {
  mkdirSync(dir, { recursive: true });
  // int64 columns whose values fit go as int32 in the second part
  const int32 = (c, part) => (part === 1 && c.sql === 'BIGINT' && int32Fields.has(c.name) &&
    c.data.every((v) => v === null || (v >= -(2n ** 31n) && v < 2n ** 31n))
    ? { ...c, sql: 'INTEGER', data: c.data.map((v) => (v === null ? null : Number(v))) } : c);
  const write = (file, rows, part = 0) => writeHyparquet(join(dir, file),
    columns(rows).map((c) => int32(c, part))
      .map((c) => (c.sql === 'BIGINT' ? { ...c, encoding: 'DELTA_BINARY_PACKED' } : c)),
    { codec: 'SNAPPY', rowGroupSize: 150 });
  for (const [name, rows] of Object.entries(t)) {
    if (name === 'Instruction') {
      parts(rows, 2).forEach((p, i) => write(`${name}_${i}.parquet`, p, i));
    } else if (name === 'DmaPacket') {
      parts(rows, 3).forEach((p, i) => write(`${name}_${i}.parquet`, p));
    } else {
      write(`${name}.parquet`, rows);
    }
  }
}

// FLOPs by a rule the test can redo from the JSON: a Tensor instruction
// did 2^15 per ns it ran, half of them transposes where its label is
// "Tensor" (none on "TensorMatrix"); the Vector one at 6000 ns did 100
// with no flops_transpose given (the layer's model FLOPs are unknown).
function flops(r) {
  const d = BigInt(r.duration_ns ?? 0);
  if (r.engine === 'Tensor') {
    const raw = 32768n * d;
    return { ...r, raw_flops: raw, flops_transpose: r.timeline_track === 'Tensor' ? raw / 2n : 0n };
  }
  if (r.engine === 'Vector' && BigInt(r.start_ts) === 6000n) return { ...r, raw_flops: 100n };
  return r;
}

rmSync(out, { recursive: true, force: true });
await duckFolder(join(out, 'device_small@latest'), tables(load('device_small.json')),
  'COMPRESSION zstd');
// Dependencies: the instruction's trigger as Parquet's column for it.
const deps = tables(load('device_deps.json'));
deps.Instruction = deps.Instruction.map((r, i) => {
  const t = load('device_deps.json').instruction[i].trigger;
  return t === undefined ? r : { ...r, dma_trigger_start_ts: t };
});
await duckFolder(join(out, 'device_deps@latest'), deps, 'COMPRESSION zstd');
// A Flow row without in_id: the table cannot be read.
await duckFolder(join(out, 'deps_badflow@latest'), {
  Instruction: deps.Instruction,
  Flow: [...deps.Flow, { ...deps.Flow[0], in_id: null }],
}, 'COMPRESSION zstd');
const screen = tables(load('device_screen.json'));
await duckFolder(join(out, 'device_screen@latest'), screen, 'COMPRESSION snappy');

// collectives@latest: device_small's tables and a CcOp table of three
// groups (operation, replica group): AllReduce in group 0 with one
// operation 3.1x its median, AllGather in group 0 close to its median,
// AllReduce in group 1 with one a quarter of its median.
const ccGroups = [
  ['AllReduce', 0n, [10000n, 10200n, 9800n, 10100n, 31000n]],
  ['AllGather', 0n, [5000n, 5100n, 4900n, 5050n]],
  ['AllReduce', 1n, [8000n, 8000n, 2000n]],
];
let ccAt = 100000n;
let ccId = 0n;
const ccOp = ccGroups.flatMap(([operation, group, durs]) => durs.map((d) => {
  const r = {
    start_ts: ccAt, end_ts: ccAt + d, duration_ns: d, operation, algorithm: 'Ring',
    num_elements: 4096n, dtype: 'bf16', op_id: ccId, stream_id: 0n, stream_index: ccId,
    trigger_engine: 'Pool', replica_group_id: group,
  };
  ccAt += 50000n;
  ccId += 1n;
  return r;
}));
await duckFolder(join(out, 'collectives@latest'),
  { ...tables(load('device_small.json')), CcOp: ccOp }, 'COMPRESSION zstd');

const split = { ...screen };
delete split.SbufUsage;
delete split.PsumUsage;
// the second part also names its engines in lower case
split.Instruction = screen.Instruction.map(({ hlo_attrs: _, ...r }, i) => (
  i >= screen.Instruction.length / 2 ? {
    ...r, future_field: `f${i}`, timeline_track: r.timeline_track?.toLowerCase(),
  } : r));
split.Metadata = [{ ...screen.Metadata[0], profile_schema_version: '13.0.0' }];
// (table, field, type, description, unit) as SchemaFields lists them
const schemaFields = [
  ['Instruction', 'start_ts', 'int64', 'Start of the instruction', 'ns'],
  ['Instruction', 'duration_ns', 'int64', 'Time the instruction ran', 'ns'],
  ['Instruction', 'opcode', 'string', 'Hardware opcode of the instruction', ''],
  ['Instruction', 'pc', 'int64', 'Program counter of the instruction', ''],
  ['Instruction', 'layer', 'string', 'Framework layer the instruction belongs to', ''],
  ['DmaPacket', 'transfer_bytes', 'int64', 'Bytes the packet moved', 'B'],
  ['DmaPacket', 'throughput', 'float64', 'Bytes per second of the packet', 'B/s'],
  ['DmaPacket', 'queue_name', 'string', 'DMA queue of the packet', ''],
  ['DmaPacketAggregated', 'transfer_bytes', 'int64', 'Bytes the transfer moved', 'B'],
];
split.SchemaFields = schemaFields.map(([table_name, field_name, type, description, unit]) => ({
  table_name, field_name, type, description, unit,
}));
split.FutureTable = [{ key: 'a', value: 1n }, { key: 'b', value: 2n }];
split.FutureLog = Array.from({ length: 10005 }, (_, i) => ({ seq: BigInt(i) }));
hypFolder(join(out, 'screen_split@latest'), split);

const small = tables(load('device_small.json'));
const { pe_num_rows: _r, pe_clock_freq: _f, ...meta } = small.Metadata[0];
await duckFolder(join(out, 'small_flops@latest'), {
  Metadata: [{
    ...meta, tensor_engine_num_rows: 128, tensor_engine_num_cols: 128,
    tensor_engine_clock_freq: 2.8,
  }],
  Instruction: small.Instruction.map(flops),
}, 'COMPRESSION zstd');
console.log(`wrote ${out}`);
