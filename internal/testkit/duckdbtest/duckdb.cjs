// Runs SQL statements in DuckDB, through its Node.js client, for the
// read-back tests of package resultdata: standard input holds a JSON array
// of statements; standard output gets a JSON array of their results, each
// {columns, types, rows}, values as DuckDB's JSON form gives them (BIGINT
// as strings). SCM_DUCKDB names the @duckdb/node-api package to use.
const { DuckDBInstance } = require(process.env.SCM_DUCKDB || '@duckdb/node-api');

async function main() {
  const statements = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const out = [];
  for (const sql of statements) {
    const r = await conn.runAndReadAll(sql);
    out.push({ columns: r.columnNames(), types: r.columnTypes().map(String), rows: r.getRowsJson() });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  process.stderr.write(String(e && e.message ? e.message : e) + '\n');
  process.exit(1);
});
