/**
 * A first export in process, for profiling the export path without HTTP: opens a SQLite file
 * (one `bench:exports` seeded), renders an export of every text item per format through the
 * exports service and prints its CPU time, then the floor's in the same process. Run:
 * `npx tsx bench/exports-profile.ts <sqlite file> <workspace id> <format,...> [rounds]`
 * (`node --cpu-prof --import tsx ...` to profile).
 */
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
for (const format of formats.split(',')) {
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    const start = cpu();
    const file = await services.exports.exportTexts(
      'textItems',
      Number(workspace),
      0,
      { format: format as never },
      config.limits.filterIds,
    );
    bytes = 0;
    if (file.body instanceof Readable) for await (const chunk of file.body) bytes += (chunk as Buffer).length;
    else bytes = file.body.length;
    times.push(Math.round(cpu() - start));
  }
  console.log(`${format}: CPU ${times.join(', ')} ms, ${bytes} bytes`);
}
await database.close();
