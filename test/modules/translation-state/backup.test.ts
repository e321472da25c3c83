import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { apiClient, createWorkspace, setupApp, withFilter } from '../../helpers/app.js';
import { createItems, patchItems, post } from '../text-items/helpers.js';

const ctx = await setupApp();
const dir = mkdtempSync(join(tmpdir(), 'copydesk-states-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const databaseUrl = ctx.config.database.kind === 'sqlite' ? ctx.config.database.path : String(process.env.DATABASE_URL);

async function copydesk(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { DATABASE_URL: databaseUrl },
  });
  expect(err, argv.join(' ')).toEqual([]);
  expect(code).toBe(0);
  return out.join('\n');
}

const statesUrl = withFilter('textItems', { variants: [{ id: 'all' }] }, '&withTranslationState=true');

/** A key of the restored workspace: the backup's own key is the source's, which this database already holds. */
async function reader(workspaceId: number) {
  const email = `reader-${workspaceId}@example.com`;
  await ctx.services.accounts.createUser({ workspaceId, email, name: 'Reader', role: 'admin' });
  const { key } = await ctx.services.accounts.createKey({ workspaceId, email });
  return apiClient(ctx.app, key);
}

async function restore(file: string) {
  const { workspaceId } = JSON.parse(await copydesk('workspace', 'import', '--file', file, '--json'));
  return reader(workspaceId);
}

describe('translation states in a backup', () => {
  it('a restore keeps every state; a backup written before states existed restores as up to date', async () => {
    const ws = await createWorkspace(ctx);
    await post(ws, 'variants', { variants: [{ name: 'French', developerId: 'fr' }] });
    await post(ws, 'projects', { projects: [{ name: 'Web', developerId: 'web' }] });
    await createItems(ws, { projectId: 'web' }, [
      { developerId: 'a', text: 'A', variants: [{ variantId: 'fr', text: 'A fr' }] },
      { developerId: 'b', text: 'B', variants: [{ variantId: 'fr', text: 'B fr' }] },
      { developerId: 'c', text: 'C' },
    ]);
    await patchItems(ws, { updates: [{ developerId: 'a', text: 'A2' }] });
    const before = await ws.api.get(statesUrl);
    expect(before.body.filter((r: any) => r.variantId === null).map((r: any) => r.translationStates.fr)).toEqual([
      'outdated',
      'upToDate',
      'missing',
    ]);

    const file = join(dir, 'states.json.gz');
    await copydesk('workspace', 'export', '--workspace', String(ws.id), '--out', file);
    const copy = await restore(file);
    expect((await copy.get(statesUrl)).raw.body).toBe(before.raw.body);
    // Versions go on from where they were: a change of `b` after the restore outdates its value.
    const patched = await copy.patch('textItems', { updates: [{ developerId: 'b', text: 'B2' }] });
    expect(patched.status).toBe(200);
    const after = (await copy.get(statesUrl)).body;
    expect(after.find((r: any) => r.id === 'b' && r.variantId === null).translationStates).toEqual({ fr: 'outdated' });

    // The same file without the versions, as a backup from before they were kept.
    const lines = gunzipSync(readFileSync(file))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    for (const line of lines) if (line.table === 'texts' || line.table === 'textVariants') delete line.row.text_version;
    const old = join(dir, 'old.jsonl.gz');
    writeFileSync(old, gzipSync(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`));
    const oldCopy = await restore(old);
    const states = (await oldCopy.get(statesUrl)).body.map((r: any) => r.translationStates ?? r.translationState);
    expect(states).toEqual([{ fr: 'upToDate' }, 'upToDate', { fr: 'upToDate' }, 'upToDate', { fr: 'missing' }]);
  });
});
