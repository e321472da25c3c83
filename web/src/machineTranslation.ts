/** Machine translation as the API answers it (docs/machine-translation.md). */

export interface Provider {
  id: string;
  name: string;
  kind: 'deepl' | 'libretranslate' | 'openai';
  url: string;
  model: string | null;
  apiKey: { configured: boolean; lastFour: string | null; readable: boolean };
  privateNetwork: boolean;
  requestsPerMinute: number;
  concurrency: number;
  timeoutMs: number;
}

export interface TranslationResult {
  provider: string;
  model: string | null;
  text: string | null;
  plurals: { form: string; text: string }[] | null;
  richText: boolean;
  characterLimit: number | null;
  characters: number;
  overLimit: boolean;
  landedAs: 'suggestion' | 'wip' | 'none';
  suggestionId: string | null;
}

export interface TranslationJob {
  id: string;
  providerId: string | null;
  variantId: string | null;
  projectId: string | null;
  folderId: string | null;
  state: 'queued' | 'running' | 'done' | 'canceled' | 'failed';
  total: number;
  done: number;
  failed: number;
  skipped: number;
  pending: number;
  overLimit: number;
  error: string | null;
}

export const KIND_NAMES: Record<Provider['kind'], string> = {
  deepl: 'DeepL',
  libretranslate: 'LibreTranslate',
  openai: 'OpenAI-compatible',
};

export const providerLabel = (p: Provider) => `${p.name} (${KIND_NAMES[p.kind]}${p.model ? `, ${p.model}` : ''})`;

export const isRunning = (job: TranslationJob) => job.state === 'queued' || job.state === 'running';
