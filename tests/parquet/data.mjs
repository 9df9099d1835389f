// Tables for the fixtures and the differential test: every type the
// reader widens, with nulls, extremes and awkward strings.
export const MAX64 = 2n ** 63n - 1n;
export const MIN64 = -(2n ** 63n);

const specialI64 = [0n, -1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, MAX64, MIN64, 1729888371056597613n];
const specialI32 = [0, -1, 2147483647, -2147483648];
const specialF64 = [-0, NaN, Infinity, -Infinity, 5e-324, 1.7976931348623157e308, 0.1, -2.5];
export const strings = [
  '', 'Tensor', 'Grüße', '日本語', 'emoji 🚀', 'tab\there', 'quote " and \\',
  'line\nbreak', 'x'.repeat(300),
];

function withNulls(r, p, make) {
  return () => (r.chance(p) ? null : make());
}

function series(n, specials, make) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(i < specials.length ? specials[i] : make());
  return out;
}

function word(r) {
  const len = r.int(12);
  let s = '';
  for (let i = 0; i < len; i++) s += String.fromCharCode(97 + r.int(26));
  return s;
}

// The mixed table: one column of every kind. nulls: share of nulls.
export function mixed(r, n, nulls = 0.1) {
  const nul = (make) => withNulls(r, nulls, make);
  return [
    { name: 'id', sql: 'BIGINT', data: series(n, specialI64, nul(() => r.i64())) },
    { name: 'n', sql: 'INTEGER', data: series(n, specialI32, nul(() => Number(BigInt.asIntN(32, r.u64())))) },
    { name: 'd', sql: 'DOUBLE', data: series(n, specialF64, nul(() => (r.float() - 0.5) * 10 ** r.int(12))) },
    { name: 'f', sql: 'FLOAT', data: series(n, [], nul(() => Math.fround((r.float() - 0.5) * 1000))) },
    { name: 'b', sql: 'BOOLEAN', data: series(n, [], nul(() => r.chance(0.5))) },
    { name: 's', sql: 'VARCHAR', data: series(n, strings, nul(() => (r.chance(0.3) ? r.pick(strings) : word(r)))) },
    {
      name: 'flow_id', sql: 'VARCHAR[]',
      data: series(n, [null, [], [null], ['a', 'b']], nul(() => {
        const k = r.int(4);
        const l = [];
        for (let i = 0; i < k; i++) l.push(r.chance(0.1) ? null : word(r));
        return l;
      })),
    },
  ];
}

// Instruction-like rows: sorted timestamps, a few distinct names (the
// dictionary case), program counters in sequence.
export function instructions(r, n) {
  const engines = ['Tensor', 'Vector', 'Scalar', 'GpSimd', 'Sync'];
  const start = [];
  let t = 1729888371056597613n;
  for (let i = 0; i < n; i++) {
    t += BigInt(r.int(1000));
    start.push(t);
  }
  return [
    { name: 'start_ts', sql: 'BIGINT', data: start },
    { name: 'engine', sql: 'VARCHAR', data: start.map(() => r.pick(engines)) },
    { name: 'pc', sql: 'INTEGER', data: start.map((_, i) => i * 4) },
  ];
}
