import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm install` (the root build) puts the web app's files. */
export const WEB_APP_DIR = resolve(import.meta.dirname, '../../web/dist');

/** API paths that must stay 404s (JSON) rather than fall back to the app's page. */
const API_PREFIXES = ['/v2/', '/v1/', '/docs', '/healthz', '/readyz', '/token-check'];

/**
 * The URL to route a request by: a browser's navigation (HTML accepted, no API key) to one of the
 * app's project places (`/projects/<id>…`, paths the deprecated v0 API also reads) is routed to
 * `/`, so the app loads there; a v0 client (no HTML, or a key) keeps its path.
 */
export function appNavigationUrl(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const app =
    request.method === 'GET' &&
    url.startsWith('/projects/') &&
    !request.headers.authorization &&
    (request.headers.accept ?? '').includes('text/html');
  return app ? '/' : url;
}

/**
 * The writers' web app at `/`: its built files, and `index.html` for every other GET that is not
 * an API path, so the app's own paths (`/set-password`) load it. Its hashed assets are cached
 * for a year; `index.html` is revalidated so a new build is picked up at once. Files go out
 * brotli- or gzip-compressed when the client accepts it, from the copies made at build.
 */
export async function registerWebApp(app: FastifyInstance, dir = WEB_APP_DIR): Promise<void> {
  if (!existsSync(resolve(dir, 'index.html'))) {
    app.log.warn({ dir }, 'the web app is not built (npm run build:web): / answers 404');
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    // The build wrote each asset's .br and .gz beside it: sent as they are to a client that takes them.
    preCompressed: true,
    setHeaders: (res, path) => {
      const hashed = path.includes('/assets/');
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.header('x-content-type-options', 'nosniff');
      if (!hashed)
        res.header(
          'content-security-policy',
          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        );
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const api = API_PREFIXES.some((p) => request.url.startsWith(p));
    if (api || !request.headers.accept?.includes('text/html')) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
