// For bench/parquet.sh: writes an Instruction-like table with DuckDB
// (ZSTD), or reads every column of a file with DuckDB on one thread.
//   node bench.mjs write FILE ROWS
//   node bench.mjs read FILE      (prints the seconds the query took)
import { DuckDBInstance } from '@duckdb/node-api';

const [cmd, file, rows] = process.argv.slice(2);
const quote = (s) => `'${s.replaceAll("'", "''")}'`;

// The columns of FORMATS 1.5 Instruction that an import reads.
const instruction = (n) => `
  SELECT 1729888371056597613 + i * 37 AS start_ts,
         1729888371056597613 + i * 37 + 5 + (i * 7919) % 300 AS end_ts,
         5 + (i * 7919) % 300 AS duration_ns,
         ['Tensor', 'Vector', 'Scalar', 'GpSimd', 'Sync'][1 + i % 5] AS engine,
         'qTensor' || (i % 4) AS timeline_track,
         (i % 8)::BIGINT AS pcore_idx,
         'OPCODE_' || ((i * 31) % 60) AS opcode,
         'src=sb[' || (i % 128) || '] dst=psum[' || ((i * 3) % 8) || ']' AS operands,
         (hash(i)::HUGEINT - 9223372036854775808)::BIGINT AS id,
         (i * 4) % 1048576 AS pc,
         'bir_' || ((i * 13) % 5000) AS bir_id,
         'hlo.' || ((i * 17) % 2000) || '.fusion' AS hlo_name,
         'layer_' || ((i // 1000) % 96) AS layer,
         CASE WHEN i % 10 = 0 THEN (i * 11) % 5000 END AS evt_wait_time_ns,
         (i * 64) % 65536 AS hbm_read_bytes,
         CASE WHEN i % 3 = 0 THEN '2x' END AS performance_mode
  FROM range(${n}) t(i)`;

const db = await DuckDBInstance.create(':memory:', { threads: cmd === 'read' ? '1' : '2' });
const con = await db.connect();
if (cmd === 'write') {
  await con.run(`COPY (${instruction(Number(rows))}) TO ${quote(file)}
                 (FORMAT parquet, COMPRESSION zstd)`);
} else {
  // every column, every value: sums of numbers and of string lengths
  const cols = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${quote(file)})`))
    .getRowsJS().map(([name, type]) => (type === 'VARCHAR' ? `sum(length("${name}"))` : `sum("${name}")`));
  const t0 = process.hrtime.bigint();
  await con.runAndReadAll(`SELECT count(*), ${cols.join(', ')} FROM read_parquet(${quote(file)})`);
  console.log(Number(process.hrtime.bigint() - t0) / 1e9);
}
