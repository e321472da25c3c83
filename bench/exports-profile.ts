/**
 * A first export in process, for profiling the export path without HTTP: opens a SQLite file
 * (one `bench:exports` seeded), renders an export of every text item per format through the
 * exports service and prints its CPU time, and the main thread's alone (the difference is V8
 * compiling on threads of its own, which a process's first export pays). Run:
 * `npx tsx bench/exports-profile.ts <sqlite file> <workspace id> <format,...> [rounds]`
 * (`node --cpu-prof --import tsx ...` to profile).
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { loadConfig, parseDatabaseUrl } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { servicesFor } from '../src/services.js';

const [file, workspace, formats, roundsArg] = process.argv.slice(2);
if (!file || !workspace || !formats)
  throw new Error('usage: exports-profile.ts <sqlite file> <workspace id> <formats> [rounds]');
const rounds = Number(roundsArg ?? 3);
const config = loadConfig({ ...process.env, DATABASE_URL: file });
const database = openDatabase(parseDatabaseUrl(file));
const services = servicesFor(config, database);
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
/**
 * CPU time of the main thread alone (Linux, 10 ms ticks; NaN elsewhere): the rest of the process's
 * is V8's optimising compiler and the collector's helpers, on threads of their own.
 */
const mainThreadCpu = () => {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
};
for (const format of formats.split(',')) {
  const times: string[] = [];
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    const start = cpu();
    const startMain = mainThreadCpu();
    const file = await services.exports.exportTexts(
      'textItems',
      Number(workspace),
      { format: format as never },
      config.limits.filterIds,
    );
    bytes = 0;
    if (file.body instanceof Readable) for await (const chunk of file.body) bytes += (chunk as Buffer).length;
    else bytes = file.body.length;
    times.push(`${Math.round(cpu() - start)} (main thread ${mainThreadCpu() - startMain})`);
  }
  console.log(`${format}: CPU ${times.join(', ')} ms, ${bytes} bytes`);
}
await database.close();
