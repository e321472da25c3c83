// Creates or drops a PostgreSQL database for a CI run: node .ci/pg-database.mjs create|drop NAME
import pg from 'pg';

const [action, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !/^[a-z0-9_]+$/.test(name ?? '')) {
  console.error('usage: node .ci/pg-database.mjs create|drop NAME');
  process.exit(2);
}
const admin = new pg.Client({
  connectionString: process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
});
await admin.connect();
try {
  // Identifiers cannot be bound parameters; the name was checked against [a-z0-9_] above.
  if (action === 'create') await admin.query(`create database "${name}"`);
  else await admin.query(`drop database if exists "${name}" with (force)`);
} finally {
  await admin.end();
}
