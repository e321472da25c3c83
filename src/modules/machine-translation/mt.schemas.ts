import { type Static, Type } from 'typebox';
import { DeveloperId, Nullable } from '../../http/schemas.js';
import { PROVIDER_KINDS } from './mt.providers.js';

const Kind = Type.Enum([...PROVIDER_KINDS], {
  description: '`deepl` (DeepL API), `libretranslate`, or `openai` (any OpenAI-compatible /v1/chat/completions server)',
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'The base URL (`https://api-free.deepl.com`, `http://translate.internal:5000`, `http://127.0.0.1:11434`): copydesk appends `/v2/translate`, `/translate` or `/v1/chat/completions` and sends nowhere else',
});
const Model = Type.String({ minLength: 1, maxLength: 200, description: 'The model (required for `openai`)' });
const ApiKey = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'The credential; stored sealed with COPYDESK_SECRET and never answered back',
});
const PrivateNetwork = Type.Boolean({
  description:
    'Allow a loopback or private address (a self-hosted server); the operator must also set MT_ALLOW_PRIVATE_NETWORKS=true',
});
const Rpm = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests started per minute (default 60)' });
const Concurrency = Type.Integer({ minimum: 1, maximum: 64, description: 'Requests at once (default 2)' });
const Timeout = Type.Integer({
  minimum: 100,
  maximum: 600_000,
  description: 'Milliseconds per request (default 30,000)',
});

export const CreateProviderBody = Type.Object(
  {
    developerId: Type.Optional(DeveloperId),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Kind,
    url: Url,
    model: Type.Optional(Model),
    apiKey: Type.Optional(ApiKey),
    privateNetwork: Type.Optional(PrivateNetwork),
    requestsPerMinute: Type.Optional(Rpm),
    concurrency: Type.Optional(Concurrency),
    timeoutMs: Type.Optional(Timeout),
  },
  { additionalProperties: false },
);

export const UpdateProviderBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    url: Type.Optional(Url),
    model: Type.Optional(Nullable(Model)),
    apiKey: Type.Optional(Nullable({ ...ApiKey, description: 'A new credential, or null to remove it' })),
    privateNetwork: Type.Optional(PrivateNetwork),
    requestsPerMinute: Type.Optional(Rpm),
    concurrency: Type.Optional(Concurrency),
    timeoutMs: Type.Optional(Timeout),
  },
  { additionalProperties: false },
);

export const ProviderRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Kind,
  url: Type.String(),
  model: Nullable(Type.String()),
  apiKey: Type.Object({
    configured: Type.Boolean(),
    lastFour: Nullable(Type.String()),
    readable: Type.Boolean({ description: 'False when it was sealed with another COPYDESK_SECRET: set it again' }),
  }),
  privateNetwork: Type.Boolean(),
  requestsPerMinute: Type.Integer(),
  concurrency: Type.Integer(),
  timeoutMs: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const LandAs = Type.Enum(['suggestion', 'wip'], {
  description: '`suggestion`: a suggestion for review; `wip`: the variant value itself, status WIP (In Progress)',
});

export const TranslateBody = Type.Object(
  {
    providerId: DeveloperId,
    textItemId: Type.Optional(DeveloperId),
    componentId: Type.Optional(DeveloperId),
    variantId: DeveloperId,
    landAs: Type.Optional(
      Type.Enum(['suggestion', 'wip', 'none'], {
        description: 'Where the result lands (default `suggestion`); `none` only answers it',
      }),
    ),
    overwrite: Type.Optional(
      Type.Boolean({ description: 'With `wip`: replace a value the variant already has (refused otherwise)' }),
    ),
  },
  { additionalProperties: false },
);

const PluralText = Type.Object({ form: Type.String(), text: Type.String() });

export const TranslationResult = Type.Object({
  provider: Type.String(),
  model: Nullable(Type.String()),
  text: Nullable(Type.String({ description: 'The translation (HTML when `richText`), null for a plural text' })),
  plurals: Nullable(Type.Array(PluralText, { description: 'Every plural form the target locale needs' })),
  richText: Type.Boolean(),
  characterLimit: Nullable(Type.Integer()),
  characters: Type.Integer({ description: 'Length of the longest form, in characters as the limit counts them' }),
  overLimit: Type.Boolean({ description: 'Longer than the character limit (flagged, never cut)' }),
  landedAs: Type.Enum(['suggestion', 'wip', 'none']),
  suggestionId: Nullable(Type.String()),
});

export const CreateJobBody = Type.Object(
  {
    providerId: DeveloperId,
    variantId: DeveloperId,
    projectId: Type.Optional(Type.String({ minLength: 1, description: 'A project or base: its text items' })),
    folderId: Type.Optional(
      Type.String({ minLength: 1, description: 'A component folder and its subfolders (`root`: the library)' }),
    ),
    includeOutdated: Type.Optional(Type.Boolean({ description: 'Also texts whose value is out of date' })),
    landAs: Type.Optional(LandAs),
    overwrite: Type.Optional(
      Type.Boolean({ description: 'With `wip`: replace out-of-date values (otherwise they are skipped)' }),
    ),
  },
  { additionalProperties: false },
);

export const JobRecord = Type.Object({
  id: Type.String(),
  providerId: Nullable(Type.String()),
  variantId: Nullable(Type.String()),
  projectId: Nullable(Type.String()),
  folderId: Nullable(Type.String()),
  includeOutdated: Type.Boolean(),
  landAs: LandAs,
  overwrite: Type.Boolean(),
  state: Type.Enum(['queued', 'running', 'done', 'canceled', 'failed']),
  total: Type.Integer(),
  done: Type.Integer(),
  failed: Type.Integer(),
  skipped: Type.Integer(),
  pending: Type.Integer(),
  overLimit: Type.Integer(),
  error: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  finishedAt: Nullable(Type.String()),
});

export const JobDetail = Type.Object({
  ...JobRecord.properties,
  problems: Type.Array(
    Type.Object({
      textItemId: Nullable(Type.String()),
      componentId: Nullable(Type.String()),
      state: Type.Enum(['failed', 'skipped']),
      error: Nullable(Type.String()),
    }),
    { description: 'The first 100 texts that failed or were skipped, with why' },
  ),
});

export type CreateProviderInput = Static<typeof CreateProviderBody>;
export type UpdateProviderInput = Static<typeof UpdateProviderBody>;
export type ProviderRecordType = Static<typeof ProviderRecord>;
export type TranslateInput = Static<typeof TranslateBody>;
export type TranslationResultType = Static<typeof TranslationResult>;
export type CreateJobInput = Static<typeof CreateJobBody>;
export type JobRecordType = Static<typeof JobRecord>;
export type JobDetailType = Static<typeof JobDetail>;
