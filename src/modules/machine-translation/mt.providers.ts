import { createHash } from 'node:crypto';
import { type ProviderResponse, ProviderUnreachable, postJson } from './mt.http.js';

/**
 * The three kinds of provider, each as its documented API takes a request and gives an answer:
 * DeepL (`POST /v2/translate`, `tag_handling=xml`, a glossary through `POST /v2/glossaries`),
 * LibreTranslate (`POST /translate`, `format=html`) and any OpenAI-compatible chat-completions
 * server (`POST /v1/chat/completions`: Ollama, llama.cpp's server, vLLM, hosted ones). Each takes
 * texts already protected (mt.protect.ts) and answers the providers' fragments, in order.
 */

export const PROVIDER_KINDS = ['deepl', 'libretranslate', 'openai'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface ProviderSettings {
  /** Row id: the key of glossaries made for it. */
  id: number;
  kind: ProviderKind;
  url: string;
  model: string | null;
  apiKey: string | null;
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

/** What the team wrote down for the target language: the style guides in effect, as text. */
export interface TranslationGuidance {
  rules: { name: string; description: string; examples: { before: string; after: string }[] }[];
  terms: { preferred: string; replaces: string[]; note: string | null }[];
  /** Names to keep as they are (the base guides' proper nouns): a DeepL glossary's entries. */
  keep: string[];
}

export interface TranslationRequest {
  /** Language codes as BCP 47 tags: the workspace's base language and the variant's locale. */
  source: string;
  target: string;
  /** Protected fragments. */
  texts: string[];
  /** Per text, what the model is told beside it (the plural form, the text's notes). */
  hints: string[];
  guidance: TranslationGuidance;
}

/** Why a provider gave no usable answer, as the API reports it. */
export class ProviderFailure extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'rate_limited' | 'rejected' | 'invalid',
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The provider's own words for a failed request, a few hundred characters of them. */
function detailOf(response: ProviderResponse): string {
  try {
    const parsed = JSON.parse(response.body) as Record<string, unknown>;
    const error = parsed.error as { message?: string } | string | undefined;
    const said = typeof error === 'string' ? error : (error?.message ?? parsed.message ?? parsed.detail);
    if (typeof said === 'string') return said.slice(0, 300);
  } catch {
    // Not JSON: the text itself.
  }
  return response.body.slice(0, 300);
}

/** One call, with 429s waited out for their Retry-After (up to `maxWait` seconds, 3 tries). */
export async function callProvider(
  call: () => Promise<ProviderResponse>,
  options: { maxRetryAfterSeconds: number; what: string },
): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    let response: ProviderResponse;
    try {
      response = await call();
    } catch (error) {
      if (error instanceof ProviderUnreachable) {
        throw new ProviderFailure(
          error.timedOut ? 'timeout' : 'unreachable',
          `${options.what}: ${error.timedOut ? 'no answer in time' : 'cannot be reached'} (${error.message})`,
        );
      }
      throw error;
    }
    if (response.status === 429) {
      const wait = response.retryAfter ?? 1;
      if (attempt >= 3 || wait > options.maxRetryAfterSeconds) {
        throw new ProviderFailure('rate_limited', `${options.what} is rate limiting requests (429)`, wait);
      }
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      throw new ProviderFailure('rejected', `${options.what} answered ${response.status}: ${detailOf(response)}`);
    }
    try {
      return JSON.parse(response.body) as unknown;
    } catch {
      throw new ProviderFailure('invalid', `${options.what} answered something that is not JSON`);
    }
  }
}

/** `url` with `path` appended to its own path (a base URL may carry a prefix). */
export const endpoint = (url: string, path: string) => `${url.replace(/\/+$/, '')}${path}`;

/** DeepL's language codes: `EN-US`, `PT-BR`, `ZH-HANT`, else the primary language in capitals. */
export function deeplTarget(locale: string): string {
  const [language = '', ...rest] = locale.split(/[-_]/);
  const lang = language.toUpperCase();
  const region = rest.find((part) => part.length === 2)?.toUpperCase();
  const script = rest.find((part) => part.length === 4)?.toUpperCase();
  if (lang === 'EN') return region === 'GB' ? 'EN-GB' : 'EN-US';
  if (lang === 'PT') return region === 'BR' ? 'PT-BR' : 'PT-PT';
  if (lang === 'ZH') return script === 'HANT' || region === 'TW' || region === 'HK' ? 'ZH-HANT' : 'ZH-HANS';
  return lang;
}

export const deeplSource = (locale: string) => (locale.split(/[-_]/)[0] ?? '').toUpperCase();
/** LibreTranslate's codes: the primary language (`zh-Hant` keeps its script). */
export function libreLanguage(locale: string): string {
  const [language = '', ...rest] = locale.split(/[-_]/);
  const script = rest.find((part) => part.length === 4);
  return language.toLowerCase() === 'zh' && script?.toLowerCase() === 'hant' ? 'zh-Hant' : language.toLowerCase();
}

const languageName = (locale: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
};

/** The instructions an LLM gets: the task, the markup rules, the style guide and the terms. */
export function systemPrompt(request: Pick<TranslationRequest, 'source' | 'target' | 'guidance'>): string {
  const lines = [
    `You translate the user interface text of a software product from ${languageName(request.source)} (${request.source}) to ${languageName(request.target)} (${request.target}).`,
    'The text is an XML fragment. Keep every tag exactly as written:',
    '- <x id="N"></x> stands for a value inserted when the text is shown: never translate, drop or repeat it; move it where the grammar of the translation needs it.',
    '- <br/> is a line break: keep as many as the text has.',
    '- <strong>, <em>, <u>, <s>, <sup> and <sub> are formatting: keep them around the words that translate the words they surround.',
    'Answer with the translated fragment only: no quotes, no notes, no explanations.',
  ];
  const { rules, terms, keep } = request.guidance;
  if (rules.length > 0) {
    lines.push('', `Follow the team's style guide for ${request.target}:`);
    for (const rule of rules) {
      const examples = rule.examples.map((e) => ` (not "${e.before}" but "${e.after}")`).join('');
      lines.push(`- ${rule.name}${rule.description ? `: ${rule.description}` : ''}${examples}`);
    }
  }
  if (terms.length > 0) {
    lines.push('', 'Glossary: use the preferred term, never the ones it replaces.');
    for (const term of terms) {
      const replaces = term.replaces.length > 0 ? `, never ${term.replaces.map((r) => `"${r}"`).join(', ')}` : '';
      lines.push(`- "${term.preferred}"${replaces}${term.note ? ` (${term.note})` : ''}`);
    }
  }
  if (keep.length > 0) lines.push('', `Keep these names as they are: ${keep.map((k) => `"${k}"`).join(', ')}.`);
  return lines.join('\n');
}

/** A model's answer without what models wrap it in: reasoning, code fences, quotes. */
export function unwrapAnswer(content: string): string {
  let text = content.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fenced) text = (fenced[1] as string).trim();
  if (text.length >= 2 && /^["“«].*["”»]$/s.test(text)) text = text.slice(1, -1);
  return text;
}

/** DeepL glossaries this process made, by provider, languages and entries. */
const glossaries = new Map<string, Promise<string | null>>();

async function deeplGlossary(
  settings: ProviderSettings,
  request: TranslationRequest,
  send: (path: string, payload: unknown) => Promise<unknown>,
): Promise<string | null> {
  if (request.guidance.keep.length === 0) return null;
  const entries = request.guidance.keep.map((name) => `${name}\t${name}`).join('\n');
  const source = deeplSource(request.source);
  const target = deeplSource(request.target);
  const key = `${settings.id}:${settings.url}:${source}:${target}:${createHash('sha256').update(entries).digest('hex')}`;
  let made = glossaries.get(key);
  if (!made) {
    made = send('/v2/glossaries', {
      name: `copydesk ${source}-${target}`,
      source_lang: source,
      target_lang: target,
      entries,
      entries_format: 'tsv',
    }).then(
      (answer) => (answer as { glossary_id?: string }).glossary_id ?? null,
      // A language pair DeepL has no glossaries for: the texts go without one.
      (error) => (error instanceof ProviderFailure && error.reason === 'rejected' ? null : Promise.reject(error)),
    );
    glossaries.set(key, made);
    made.catch(() => glossaries.delete(key));
  }
  return made;
}

/** Translates `request.texts` through the provider; answers its fragments in the same order. */
export async function translateWith(
  settings: ProviderSettings,
  request: TranslationRequest,
  options: { maxRetryAfterSeconds: number; acquire: () => Promise<() => void> },
): Promise<string[]> {
  const what = `the ${settings.kind === 'openai' ? 'OpenAI-compatible' : settings.kind === 'deepl' ? 'DeepL' : 'LibreTranslate'} provider`;
  const headers: Record<string, string> = {};
  if (settings.apiKey !== null && settings.kind === 'deepl')
    headers.authorization = `DeepL-Auth-Key ${settings.apiKey}`;
  if (settings.apiKey !== null && settings.kind === 'openai') headers.authorization = `Bearer ${settings.apiKey}`;
  const send = async (path: string, payload: unknown) => {
    const release = await options.acquire();
    try {
      return await callProvider(
        () =>
          postJson(endpoint(settings.url, path), payload, {
            headers,
            allowPrivateNetworks: settings.allowPrivateNetworks,
            timeoutMs: settings.timeoutMs,
          }),
        { maxRetryAfterSeconds: options.maxRetryAfterSeconds, what },
      );
    } finally {
      release();
    }
  };
  const expectString = (value: unknown): string => {
    if (typeof value !== 'string') throw new ProviderFailure('invalid', `${what} answered no translation`);
    return value;
  };

  if (settings.kind === 'deepl') {
    const glossaryId = await deeplGlossary(settings, request, send);
    const answer = (await send('/v2/translate', {
      text: request.texts,
      source_lang: deeplSource(request.source),
      target_lang: deeplTarget(request.target),
      tag_handling: 'xml',
      ignore_tags: ['x'],
      ...(glossaryId !== null && { glossary_id: glossaryId }),
    })) as { translations?: { text?: unknown }[] };
    const translations = answer.translations ?? [];
    if (translations.length !== request.texts.length) {
      throw new ProviderFailure(
        'invalid',
        `${what} answered ${translations.length} translations for ${request.texts.length} texts`,
      );
    }
    return translations.map((t) => expectString(t.text));
  }

  if (settings.kind === 'libretranslate') {
    return Promise.all(
      request.texts.map(async (q) => {
        const answer = (await send('/translate', {
          q,
          source: libreLanguage(request.source),
          target: libreLanguage(request.target),
          format: 'html',
          ...(settings.apiKey !== null && { api_key: settings.apiKey }),
        })) as { translatedText?: unknown };
        return expectString(answer.translatedText);
      }),
    );
  }

  const system = systemPrompt(request);
  return Promise.all(
    request.texts.map(async (text, index) => {
      const hint = request.hints[index];
      const answer = (await send('/v1/chat/completions', {
        model: settings.model,
        temperature: 0,
        stream: false,
        messages: [
          { role: 'system', content: hint ? `${system}\n\n${hint}` : system },
          { role: 'user', content: text },
        ],
      })) as { choices?: { message?: { content?: unknown } }[] };
      return unwrapAnswer(expectString(answer.choices?.[0]?.message?.content));
    }),
  );
}
