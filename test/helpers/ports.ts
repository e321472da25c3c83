import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago: the kernel's to hand out again until someone listens on it. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts a server on a free port, and on another when `taken` says the start failed because the
 * port was in use: between `freePort()` and the listen, the kernel can hand the port out as the
 * local end of any outgoing connection (to PostgreSQL, say, of which a run opens hundreds). Up to
 * five ports.
 */
export async function onFreePort<T>(
  start: (port: number) => Promise<T>,
  taken: (error: unknown) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (!taken(error) || attempt === 5) throw error;
    }
  }
}
