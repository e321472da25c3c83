import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { postTarget, refusedAddress } from './webhooks.address.js';

/**
 * One POST of a signed body. The host is resolved here, every address it has is checked, and the
 * connection goes to the checked address (the request's `lookup` answers it), so a name cannot
 * resolve to one address for the check and another for the connection. Redirects are not followed
 * (a 3xx is an answer like any other non-2xx); the receiver's answer is kept to a few KiB.
 */
export const SEND_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_BYTES = 4096;

export interface SendResult {
  statusCode: number | null;
  /** Why nothing or no 2xx came back: a network error, a timeout, a refused address, or the status. */
  error: string | null;
  ok: boolean;
  durationMs: number;
  responseBody: string | null;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

async function resolveChecked(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const addresses = isIP(literal)
    ? [{ address: literal, family: isIP(literal) }]
    : await lookup(literal, { all: true, verbatim: true });
  for (const { address } of addresses) {
    const refused = refusedAddress(address, allowPrivate);
    if (refused) throw new Error(`refused address: ${refused}`);
  }
  const first = addresses[0];
  if (!first) throw new Error(`${literal} resolves to no address`);
  return first;
}

export async function postSigned(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivateNetworks: boolean; timeoutMs?: number },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const url = new URL(rawUrl);
  let target: { address: string; family: number };
  try {
    target = await resolveChecked(url.hostname, options.allowPrivateNetworks);
  } catch (error) {
    return { statusCode: null, error: (error as Error).message, ok: false, durationMs: elapsed(), responseBody: null };
  }
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    } else callback(null, target.address, target.family);
  };
  const protocol = url.protocol as 'http:' | 'https:';
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = (protocol === 'https:' ? https : http).request(
      {
        ...postTarget(url),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: agents[protocol],
        lookup: pinned,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const ok = status >= 200 && status < 300;
          const text = Buffer.concat(chunks).toString('utf8');
          finish({ statusCode: status, error: ok ? null : `HTTP ${status}`, ok, responseBody: text });
        };
        response.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_BODY_BYTES) return;
          chunks.push(chunk.subarray(0, RESPONSE_BODY_BYTES - kept));
          kept += Math.min(chunk.length, RESPONSE_BODY_BYTES - kept);
          // Enough kept: the rest is not read, and the connection is not reused.
          if (kept >= RESPONSE_BODY_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', (error) =>
          finish({ statusCode: status, error: error.message, ok: false, responseBody: null }),
        );
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, error: error.message, ok: false, responseBody: null }));
    request.end(body);
  });
}
