import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { postTarget, refusedAddress } from '../webhooks/index.js';

/**
 * One JSON POST to a provider, under the webhooks' outbound-address policy: the host is resolved
 * here, every address it has is checked, and the connection goes to the checked address (so a
 * name cannot resolve to one address for the check and another for the connection). Loopback and
 * private addresses only when both the operator and the provider allow them. Redirects are not
 * followed; the answer is kept up to 4 MiB; the whole exchange has a deadline.
 */
const RESPONSE_BYTES = 4 * 1024 * 1024;

export interface ProviderResponse {
  status: number;
  /** `Retry-After` in seconds, when the provider sent one. */
  retryAfter: number | null;
  body: string;
}

/** The request never got an answer: refused address, network error, or the deadline. */
export class ProviderUnreachable extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }),
};

async function resolveChecked(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const addresses = isIP(literal)
    ? [{ address: literal, family: isIP(literal) }]
    : await lookup(literal, { all: true, verbatim: true });
  for (const { address } of addresses) {
    const refused = refusedAddress(address, allowPrivate);
    if (refused)
      throw new ProviderUnreachable(`refused address: ${refused.replace(/ \(set WEBHOOK_[^)]*\)/, '')}`, false);
  }
  const first = addresses[0];
  if (!first) throw new ProviderUnreachable(`${literal} resolves to no address`, false);
  return first;
}

/** Seconds of a `Retry-After` header (a number of seconds or an HTTP date). */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export async function postJson(
  rawUrl: string,
  payload: unknown,
  options: { headers: Record<string, string>; allowPrivateNetworks: boolean; timeoutMs: number },
): Promise<ProviderResponse> {
  const url = new URL(rawUrl);
  const body = JSON.stringify(payload);
  const deadline = Date.now() + options.timeoutMs;
  const target = await Promise.race([
    resolveChecked(url.hostname, options.allowPrivateNetworks),
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new ProviderUnreachable('timed out resolving the host', true)),
        options.timeoutMs,
      ).unref(),
    ),
  ]);
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    } else callback(null, target.address, target.family);
  };
  const protocol = url.protocol as 'http:' | 'https:';
  // A kept-alive socket that the provider closed while it was idle fails the next request sent on
  // it at once (ECONNRESET) before the provider read it: that request is sent once more, on a new
  // socket, as Node's documentation of `request.reusedSocket` advises.
  const attempt = (mayResend: boolean): Promise<ProviderResponse> =>
    new Promise<ProviderResponse>((resolve, reject) => {
      let settled = false;
      let responded = false;
      const fail = (error: ProviderUnreachable) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      };
      const request = (protocol === 'https:' ? https : http).request(
        {
          ...postTarget(url),
          headers: {
            ...options.headers,
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
          // The second attempt on a socket of its own, never another kept one.
          agent: mayResend ? agents[protocol] : false,
          lookup: pinned,
        },
        (response) => {
          responded = true;
          const chunks: Buffer[] = [];
          let kept = 0;
          response.on('data', (chunk: Buffer) => {
            kept += chunk.length;
            if (kept > RESPONSE_BYTES) {
              response.destroy();
              fail(new ProviderUnreachable('the answer is larger than 4 MiB', false));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: retryAfterSeconds(response.headers['retry-after']),
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          response.on('error', (error) => fail(new ProviderUnreachable(error.message, false)));
        },
      );
      const timer = setTimeout(
        () => {
          request.destroy();
          fail(new ProviderUnreachable(`no answer within ${options.timeoutMs} ms`, true));
        },
        Math.max(1, deadline - Date.now()),
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (
          mayResend &&
          !settled &&
          !responded &&
          request.reusedSocket &&
          error.code === 'ECONNRESET' &&
          Date.now() < deadline
        ) {
          settled = true;
          clearTimeout(timer);
          resolve(attempt(false));
          return;
        }
        fail(new ProviderUnreachable(error.message, false));
      });
      request.end(body);
    });
  return attempt(true);
}
