import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { setupApp } from '../helpers/app.js';

const ctx = await setupApp();
const DIST = resolve(import.meta.dirname, '../../web/dist');

describe('the web app at /', () => {
  it('serves index.html at / and for the app’s own paths, and its hashed assets', async () => {
    expect(existsSync(resolve(DIST, 'index.html')), 'run npm run build:web').toBe(true);
    for (const url of ['/', '/set-password']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const script = readdirSync(resolve(DIST, 'assets')).find((f) => f.endsWith('.js'));
    const asset = await ctx.app.inject({ method: 'GET', url: `/assets/${script}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('sends the build’s brotli and gzip copies of every asset, and index.html revalidated', async () => {
    const assets = readdirSync(resolve(DIST, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    expect(assets.length).toBeGreaterThan(1);
    for (const file of assets) {
      const original = readFileSync(resolve(DIST, 'assets', file));
      for (const [accept, coding, decode] of [
        ['br, gzip', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
      ] as const) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/assets/${file}`,
          headers: { 'accept-encoding': accept },
        });
        expect(res.statusCode, file).toBe(200);
        expect(res.headers['content-encoding'], `${file} ${accept}`).toBe(coding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(Number(res.headers['content-length'])).toBeLessThan(original.length);
        expect(decode(res.rawPayload).equals(original), file).toBe(true);
      }
      const plain = await ctx.app.inject({
        method: 'GET',
        url: `/assets/${file}`,
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(original)).toBe(true);
    }
    for (const url of ['/', '/project/web/text/cart-title', '/library/folder/shop', '/history']) {
      const page = await ctx.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'br' },
      });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root"></div>');
    }
  });

  it('keeps API paths and non-HTML requests as JSON 404s', async () => {
    for (const url of ['/v2/nothing-here', '/v1/nothing-here']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const json = await ctx.app.inject({ method: 'GET', url: '/somewhere', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json().code).toBe('not_found');
  });

  it('a browser opening a project link gets the app; a v0 client of the same path still gets its text', async () => {
    for (const url of ['/projects/shop', '/projects/shop/texts/greeting', '/projects/shop/blocks/header?status=WIP']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    }
    // The deprecated v0 read of /projects/:id needs its key: without HTML in Accept, never the app.
    const v0 = await ctx.app.inject({ method: 'GET', url: '/projects/shop', headers: { accept: 'application/json' } });
    expect(v0.statusCode).toBe(401);
    const keyed = await ctx.app.inject({
      method: 'GET',
      url: '/projects/shop',
      headers: { accept: 'text/html', authorization: 'cdk_not_a_key' },
    });
    expect(keyed.statusCode).toBe(401);
  });
});
