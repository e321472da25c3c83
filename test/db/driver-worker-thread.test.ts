import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { onPostgres, tempSqlitePath } from '../helpers/database.js';

const require = createRequire(import.meta.url);

/**
 * The checkpoint thread's pattern (`checkpointWorker` in src/db/database.ts): a worker thread with
 * its own connection prepares a statement per message. With better-sqlite3 12 compiled with Node
 * 24.19's or a later `node_object_wrap.h`, the garbage collection that frees those statements in
 * the worker aborts the process (`Assertion failed: (env) != nullptr`, docs/dependencies.md);
 * native/better-sqlite3.mjs compiles the addon without it. In a process of its own, as an abort
 * would end the test run.
 */
const script = `
const { Worker } = require('node:worker_threads');
const [driver, path] = process.argv.slice(1);
const Database = require(driver);
const db = new Database(path);
db.pragma('journal_mode = WAL');
db.exec('create table t (a integer)');
const worker = new Worker(\`
  const { parentPort, workerData } = require('node:worker_threads');
  const db = new (require(workerData.driver))(workerData.path, { fileMustExist: true });
  parentPort.on('message', (n) => {
    db.pragma('wal_checkpoint(PASSIVE)');
    if (n === 'last') parentPort.postMessage('done');
  });\`, { eval: true, workerData: { driver, path } });
const insert = db.prepare('insert into t values (?)');
let sent = 0;
const send = () => {
  for (let i = 0; i < 500; i++) {
    insert.run(sent);
    worker.postMessage(sent++);
  }
  if (sent < 20000) setImmediate(send);
  else worker.postMessage('last');
};
worker.on('message', async () => {
  await worker.terminate();
  db.close();
  console.log('checkpoints: ' + sent);
});
send();
`;

describe.skipIf(onPostgres())('the SQLite driver on a worker thread', () => {
  it('frees the statements a worker prepared without aborting the process', () => {
    const run = spawnSync(process.execPath, ['-e', script, require.resolve('better-sqlite3'), tempSqlitePath()], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({
      status: 0,
      signal: null,
      stderr: '',
    });
    expect(run.stdout.trim()).toBe('checkpoints: 20000');
  }, 150_000);
});
