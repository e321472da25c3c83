import { createHmac, randomUUID } from 'node:crypto';

/**
 * How a delivery is signed, exactly as the original product does it so that receivers written for
 * it keep working: the hex HMAC-SHA256 of `<request id>.<timestamp>.<body>` with the workspace's
 * signing key, where the body is `JSON.stringify(payload)`, byte for byte what is sent.
 */
export function signature(signingKey: string, requestId: string, timestamp: number, body: string): string {
  return createHmac('sha256', signingKey).update(`${requestId}.${timestamp}.${body}`).digest('hex');
}

export const USER_AGENT = 'copydesk-webhooks/1.0';

/** The headers of one attempt: a new request id and timestamp every time. */
export function signedHeaders(signingKey: string, body: string, now = Date.now()): Record<string, string> {
  const requestId = randomUUID();
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-ditto-request-id': requestId,
    'x-ditto-timestamp': String(now),
    'x-ditto-signature': signature(signingKey, requestId, now, body),
  };
}
