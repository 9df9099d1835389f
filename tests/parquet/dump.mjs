// Prints what DuckDB reads in each Parquet file given, in pqdump's
// canonical text form (lib.mjs duckdbDump), for shell tests:
//   node dump.mjs FILE...
import { duckdb, duckdbDump } from './lib.mjs';

const con = await duckdb();
for (const file of process.argv.slice(2)) {
  process.stdout.write(await duckdbDump(con, file));
}
