/**
 * The floor of an export (bench:exports prints it beside the server's figures): the least work
 * any server must do for the same file. It reads the same rows as a base-text export of every
 * text item (the texts in developer-ID order with their plural forms and notes, and their listed
 * variables) straight from the SQLite file with better-sqlite3, writes a minimal file of the
 * format (one regular-expression pass for placeholders and one for escaping per text), and
 * gzips it as the server does for a client that takes gzip. Run alone:
 * `npx tsx bench/exports-floor.ts <sqlite file> <workspace id> <format>`; prints one JSON line
 * with this process's CPU time and wall time, for reading and writing, and for gzip.
 */
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';

interface Row {
  id: number;
  developer_id: string;
  text: string;
  plurals: string | null;
  notes: string;
}

const [file, workspace, format] = process.argv.slice(2);
if (!file || !workspace || !format) throw new Error('usage: exports-floor.ts <sqlite file> <workspace id> <format>');

const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const json = (value: string) => JSON.stringify(value);
const xml = (text: string) => text.replace(/[&<>"'\\\n]/g, (c) => `&#${c.charCodeAt(0)};`);
const quoted = (text: string) => text.replace(/["\\\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/** `{{name}}` to the format's placeholder, numbered in the order met where the format numbers them. */
function placeholders(text: string, to: (name: string, index: number) => string): string {
  let index = 0;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => to(name, ++index));
}

function entry(row: Row, variables: readonly string[]): string {
  const plurals = row.plurals ? (JSON.parse(row.plurals) as { form: string; text: string }[]) : [];
  const vars = (style: (name: string, index: number) => string) => (text: string) => placeholders(text, style);
  switch (format) {
    case 'json_i18next': {
      let out = `,\n  ${json(row.developer_id)}: ${json(row.text)}`;
      for (const p of plurals) out += `,\n  ${json(`${row.developer_id}_${p.form}`)}: ${json(p.text)}`;
      return out;
    }
    case 'json_icu':
    case 'arb':
    case 'json_vue_i18n': {
      const icu = vars((name) => `{${name}}`);
      const message =
        plurals.length === 0
          ? icu(row.text)
          : format === 'json_vue_i18n'
            ? plurals.map((p) => icu(p.text)).join(' | ')
            : `{count, plural, ${plurals.map((p) => `${p.form} {${icu(p.text)}}`).join(' ')}}`;
      let out = `,\n  ${json(row.developer_id)}: ${json(message)}`;
      if (format === 'arb') {
        const holders = variables.map((name) => `"${name}": {"type": "String"}`).join(', ');
        out += `,\n  ${json(`@${row.developer_id}`)}: {"placeholders": {${holders}}}`;
      }
      return out;
    }
    case 'ios-strings':
      return `\n\n"${quoted(row.developer_id)}" = "${quoted(vars((_, i) => `%${i}$@`)(row.text))}";`;
    case 'ios-stringsdict': {
      if (plurals.length === 0) return '';
      const forms = plurals.map(
        (p) => `<key>${p.form}</key><string>${xml(vars((_, i) => `%${i + 1}$@`)(p.text))}</string>`,
      );
      return `<key>${xml(row.developer_id)}</key><dict><key>NSStringLocalizedFormatKey</key><string>%1$#@count@</string><key>count</key><dict>${forms.join('')}</dict></dict>\n`;
    }
    case 'android': {
      const name = row.developer_id.replace(/[^A-Za-z0-9_.]/g, '_');
      const value = (text: string) => xml(vars((_, i) => `%${i}$s`)(text));
      let out = `  <string name="${name}">${value(row.text)}</string>\n`;
      if (plurals.length > 0) {
        out += `  <plurals name="${name}">${plurals.map((p) => `<item quantity="${p.form}">${value(p.text)}</item>`).join('')}</plurals>\n`;
      }
      return out;
    }
    default:
      throw new Error(`unknown format ${format}`);
  }
}

const startCpu = cpu();
const started = performance.now();
const db = new Database(file, { readonly: true, fileMustExist: true });
const texts = db.prepare(
  `select id, developer_id, text, plurals, notes from texts
   where workspace_id = ? and kind = 'text_item' and developer_id > ? order by developer_id limit 1000`,
);
const listed = db.prepare(
  `select tv.text_id, v.name from text_variables tv join variables v on v.id = tv.variable_id
   where tv.text_id in (select value from json_each(?))`,
);
let out = '';
const parts: Buffer[] = [];
let after = '';
for (;;) {
  const rows = texts.all(Number(workspace), after) as Row[];
  if (rows.length === 0) break;
  const names = new Map<number, string[]>();
  for (const { text_id, name } of listed.all(JSON.stringify(rows.map((row) => row.id))) as {
    text_id: number;
    name: string;
  }[]) {
    const list = names.get(text_id);
    if (list) list.push(name);
    else names.set(text_id, [name]);
  }
  for (const row of rows) out += entry(row, names.get(row.id) ?? []);
  parts.push(Buffer.from(out));
  out = '';
  after = (rows[rows.length - 1] as Row).developer_id;
}
db.close();
const body = Buffer.concat(parts);
const written = { cpu: cpu() - startCpu, ms: performance.now() - started };
const gzipped = gzipSync(body);
console.log(
  JSON.stringify({
    bytes: body.length,
    gzipBytes: gzipped.length,
    cpuMs: Math.round(cpu() - startCpu),
    ms: Math.round(performance.now() - started),
    writeCpuMs: Math.round(written.cpu),
    writeMs: Math.round(written.ms),
  }),
);
