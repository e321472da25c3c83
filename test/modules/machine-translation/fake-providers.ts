import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One local HTTP server that answers as the three providers' documented APIs do: DeepL's
 * `POST /v2/translate` (JSON, `DeepL-Auth-Key` header, `tag_handling`) and `POST /v2/glossaries`,
 * LibreTranslate's `POST /translate` (`format=html`) and an OpenAI-compatible
 * `POST /v1/chat/completions`. Its "translation" is deterministic: the target language in brackets,
 * then the text nodes upper-cased, tags left as they came, so a test can tell what was translated
 * and that markup survived. What it does next can be set: fail, rate limit, hang, drop a
 * placeholder, answer too long a text.
 */

export type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'rateLimit'; retryAfter: string }
  | { kind: 'hang' }
  | { kind: 'dropPlaceholder' }
  | { kind: 'long' }
  /** Answers as `ok` does, after `ms`. */
  | { kind: 'delay'; ms: number };

export interface Recorded {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  at: number;
}

export const fakeTranslation = (fragment: string, target: string) =>
  `[${target}] ${fragment
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : part.toUpperCase()))
    .join('')}`;

export interface FakeProvider {
  url: string;
  requests: Recorded[];
  /** Behaviours for the next translation requests, in order; then `ok`. */
  next(...behaviours: Behaviour[]): void;
  /** Every translation request from now on. */
  always(behaviour: Behaviour | null): void;
  /**
   * Forgets behaviours not used yet and ends the requests held by `hang`: a test whose request
   * never reached the fake (a client that gave up first, on a loaded machine) leaves nothing for
   * the next one.
   */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProvider(options: { deeplKey?: string } = {}): Promise<FakeProvider> {
  const requests: Recorded[] = [];
  const queue: Behaviour[] = [];
  let standing: Behaviour | null = null;
  const hanging: ServerResponse[] = [];
  let glossaries = 0;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  /** The next behaviour, taken once per request. */
  const take = (): Behaviour => queue.shift() ?? standing ?? { kind: 'ok' };

  /** The fragment as this behaviour answers it, or false when the response was sent already. */
  function answer(res: ServerResponse, fragment: string, target: string, behaviour: Behaviour): string | false {
    switch (behaviour.kind) {
      case 'status':
        send(res, behaviour.status, behaviour.body);
        return false;
      case 'rateLimit':
        send(res, 429, { message: 'Too many requests' }, { 'retry-after': behaviour.retryAfter });
        return false;
      case 'hang':
        hanging.push(res);
        return false;
      case 'dropPlaceholder':
        return fakeTranslation(fragment, target).replace(/<x id="\d+"><\/x>/, '');
      case 'long':
        return fakeTranslation(`${fragment} ${fragment} ${fragment}`, target);
      default:
        // `ok`, and `delay` once its wait is over.
        return fakeTranslation(fragment, target);
    }
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const behaviour = take();
      if (behaviour.kind === 'delay') setTimeout(() => handle(behaviour), behaviour.ms);
      else handle(behaviour);
    });
    const handle = (behaviour: Behaviour) => {
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, { message: 'body is not JSON' });
      }
      const path = req.url ?? '';
      requests.push({ path, headers: req.headers, body, at: Date.now() });
      if (req.method !== 'POST') return send(res, 405, { message: 'POST only' });

      if (path === '/v2/glossaries') {
        if (typeof body.entries !== 'string' || body.entries_format !== 'tsv') {
          return send(res, 400, { message: "Value for 'entries' not supported." });
        }
        glossaries += 1;
        return send(res, 201, {
          glossary_id: `gl-${glossaries}`,
          name: body.name,
          ready: true,
          source_lang: String(body.source_lang).toLowerCase(),
          target_lang: String(body.target_lang).toLowerCase(),
          entry_count: body.entries.split('\n').length,
        });
      }
      if (path === '/v2/translate') {
        if (options.deeplKey && req.headers.authorization !== `DeepL-Auth-Key ${options.deeplKey}`) {
          return send(res, 403, { message: 'Wrong endpoint. Use https://api.deepl.com' });
        }
        if (!Array.isArray(body.text) || typeof body.target_lang !== 'string') {
          return send(res, 400, { message: "Parameter 'text' not specified." });
        }
        if (body.tag_handling !== 'xml' && body.tag_handling !== 'html') {
          return send(res, 400, { message: 'This test server expects tag_handling' });
        }
        const texts: string[] = [];
        for (const text of body.text) {
          const out = answer(res, text, body.target_lang, behaviour);
          if (out === false) return;
          texts.push(out);
        }
        return send(res, 200, {
          translations: texts.map((text) => ({ detected_source_language: 'EN', text })),
        });
      }
      if (path === '/translate') {
        if (typeof body.q !== 'string' || typeof body.target !== 'string') {
          return send(res, 400, { error: 'Invalid request: missing q parameter' });
        }
        if (body.format !== 'html') return send(res, 400, { error: 'This test server expects format=html' });
        const out = answer(res, body.q, body.target, behaviour);
        if (out === false) return;
        return send(res, 200, { translatedText: out });
      }
      if (path === '/v1/chat/completions') {
        const user = [...(body.messages ?? [])].reverse().find((m: any) => m.role === 'user');
        if (typeof body.model !== 'string' || !user) {
          return send(res, 400, {
            error: { message: 'model and messages are required', type: 'invalid_request_error' },
          });
        }
        const target = /to .* \(([^)]+)\)\./.exec(body.messages[0].content)?.[1] ?? '??';
        const out = answer(res, user.content, target, behaviour);
        if (out === false) return;
        return send(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: out }, finish_reason: 'stop' }],
        });
      }
      send(res, 404, { message: 'not found' });
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    next: (...behaviours) => {
      queue.push(...behaviours);
    },
    always: (behaviour) => {
      standing = behaviour;
    },
    reset: () => {
      queue.length = 0;
      standing = null;
      for (const res of hanging.splice(0)) res.destroy();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
