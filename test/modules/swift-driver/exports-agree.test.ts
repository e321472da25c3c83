import * as plist from 'plist';
import { describe, expect, it } from 'vitest';
import { decodeStrings } from '../../formats/strings-decoder.js';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { driver, seed, swiftFile } from './helpers.js';
import { accessorsOf, type SwiftAccessor } from './swift-grammar.js';

/**
 * The accessors and the exported files agree: for every accessor, in base text and in variant
 * `fr`, the key is in the `.strings` (or, for a plural key, the `.stringsdict`) file of its
 * table, and formatting that file's string with the arguments the accessor passes, in its order
 * and with its types (the plural count an Int, every variable a String), gives the stored text
 * with the values in place: no argument is missing, out of place or of the wrong type.
 */

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

/**
 * `String(format:)` as Foundation applies it to these files: `%N$@` takes an object (the Swift
 * String the accessor passes), `%N$lld` an integer (its Int plural count), `%%` is `%`; any other
 * specifier, a position without an argument, or an argument of the other type fails.
 */
function formatLike(format: string, args: readonly (string | number)[]): string {
  return format.replace(/%(?:(\d+)\$(@|lld)|%|.?)/gsu, (match, position?: string, conversion?: string) => {
    if (match === '%%') return '%';
    if (position === undefined) throw new Error(`specifier ${JSON.stringify(match)} in ${JSON.stringify(format)}`);
    const arg = args[Number(position) - 1];
    if (arg === undefined) throw new Error(`no argument for %${position}$ in ${JSON.stringify(format)}`);
    if (typeof arg !== (conversion === '@' ? 'string' : 'number')) {
      throw new Error(`%${position}$${conversion} given ${JSON.stringify(arg)} in ${JSON.stringify(format)}`);
    }
    return String(arg);
  });
}

type ApiRecord = {
  id: string;
  text: string;
  variantId: string | null;
  pluralForm: string | null;
  variableIds: string[];
};

const TABLES: Record<string, { kind: 'components' | 'textItems'; filter: object }> = {
  components: { kind: 'components', filter: { variants: [{ id: 'all' }] } },
  web: { kind: 'textItems', filter: { projects: [{ id: 'web' }], variants: [{ id: 'all' }] } },
  mobile: { kind: 'textItems', filter: { projects: [{ id: 'mobile' }], variants: [{ id: 'all' }] } },
};

async function exported(table: string, format: string, variant: string | null): Promise<string> {
  const { kind, filter } = TABLES[table]!;
  const params = new URLSearchParams({ format });
  if (kind === 'textItems') params.set('filter', JSON.stringify({ projects: (filter as any).projects }));
  if (variant) params.set('variantId', variant);
  const res = await ws.api.get(`${kind}/export?${params}`);
  expect(res.status, res.raw.body).toBe(200);
  return res.raw.body;
}

async function records(table: string): Promise<ApiRecord[]> {
  const { kind, filter } = TABLES[table]!;
  const res = await ws.api.get(`${kind}?filter=${encodeURIComponent(JSON.stringify(filter))}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The stored text with each listed variable's placeholder replaced by the value the app passes. */
function expected(record: ApiRecord, values: ReadonlyMap<string, string>): string {
  return record.text.replace(/\{\{ *([A-Za-z_][A-Za-z0-9_]*) *\}\}/g, (raw, name: string) =>
    record.variableIds.includes(name) && values.has(name) ? values.get(name)! : raw,
  );
}

/** What the app passes: the plural count, then a distinct string per variable parameter. */
function callOf(accessor: SwiftAccessor, count: number) {
  const params = accessor.parameters.slice(1);
  const plural = params[0]?.name === 'pluralCount';
  const variables = params.slice(plural ? 1 : 0);
  const strings = variables.map((p) => `«${p.name}»`);
  // The documentation names the variable behind each parameter.
  const variableOf = new Map(
    accessor.doc.flatMap((line) => {
      const match = /^ {2}- (\w+): The value of the \w+ variable `(\w+)`/.exec(line);
      return match ? [[match[1]!, match[2]!] as const] : [];
    }),
  );
  const values = new Map(variables.map((p, i) => [variableOf.get(p.name) ?? '?', strings[i]!]));
  if (plural) values.set('count', String(count));
  return { plural, args: plural ? [count, ...strings] : strings, values };
}

describe('Ditto.swift and the exported .strings/.stringsdict files agree', () => {
  it.each([null, 'fr'])('for every accessor, in variant %s', async (variant) => {
    const accessors = accessorsOf(swiftFile(await driver(ctx.app, '/v2/cli/swiftDriver', ws.key, {})));
    let checked = 0;
    for (const table of Object.keys(TABLES)) {
      const strings = decodeStrings(await exported(table, 'ios-strings', variant));
      const dict = plist.parse(await exported(table, 'ios-stringsdict', variant)) as Record<string, any>;
      const stored = (await records(table)).filter((r) => r.variantId === variant);
      for (const accessor of accessors.filter((a) => a.table === table)) {
        const record = (id: string) => stored.find((r) => r.id === id);
        if (!record(accessor.key)) continue; // no value in this variant: the file leaves the key out
        for (const count of [1, 5]) {
          const { plural, args, values } = callOf(accessor, count);
          if (plural && dict[accessor.key]) {
            const forms = dict[accessor.key].count as Record<string, string>;
            for (const [form, format] of Object.entries(forms)) {
              const source = record(`${accessor.key}_${form}`);
              if (!source) continue; // a category the exporter filled from `other`
              expect(formatLike(format, args), `${table}/${accessor.key} ${form}`).toBe(expected(source, values));
              checked++;
            }
            continue;
          }
          const value = strings.get(accessor.key)?.value;
          expect(value, `${table}/${accessor.key} in .strings`).toBeDefined();
          const text = accessor.formatArguments === null ? value : formatLike(value!, args);
          expect(text, `${table}/${accessor.key}`).toBe(expected(record(accessor.key)!, values));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(variant ? 5 : 30);
  });
});
