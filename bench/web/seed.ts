import { performance } from 'node:perf_hooks';
import type { BenchServer } from '../lib.js';

export const PROJECT = 'big';
export const WRITER_PASSWORD = 'bench writer password';

/** The number in a seeded text, zero-padded so that the developer IDs sort as the texts were made. */
export const pad = (n: number) => String(n).padStart(6, '0');
const WORDS = (
  'account basket billing cancel change checkout choose confirm continue delivery discount download email error ' +
  'favourite filter free gift help invoice item language later loading login message month name notice offer ' +
  'order password payment picture plan points price privacy profile receipt refund remove return review save ' +
  'search secure settings share shipping sign size sorry start store subscribe support today total track try ' +
  'update upload voucher wallet welcome wishlist your'
).split(' ');
/**
 * The seeded text of row `n`: its number (the bench finds rows by it), then 6 to 13 words picked
 * by a fixed pseudo-random sequence, so that the texts compress about as well as a product's do.
 */
export const textOf = (n: number) => {
  let state = (n * 2_654_435_761) >>> 0;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    return state >>> 8;
  };
  const words = Array.from({ length: 6 + (next() % 8) }, () => WORDS[next() % WORDS.length]);
  return `Text number ${pad(n)} ${words.join(' ')}.`;
};

/**
 * One project of `size` text items through `POST /v2/textItems`, 1,000 a request: a third with
 * plural forms, a variant value on every fourth. Answers the seconds it took.
 */
export async function seedProject(call: BenchServer['call'], size: number): Promise<number> {
  const started = performance.now();
  await call('POST', 'variants', { variants: [{ name: 'French', developerId: 'fr', localeCode: 'fr' }] });
  await call('POST', 'projects', { projects: [{ name: 'Big', developerId: PROJECT }] });
  for (let from = 0; from < size; from += 1_000) {
    const textItems = Array.from({ length: Math.min(1_000, size - from) }, (_, i) => {
      const n = from + i;
      return {
        developerId: `item-${pad(n)}`,
        text: textOf(n),
        ...(n % 3 === 0 && {
          plurals: [
            { form: 'one', text: textOf(n) },
            { form: 'other', text: `Texts ${pad(n)}` },
          ],
        }),
        ...(n % 4 === 0 && { variants: [{ variantId: 'fr', text: `Texte ${pad(n)}` }] }),
      };
    });
    await call('POST', 'textItems', { projectId: PROJECT, textItems });
  }
  return (performance.now() - started) / 1000;
}

/**
 * Waits until the server has indexed what was seeded: a search of the list (which brings the
 * search index up to date first) and a lookup in the translation memory (which works off its
 * queue first). Answers the seconds it took.
 */
export async function settle(call: BenchServer['call']): Promise<number> {
  const started = performance.now();
  await (await call('GET', `textItems/rows?projectId=${PROJECT}&q=number&limit=1`)).arrayBuffer();
  await (await call('GET', `translationMemory?variantId=fr&text=${encodeURIComponent(textOf(1))}`)).arrayBuffer();
  return (performance.now() - started) / 1000;
}

/** The writer who signs in to the app (an editor): another user than the bench key's, whose edits are "another person's". */
export async function createWriter(call: BenchServer['call'], base: string): Promise<string> {
  // Each run's own address: several sizes on one PostgreSQL database are several workspaces, and
  // signing in by an address two of them share would be ambiguous.
  const email = `bench-writer-${Date.now()}@example.com`;
  const users = await call('POST', 'users', { email, role: 'editor' });
  const { passwordLink } = (await users.json()) as { passwordLink: string };
  const token = new URL(passwordLink).hash.slice('#token='.length);
  const res = await fetch(`${base}/v2/session/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: WRITER_PASSWORD }),
  });
  if (!res.ok) throw new Error(`setting the writer's password: ${res.status} ${await res.text()}`);
  return email;
}
