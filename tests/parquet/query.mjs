// Runs SQL queries in DuckDB, one a line on stdin, and prints each
// one's rows, a line a row, values separated by tabs, for shell tests.
import { readFileSync } from 'node:fs';
import { duckdb } from './lib.mjs';

const con = await duckdb();
for (const sql of readFileSync(0, 'utf8').split('\n')) {
  if (!sql.trim()) continue;
  const res = await con.runAndReadAll(sql);
  for (const row of res.getRowsJS()) process.stdout.write(`${row.map(String).join('\t')}\n`);
}
