import { ListSplitter, ListSyntaxError, NotAList, RecordTooLarge } from './json-list.js';

/**
 * The server a workspace is copied from, read through API v2 only. Any server that speaks the API
 * will do: what it does not offer (an endpoint answering 404) is left out and reported, never
 * guessed. The source is not trusted: every request has a time limit, every answer a size limit,
 * and the key goes to the `--from` origin only.
 */
export interface Source {
  /** `url` as given, normalised to end at the API's version prefix. */
  readonly base: string;
  get<T>(path: string, query?: Record<string, string>): Promise<T>;
  /** Like `get`, but `undefined` when the server does not have the endpoint (404 or 405). */
  optional<T>(path: string, query?: Record<string, string>): Promise<T | undefined>;
  /**
   * A list read as it arrives: each element is handed to `onElement` as soon as it is in, so the
   * answer is never held whole. The list is the answer, or its property `key`. `onElement` may
   * throw to refuse the answer; the request stops there.
   */
  list(
    path: string,
    query: Record<string, string> | undefined,
    key: string,
    onElement: (value: unknown, index: number, request: string) => void,
  ): Promise<void>;
  /** Stops the overall timer once the source has been read. */
  close(): void;
}

export class SourceError extends Error {}

/** Where reading stands, for progress: the request under way and what has arrived so far. */
export interface ReadingState {
  step: string;
  requests: number;
  bytes: number;
  records: number;
  /** Seconds since the last byte, while the source keeps the copy waiting. */
  waitingSeconds?: number;
}

export interface SourceOptions {
  /** The longest wait for a connection, the headers, or the next part of a body. */
  requestTimeoutMs: number;
  /** The longest the whole reading of the source may take. */
  overallTimeoutMs: number;
  /** The largest answer taken; a larger one is refused before it is held whole. */
  maxResponseBytes: number;
  /** Tries after a 429, a 503 or a connection reset (GETs are safe to repeat). */
  retries: number;
  /** `quiet`: a record of where reading stands, not worth a line of its own. */
  onProgress?: (state: ReadingState, quiet: boolean) => void;
  fetchImpl?: typeof fetch;
  /** The first wait before a retry; it doubles at each try. */
  backoffMs?: number;
}

/** The largest single record of a list read as a stream (a text with its rich text and notes). */
export const MAX_RECORD_BYTES = 16 * 2 ** 20;

export const SOURCE_DEFAULTS = {
  requestTimeoutSeconds: 30,
  timeoutSeconds: 3600,
  maxResponseMb: 96,
  retries: 3,
};

const MAX_REDIRECTS = 5;
const MAX_RETRY_AFTER_MS = 30_000;
const REPORT_EVERY_MS = 1_000;

export function apiBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SourceError(`--from: '${url}' is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SourceError(`--from: '${url}' is not an http or https URL`);
  }
  if (parsed.username || parsed.password) {
    throw new SourceError(`--from: '${url}' holds a user name or password; give the key with --key only`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  parsed.pathname = path.endsWith('/v2') ? path : `${path}/v2`;
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

/** A request's name in messages: method, path and query, cut short (filters can be long). */
function describe(url: URL): string {
  const shown = `GET ${url.pathname}${url.search ? decodeURIComponent(url.search) : ''}`;
  return shown.length > 200 ? `${shown.slice(0, 197)}...` : shown;
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function causeOf(error: unknown): { code?: string; message: string } {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown })?.code;
  return {
    code: typeof code === 'string' ? code : undefined,
    message: cause instanceof Error ? cause.message : String(cause),
  };
}

/** Why a request stopped: the overall timer, the request's own timer, or the network. */
class Stopped extends Error {
  constructor(
    readonly reason: 'overall' | 'request',
    message = reason,
  ) {
    super(message);
  }
}

export function createSource(url: string, key: string, options: SourceOptions): Source {
  const base = apiBase(url);
  const origin = new URL(base).origin;
  const fetchImpl = options.fetchImpl ?? fetch;
  const overall = new AbortController();
  const overallTimer = setTimeout(() => overall.abort(new Stopped('overall')), options.overallTimeoutMs);
  overallTimer.unref();
  const totals = { requests: 0, bytes: 0, records: 0 };
  const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

  const fail = (request: string, problem: string) => new SourceError(`source: ${request}: ${problem}`);
  const overallMessage = () =>
    `the copy did not finish reading the source within ${seconds(options.overallTimeoutMs)} (--timeout)`;

  /**
   * One exchange, with a timer that starts again at each sign of life: the connection, the
   * headers, each part of the body. A silent source fails after `requestTimeoutMs`; one that
   * trickles is stopped by the overall timer.
   */
  async function exchange(target: URL, request: string, sink?: (chunk: Uint8Array) => void) {
    const own = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let lastByte = Date.now();
    const arm = () => {
      clearTimeout(timer);
      lastByte = Date.now();
      timer = setTimeout(() => own.abort(new Stopped('request')), options.requestTimeoutMs);
    };
    // Progress while the source keeps the copy waiting, so a slow source is seen, not guessed.
    const ticker = setInterval(() => {
      const waited = Math.floor((Date.now() - lastByte) / 1000);
      options.onProgress?.({ step: request, ...totals, ...(waited >= 1 && { waitingSeconds: waited }) }, false);
    }, REPORT_EVERY_MS);
    const signal = AbortSignal.any([own.signal, overall.signal]);
    const stopped = () => {
      const reason = signal.reason instanceof Stopped ? signal.reason.reason : undefined;
      if (reason === 'overall') return fail(request, overallMessage());
      if (reason === 'request') {
        return fail(
          request,
          `no answer from ${origin} within ${seconds(options.requestTimeoutMs)} (--request-timeout)`,
        );
      }
      return undefined;
    };
    arm();
    try {
      let response: Response;
      try {
        response = await fetchImpl(target, {
          headers: { authorization: key, accept: 'application/json' },
          redirect: 'manual',
          signal,
        });
      } catch (error) {
        const timedOut = stopped();
        if (timedOut) throw timedOut;
        const cause = causeOf(error);
        throw Object.assign(fail(request, `could not reach ${origin}: ${cause.message}`), { code: cause.code });
      }
      arm();
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel().catch(() => undefined);
        return { response, body: undefined };
      }
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > options.maxResponseBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw fail(request, tooLarge(`${(declared / 2 ** 20).toFixed(1)} MiB`));
      }
      const chunks: Uint8Array[] = [];
      // A list's body goes to the sink as it arrives; an error answer is read whole (it is short).
      const streaming = sink !== undefined && response.status >= 200 && response.status < 300;
      let sinkError: unknown;
      let size = 0;
      let reported = Date.now();
      const reader = response.body?.getReader();
      try {
        while (reader) {
          const { done, value } = await reader.read();
          if (done) break;
          arm();
          size += value.byteLength;
          totals.bytes += value.byteLength;
          if (size > options.maxResponseBytes) {
            await reader.cancel().catch(() => undefined);
            throw fail(request, tooLarge(`more than ${options.maxResponseBytes / 2 ** 20} MiB`));
          }
          if (streaming) {
            try {
              sink(value);
            } catch (error) {
              sinkError = error;
              throw error;
            }
          } else chunks.push(value);
          if (Date.now() - reported >= REPORT_EVERY_MS) {
            reported = Date.now();
            options.onProgress?.({ step: request, ...totals }, false);
          }
        }
      } catch (error) {
        await reader?.cancel().catch(() => undefined);
        if (error instanceof SourceError || (sinkError !== undefined && error === sinkError)) throw error;
        const timedOut = stopped();
        if (timedOut) throw timedOut;
        const cause = causeOf(error);
        // Part of a list already went to the sink: it is not asked again (its elements are taken).
        const code = streaming && size > 0 ? undefined : cause.code;
        throw Object.assign(fail(request, `the answer broke off: ${cause.message}`), { code });
      }
      return { response, body: Buffer.concat(chunks, size) };
    } finally {
      clearTimeout(timer);
      clearInterval(ticker);
    }
  }

  const tooLarge = (size: string) =>
    `the answer is ${size}, larger than --max-response-mb ${options.maxResponseBytes / 2 ** 20}; ` +
    'refused before reading it whole';

  const wait = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        reject(new SourceError(`source: ${overallMessage()}`));
      };
      const timer = setTimeout(() => {
        overall.signal.removeEventListener('abort', stop);
        resolve();
      }, ms);
      overall.signal.addEventListener('abort', stop, { once: true });
    });

  async function request(
    path: string,
    query: Record<string, string> | undefined,
    allowMissing: boolean,
    list?: { key: string; onElement: (value: unknown, index: number, request: string) => void },
  ) {
    if (overall.signal.aborted) throw new SourceError(`source: ${overallMessage()}`);
    let target = new URL(`${base}/${path}`);
    for (const [name, value] of Object.entries(query ?? {})) target.searchParams.set(name, value);
    const request = describe(target);
    let redirects = 0;
    let tries = 0;
    for (;;) {
      let answer: Awaited<ReturnType<typeof exchange>>;
      let splitter: ListSplitter | undefined;
      if (list) {
        splitter = new ListSplitter(
          list.key,
          (value, index) => {
            totals.records += 1;
            list.onElement(value, index, request);
          },
          Math.min(MAX_RECORD_BYTES, options.maxResponseBytes),
        );
      }
      const sink =
        splitter &&
        ((chunk: Uint8Array) => guarded(request, list?.key ?? '', () => (splitter as ListSplitter).write(chunk)));
      try {
        answer = await exchange(target, request, sink);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code && RESET_CODES.has(code) && tries < options.retries) {
          await wait(backoff(tries++));
          continue;
        }
        throw error;
      }
      const { response, body } = answer;
      const status = response.status;
      if (status >= 300 && status < 400 && body === undefined && response.headers.has('location')) {
        // The key goes to the --from origin only: a redirect elsewhere is refused, not followed.
        const next = new URL(response.headers.get('location') as string, target);
        if (next.origin !== origin) {
          throw fail(
            request,
            `the source redirects to ${next.origin}, another origin; the key is sent only to ${origin} ` +
              '(give the other address as --from if it is the right server)',
          );
        }
        if (++redirects > MAX_REDIRECTS) throw fail(request, `more than ${MAX_REDIRECTS} redirects`);
        target = next;
        continue;
      }
      if ((status === 429 || status === 503) && tries < options.retries) {
        await wait(retryAfter(response) ?? backoff(tries));
        tries += 1;
        continue;
      }
      totals.requests += 1;
      if (allowMissing && (status === 404 || status === 405)) return undefined;
      const text = body === undefined ? '' : body.toString('utf8');
      if (splitter && status >= 200 && status < 300) {
        guarded(request, list?.key ?? '', () => (splitter as ListSplitter).end());
        options.onProgress?.({ step: request, ...totals }, true);
        return undefined;
      }
      if (status === 401 || status === 403) throw fail(request, `the source refused the key (${status})`);
      if (status < 200 || status >= 300) throw fail(request, `the source answered ${status} ${text.slice(0, 200)}`);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw fail(request, "the source's answer is not JSON");
      }
      if (Array.isArray(value)) totals.records += value.length;
      options.onProgress?.({ step: request, ...totals }, true);
      return value;
    }
  }

  /** A list's syntax errors as the copy names them, with the request. */
  const guarded = (request: string, key: string, work: () => void) => {
    try {
      work();
    } catch (error) {
      if (error instanceof NotAList) throw fail(request, `the answer is not a list of ${key}`);
      if (error instanceof RecordTooLarge) {
        const limit = Math.min(MAX_RECORD_BYTES, options.maxResponseBytes) / 2 ** 20;
        throw fail(request, `record ${error.index} of the answer is larger than ${limit} MiB; refused`);
      }
      if (error instanceof ListSyntaxError) throw fail(request, `the source's answer is not JSON (${error.message})`);
      throw error;
    }
  };

  const backoff = (tries: number) => (options.backoffMs ?? 500) * 2 ** tries;

  /** `Retry-After` in seconds, kept within reason: a source cannot park the copy for hours. */
  function retryAfter(response: Response): number | undefined {
    const value = Number(response.headers.get('retry-after'));
    return Number.isFinite(value) && value >= 0 ? Math.min(value * 1000, MAX_RETRY_AFTER_MS) : undefined;
  }

  return {
    base,
    get: async <T>(path: string, query?: Record<string, string>) => (await request(path, query, false)) as T,
    optional: async <T>(path: string, query?: Record<string, string>) =>
      (await request(path, query, true)) as T | undefined,
    list: async (path, query, key, onElement) => {
      await request(path, query, false, { key, onElement });
    },
    close: () => clearTimeout(overallTimer),
  };
}
