// Converts the system profile JSON fixture into a Neuron Explorer system
// profile folder (FORMATS.md §1.5 field mapping, §1.5a layout), written by
// DuckDB, into tests/fixtures/parquet-system/:
//   system_small@latest  from system_small.json: SystemProfileEvents (the
//     JSON's lnc_idx as nc_idx, its device_core_idx as pcore_idx, the
//     fields with no column of their own, its nc_idx among them, in
//     extra_attributes_json, worker_gid and pcore_idx as int32, two flows
//     in flow_id lists), DeviceProfileList,
//     CpuUsage, HostMemUsage, SystemProfileHbmUsage, Warning,
//     SystemProfileMetadata, and a table nxtop does not know.
//   sparse@latest        only SystemProfileEvents and CpuUsage, with few
//     columns: no flow_id, no extra_attributes_json, no NeuronCores; the
//     source the JSON importer infers written out; id, thread_id,
//     process_id and duration_ns as int32, util_percent as a float; a
//     column of each nxtop does not know.
//   bad_extra@latest     one event whose extra_attributes_json is not JSON.
// Its device profile, device_small.json, is already a folder:
// tests/fixtures/parquet-device/device_small@latest (device.mjs).
// Run once after changing it:  cd tests/parquet && node system.mjs
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckdb, sqlTable, writeDuckdb } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'fixtures');
const out = join(fixtures, 'parquet-system');

// JSON with every integer of 16 digits or more kept exact, as a BigInt.
function parseExact(text) {
  const tagged = text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"__nxbig__$2"');
  return JSON.parse(tagged, (k, v) => (typeof v === 'string' && v.startsWith('__nxbig__')
    ? BigInt(v.slice(9)) : v));
}

const jsonText = (v) => JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `__nxbig__${x}` : x))
  .replace(/"__nxbig__(-?\d+)"/g, '$1');

const big = (v) => (v === undefined || v === null ? null : BigInt(v));
const int = (v) => (v === undefined || v === null ? null : Number(v));
const num = (v) => (v === undefined || v === null ? null : Number(v));
const str = (v) => (v === undefined || v === null ? null : String(v));

// Columns of SystemProfileEvents; the other fields of an event go to
// extra_attributes_json.
const eventColumns = ['id', 'name', 'timestamp', 'duration', 'trace_event_source',
  'instance_id', 'process_id', 'thread_id', 'lnc_idx', 'device_core_idx', 'worker_gid'];

// Flows by event id: the JSON export has none.
const flows = {
  10: ['101'], 12: ['101'],
  3377699720529031: ['exec-2'], 3377699720529032: ['exec-2', '101'],
};

function event(e) {
  const extra = Object.fromEntries(Object.entries(e).filter(([k]) => !eventColumns.includes(k)));
  const ts = BigInt(e.timestamp);
  const dur = big(e.duration);
  return {
    id: big(e.id), name: e.name, start_ts: ts,
    end_ts: dur === null ? ts : ts + dur, duration_ns: dur,
    trace_event_source: str(e.trace_event_source), instance_id: str(e.instance_id),
    process_id: big(e.process_id), thread_id: big(e.thread_id), nc_idx: big(e.lnc_idx),
    pcore_idx: int(e.device_core_idx), worker_gid: int(e.worker_gid),
    flow_id: flows[String(e.id)] ?? (e.id === undefined ? null : []),
    extra_attributes_json: Object.keys(extra).length ? jsonText(extra) : null,
  };
}

const types = {
  id: 'BIGINT', start_ts: 'BIGINT', end_ts: 'BIGINT', duration_ns: 'BIGINT',
  process_id: 'BIGINT', thread_id: 'BIGINT', nc_idx: 'BIGINT', pcore_idx: 'INTEGER',
  worker_gid: 'INTEGER', flow_id: 'VARCHAR[]', timestamp: 'BIGINT', util_percent: 'DOUBLE',
  used_bytes: 'BIGINT', used_percent: 'DOUBLE', total_bytes: 'BIGINT',
  dram_spill_bytes: 'BIGINT', dma_rings_spill_bytes: 'BIGINT', device_idx: 'INTEGER',
  hbm_idx: 'INTEGER', nc_id: 'BIGINT', hbm_capacity_bytes: 'BIGINT',
  ntff_version: 'INTEGER', seq: 'BIGINT',
};

const sparseTypes = {
  ...types, id: 'INTEGER', thread_id: 'INTEGER', process_id: 'INTEGER',
  duration_ns: 'INTEGER', util_percent: 'FLOAT', future_seq: 'BIGINT',
};

// The source of an event without one, as nxtop's JSON importer infers it.
function inferSource(e) {
  if (e.trace_event_source) return e.trace_event_source;
  if ((e.group ?? '').startsWith('framework')) return 'framework';
  return ['nc_exec_running', 'hw_notify'].includes(e.name) ? 'neuron_hw' : 'neuron_rt';
}

function sparse(j) {
  return {
    SystemProfileEvents: j.trace_event.map((e, i) => ({
      id: big(e.id === undefined ? null : i), name: e.name, start_ts: BigInt(e.timestamp),
      duration_ns: big(e.duration), trace_event_source: inferSource(e),
      instance_id: e.instance_id, process_id: big(e.process_id),
      thread_id: big(e.thread_id), future_event_field: `f${i}`,
    })),
    CpuUsage: j.cpu_util.map((c, i) => ({
      timestamp: big(c.timestamp), util_percent: num(c.util), cpu_id: str(c.cpu_id),
      instance_id: c.instance_id, future_seq: BigInt(i),
    })),
  };
}

// Records as a DuckDB SELECT, columns typed by name (text otherwise).
function select(rows, typeOf) {
  const names = Object.keys(rows[0]);
  return sqlTable(names.map((name) => ({
    name, sql: typeOf[name] ?? 'VARCHAR', data: rows.map((r) => r[name] ?? null),
  })));
}

function tables(j) {
  return {
    SystemProfileEvents: j.trace_event.map(event),
    DeviceProfileList: j.device_profile_list.map((d) => ({
      nc_id: big(d.nc_id), device_profile_name: d.device_profile_name,
      instance_id: str(d.instance_id), process_id: big(d.process_id),
      model_id: str(d.model_id),
    })),
    CpuUsage: j.cpu_util.map((c) => ({
      timestamp: big(c.timestamp), util_percent: num(c.util), cpu_id: str(c.cpu_id),
      instance_id: c.instance_id,
    })),
    HostMemUsage: j.mem_usage.map((m) => ({
      timestamp: big(m.timestamp), used_bytes: big(m.usage), used_percent: num(m.percent_usage),
      instance_id: m.instance_id,
    })),
    SystemProfileHbmUsage: j.device_mem_usage.map((h) => ({
      timestamp: big(h.timestamp), total_bytes: big(h.total_bytes),
      dram_spill_bytes: big(h.dram_spill_bytes),
      dma_rings_spill_bytes: big(h.dma_rings_spill_bytes), device_idx: int(h.device_idx),
      hbm_idx: int(h.hbm_idx), instance_id: h.instance_id,
    })),
    Warning: j.warnings,
    SystemProfileMetadata: j.system_profile_metadata.map((m) => ({
      ...m, hbm_capacity_bytes: big(m.hbm_capacity_bytes),
    })),
    FutureSystemTable: [{ seq: 1n }, { seq: 2n }, { seq: 3n }],
  };
}

const con = await duckdb();
async function folder(dir, t, typeOf = types) {
  mkdirSync(dir, { recursive: true });
  for (const [name, rows] of Object.entries(t)) {
    await writeDuckdb(con, join(dir, `${name}.parquet`), select(rows, typeOf),
      'COMPRESSION zstd');
  }
}

const system = parseExact(readFileSync(join(fixtures, 'system_small.json'), 'utf8'));
rmSync(out, { recursive: true, force: true });
await folder(join(out, 'system_small@latest'), tables(system));
await folder(join(out, 'sparse@latest'), sparse(system), sparseTypes);
const bad = event(system.trace_event[0]);
await folder(join(out, 'bad_extra@latest'), {
  SystemProfileEvents: [{ ...bad, extra_attributes_json: '{"model_id": "1578' }],
});
console.log(`wrote ${out}`);
