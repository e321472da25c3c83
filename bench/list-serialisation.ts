/**
 * What sending GET /components' records through their response schema would cost, against the
 * bytes the reader already wrote: `npx tsx bench/list-serialisation.ts [records]`. The records are
 * built in memory (a base text with two variant values and a plural form each), so the figure is
 * the serialiser's alone, without the database.
 */
import fastJson from 'fast-json-stringify';
import { Type } from 'typebox';
import { ComponentRecord } from '../src/modules/components/components.schemas.js';

const count = Number(process.argv[2] ?? 66_672);
const records = Array.from({ length: count }, (_, i) => ({
  id: `component-${String(i).padStart(6, '0')}`,
  name: `Component ${i}`,
  text: `The text of component ${i}, with {{count}} and some words to make it a usual length.`,
  status: 'NONE',
  notes: i % 3 === 0 ? 'A note for the translators.' : '',
  tags: i % 2 === 0 ? ['onboarding', 'mobile'] : [],
  variableIds: i % 2 === 0 ? ['count'] : [],
  folderId: null,
  variantId: i % 3 === 0 ? null : 'fr',
  assignee: null,
  characterLimit: null,
  integrated: false,
  pluralForm: null,
}));
const viaSchema = fastJson(Type.Array(ComponentRecord) as never);
// The reader's path: each record's JSON written once and kept, a request joins the kept bytes.
const kept = records.map((r) => Buffer.from(JSON.stringify(r)));
const joined = () => {
  const parts: Buffer[] = [Buffer.from('[')];
  kept.forEach((b, i) => {
    if (i > 0) parts.push(Buffer.from(','));
    parts.push(b);
  });
  parts.push(Buffer.from(']'));
  return Buffer.concat(parts);
};

function time(name: string, run: () => unknown): void {
  run();
  const runs = 10;
  const started = process.hrtime.bigint();
  let size = 0;
  for (let i = 0; i < runs; i += 1) size = Buffer.byteLength(run() as string | Buffer);
  const ms = Number(process.hrtime.bigint() - started) / 1e6 / runs;
  console.log(`${name.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms  ${(size / 1024 / 1024).toFixed(1)} MiB`);
}

console.log(`${count} records`);
time('response schema (fast-json-stringify)', () => viaSchema(records));
time('JSON.stringify', () => JSON.stringify(records));
time('kept bytes joined (the route today)', joined);
