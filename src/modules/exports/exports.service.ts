/**
 * The exports of `GET /v2/textItems/export` and `GET /v2/components/export`, read top-down: the
 * query they take (its TypeBox schemas, which the routes validate with, and `ExportQuery`), the
 * service (the query checked, the variant and variables looked up, a snapshot opened), then what
 * the file says of each text (the document's header and entries, pure), then the file: the
 * format's writer picked by name (`fileFormats`, the writers are in `src/formats/`), the file
 * written a page at a time and answered as bytes or a stream.
 */
import type { Readable } from 'node:stream';
import { type Static, Type } from 'typebox';
import type { OpenSnapshot } from '../../db/snapshot.js';
import { androidFormat } from '../../formats/android.js';
import { arbFormat } from '../../formats/arb.js';
import { iosStringsFormat } from '../../formats/ios-strings.js';
import { iosStringsdictFormat } from '../../formats/ios-stringsdict.js';
import { jsonI18nextFormat } from '../../formats/json-i18next.js';
import { jsonIcuFormat } from '../../formats/json-icu.js';
import { jsonVueI18nFormat } from '../../formats/json-vue-i18n.js';
import {
  type DocumentHeader,
  type ExportDocument,
  type ExportEntry,
  type ExportOptions,
  type ExportPlural,
  type ExportVariable,
  type FileFormat,
  type FileWriter,
  FORMATS,
  type FormatName,
} from '../../formats/types.js';
import { bodyOf } from '../../http/cache/index.js';
import { badRequest } from '../../http/errors.js';
import { nextTurn } from '../../shared/next-turn.js';
import { eachPlaceholder } from '../../text/placeholders.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import {
  baseOwner,
  type FilterKey,
  inCldrOrder,
  type Owner,
  type OwnerSelection,
  type ParsedFilter,
  type PluralText,
  parseFilter,
  RichTextQuery,
  type TextEntity,
  type TextQuery,
  type TextSelection,
  type TextsReader,
  type VariantValue,
  variantNotFoundMessage,
} from '../texts/index.js';
import type { Variable, VariablesService } from '../variables/variables.service.js';
import type { Variant, VariantsService } from '../variants/variants.service.js';

// The query: the parameters of each export, checked by the routes; `ExportQuery` is derived from them.

const VARIANT =
  'Developer ID of the variant to export (`base` or none: base text). The file holds the texts that have a value of it, unless `fallback=base`';

const common = {
  format: Type.Enum([...FORMATS], { description: 'The file format' }),
  release: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Name of a release: read its frozen texts instead of the current ones (docs/releases.md)',
    }),
  ),
  richText: RichTextQuery,
  variantId: Type.Optional(Type.String({ description: VARIANT })),
  variant: Type.Optional(Type.String({ description: 'Alias of `variantId`' })),
  variableOrder: Type.Optional(
    Type.Enum(['default', 'alphabetical'], {
      description:
        'Numbering of positional variables (ios-strings, ios-stringsdict, android): creation order or by name',
    }),
  ),
  fallback: Type.Optional(
    Type.Enum(['base'], {
      description:
        'With a variant: `base` fills the texts that have no value of the variant with their base text (by default they are left out)',
    }),
  ),
  excludeVariantMetadata: Type.Optional(
    Type.Boolean({
      description:
        'Leave `__variant-name` and `__variant-description` (arb: `@@x-variant-*`) out of JSON variant exports; the comments of the other formats stay',
    }),
  ),
  includeVariableSummary: Type.Optional(
    Type.Boolean({ description: 'Add `__variables_used` to json_i18next and json_vue_i18n exports' }),
  ),
};

export const TextItemsExportQuery = Type.Object({
  ...common,
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `projects`, `bases`, `statuses`, `tags`, `assignee`, `integrated` as for GET /textItems (no `variants`: use `variantId`). No `projects` and no `bases`: every project and no base items',
    }),
  ),
  sort: Type.Optional(Type.Enum(['id', 'project_order'], { description: 'As for GET /textItems' })),
});

export const ComponentsExportQuery = Type.Object({
  ...common,
  filter: Type.Optional(
    Type.String({
      description:
        'URL-encoded JSON: `folders`, `statuses`, `tags`, `assignee`, `integrated` as for GET /components (no `variants`: use `variantId`)',
    }),
  ),
});

/** An export's query as the service takes it: the components' is the same without `sort`. */
export type ExportQuery = Static<typeof TextItemsExportQuery>;

export type ExportKind = 'textItems' | 'components';

export interface ExportsDeps {
  /** Opens the consistent read an export is made from, page by page. */
  snapshot: OpenSnapshot;
  accounts: Pick<AccountsService, 'baseLanguage'>;
  texts: Pick<TextsReader, 'pages'>;
  variants: Pick<VariantsService, 'listVariants'>;
  variables: Pick<VariablesService, 'listVariables'>;
}

/** The filter keys of each export: those of the fetch without `variants` (the variant is `variantId`). */
const FILTER_KEYS: Record<ExportKind, readonly FilterKey[]> = {
  textItems: ['projects', 'bases', 'statuses', 'tags', 'assignee', 'integrated'],
  components: ['folders', 'statuses', 'tags', 'assignee', 'integrated'],
};

/** A `variants` key is a likely mistake (the fetches take one): the answer points to `variantId`. */
const UNKNOWN_KEY_HINTS = { variants: 'of exports: give the variant as the variantId parameter' };

function parseExportFilter(kind: ExportKind, raw: string | undefined, maxFilterIds: number): ParsedFilter {
  return parseFilter(raw, FILTER_KEYS[kind], maxFilterIds, UNKNOWN_KEY_HINTS);
}

/** The exported variant's developer ID, or null for base text (`base` names it too). */
function chosenVariant(query: ExportQuery): string | null {
  const { variantId, variant } = query;
  if (variantId !== undefined && variant !== undefined && variantId !== variant) {
    throw badRequest(`variantId and variant name different variants ('${variantId}', '${variant}'): give one`);
  }
  const id = variantId ?? variant;
  return id === undefined || id === '' || id === 'base' ? null : id;
}

/**
 * Where an export's texts come from: the workspace's variants, variables and base language, and
 * the selection's pages for a query. The workspace through a snapshot (`createExportsService`), or
 * texts frozen in a release (the releases module), which renders the same bytes from them.
 */
export interface ExportSource {
  variants: readonly Variant[];
  variables: readonly Variable[];
  language: string;
  pages(query: TextQuery): Promise<AsyncIterable<TextSelection>>;
  /** Ends the source's read once the file is written (or abandoned). */
  close(): Promise<void>;
}

/**
 * An export rendered from `source`: the query checked (the same 400s whatever the source), the
 * variant looked up, then the file written a page at a time. Closes the source once written,
 * or at once when the query is refused.
 */
export async function renderExport(
  kind: ExportKind,
  query: ExportQuery,
  maxFilterIds: number,
  openSource: () => Promise<ExportSource>,
): Promise<ExportBody> {
  const parsed = parseExportFilter(kind, query.filter, maxFilterIds);
  const developerId = chosenVariant(query);
  const source = await openSource();
  let rendering = false;
  try {
    const { variants, variables, language } = source;
    const variant = developerId === null ? null : (variants.find((v) => v.developerId === developerId) ?? null);
    if (developerId !== null && !variant) throw badRequest(variantNotFoundMessage(developerId));
    // The variant goes into the filter so its own status and assignee are matched as in the fetch.
    const withVariant: ParsedFilter = { ...parsed, variants: variant ? [variant.developerId] : ['base'] };
    const textQuery: TextQuery =
      kind === 'textItems'
        ? { kind: 'text_item', filter: withVariant, contentOnly: true, ...(query.sort && { sort: query.sort }) }
        : { kind: 'component', filter: withVariant, contentOnly: true };
    const format = fileFormats[query.format];
    const locale = variant?.localeCode ?? language;
    const options = {
      richText: query.richText ?? null,
      variableOrder: query.variableOrder ?? 'default',
      excludeVariantMetadata: query.excludeVariantMetadata ?? false,
      includeVariableSummary: query.includeVariableSummary ?? false,
    } as const;
    const header = documentHeader(variant, locale, options);
    const fallback = query.fallback ?? 'none';
    const entryOf = exportEntries(variant, variables, fallback);
    const pages = await source.pages(textQuery);
    rendering = true;
    const chunks = fileChunks(pages, format.writer(header), entryOf, () => source.close());
    return await renderFile(chunks, format.contentType);
  } finally {
    // Once rendering started, the file's chunks end the source's read when they are done.
    if (!rendering) await source.close();
  }
}

export function createExportsService(deps: ExportsDeps) {
  /**
   * GET /textItems/export and GET /components/export: the selected texts as one file. Everything
   * is read from one snapshot (the workspace's variants and variables too), page by page in the
   * file's order, and written as it is read: memory holds a page and a chunk, not the selection.
   */
  function exportTexts(kind: ExportKind, workspaceId: number, query: ExportQuery, maxFilterIds: number) {
    return renderExport(kind, query, maxFilterIds, async () => {
      const snapshot = await deps.snapshot();
      try {
        const { db } = snapshot;
        const [variants, variables, language] = await Promise.all([
          deps.variants.listVariants(db, workspaceId),
          deps.variables.listVariables(db, workspaceId),
          deps.accounts.baseLanguage(db, workspaceId),
        ]);
        return {
          variants,
          variables,
          language,
          pages: (textQuery) => deps.texts.pages(db, workspaceId, textQuery),
          close: () => snapshot.close(),
        };
      } catch (error) {
        await snapshot.close();
        throw error;
      }
    });
  }

  return { exportTexts };
}

export type ExportsService = ReturnType<typeof createExportsService>;

/** The exporter input of a selection, for other modules that render the same files (the v0/v1 API). */

// The document: what an export writes of each selected text.

/** What a variant export does with a text that has no value of the variant. */
export type VariantFallback = 'none' | 'base';

/**
 * What an export writes of each selected text (pure): its base text, or the exported variant's
 * value. A variant export holds the texts that have a value of the variant, as GET /textItems
 * returns the variant's records; with `fallback` `base`, a text without one exports its base text
 * instead. A text whose variant value exists but fails the status or assignee filter is left out
 * either way, as its variant record would be in GET /textItems.
 */
export function exportEntries(
  variant: Variant | null,
  variables: readonly Variable[],
  fallback: VariantFallback = 'none',
): (entity: TextEntity, chosen: OwnerSelection) => ExportEntry | null {
  const byId = new Map<number, ExportVariable>(
    variables.map((v, creationIndex) => [v.id, { name: v.name, type: v.type, data: v.data, creationIndex }]),
  );
  return (entity, chosen) => {
    const owner = variant ? variantOwner(entity, variant.id, chosen.variants, fallback) : baseOwner(entity);
    return owner ? toEntry(entity, owner, byId) : null;
  };
}

/** A document's head: the locale, the variant and the options. */
export function documentHeader(variant: Variant | null, locale: string, options: ExportOptions): DocumentHeader {
  return {
    locale,
    variant: variant ? { id: variant.developerId, name: variant.name, description: variant.description } : null,
    options,
  };
}

/** What a document is built with besides its texts (see `buildDocument`). */
export interface DocumentInput {
  /** The exported variant; null: the base text. */
  variant: Variant | null;
  /** The workspace's variables, in creation order (see `exportEntries`). */
  variables: readonly Variable[];
  /** The document's locale. */
  locale: string;
  /** The exporter's options. */
  options: ExportOptions;
  /** What a variant export does with a text that has no value of the variant; `none` when left out. */
  fallback?: VariantFallback;
}

/** The exporter input of a whole selection (pure), for callers that hold every text (the v0/v1 API). */
export function buildDocument(selection: TextSelection, input: DocumentInput): ExportDocument {
  const { variant, variables, locale, options, fallback = 'none' } = input;
  const entryOf = exportEntries(variant, variables, fallback);
  const entries: ExportEntry[] = [];
  for (const entity of selection.entities) {
    const chosen = selection.select(entity);
    const entry = chosen && entryOf(entity, chosen);
    if (entry) entries.push(entry);
  }
  return { ...documentHeader(variant, locale, options), entries };
}

/** The variant's value when it passed the filter; for a text without one, base text if asked; else null. */
function variantOwner(
  entity: TextEntity,
  variantId: number,
  kept: readonly VariantValue[],
  fallback: VariantFallback,
): Owner | null {
  const value = entity.variants.find((v) => v.variantId === variantId);
  if (!value) return fallback === 'base' ? baseOwner(entity) : null;
  return kept.includes(value) ? value : null;
}

const toPlural = (p: PluralText): ExportPlural => ({ form: p.form, text: p.text, richText: p.richText ?? null });

function toEntry(entity: TextEntity, owner: Owner, variables: ReadonlyMap<number, ExportVariable>): ExportEntry {
  const stored = owner.plurals;
  const plurals: ExportPlural[] = [];
  if (stored && stored.length > 0) for (const plural of inCldrOrder(stored)) plurals.push(toPlural(plural));
  return {
    id: entity.developerId,
    text: owner.text,
    richText: owner.richText,
    plurals,
    notes: owner.notes,
    variables: entity.variableIds.length === 0 ? [] : usedOf(entity.variableIds, variables, owner.text, plurals),
  };
}

/** The listed variables whose placeholders the record's texts hold, in the order listed. */
function usedOf(
  ids: readonly number[],
  variables: ReadonlyMap<number, ExportVariable>,
  text: string,
  plurals: readonly ExportPlural[],
): ExportVariable[] {
  // Most texts hold no placeholder at all: nothing to look up.
  let placeholders = text.includes('{{');
  for (let index = 0; !placeholders && index < plurals.length; index++) {
    placeholders = (plurals[index] as ExportPlural).text.includes('{{');
  }
  if (!placeholders) return [];
  const names = new Set<string>();
  const add = (name: string) => {
    names.add(name);
  };
  eachPlaceholder(text, add);
  for (const plural of plurals) eachPlaceholder(plural.text, add);
  const used: ExportVariable[] = [];
  for (const id of ids) {
    const variable = variables.get(id);
    if (variable !== undefined && names.has(variable.name)) used.push(variable);
  }
  return used;
}

// The file: the format's writer, the file written a page at a time, answered as bytes or a stream.

/**
 * The formats, keyed by the `format` query parameter (`FORMATS` in src/formats/types.ts), each a
 * writer of a file entry by entry. The v0/v1 API writes the same files through them (whole, with
 * `wholeFile`, or page by page).
 */
export const fileFormats: Record<FormatName, FileFormat> = {
  json_icu: jsonIcuFormat,
  json_i18next: jsonI18nextFormat,
  json_vue_i18n: jsonVueI18nFormat,
  'ios-strings': iosStringsFormat,
  'ios-stringsdict': iosStringsdictFormat,
  android: androidFormat,
  arb: arbFormat,
};

/** A rendered export: the whole file when it is small, else a stream of it. */
export interface ExportBody {
  body: Buffer | Readable;
  contentType: string;
}

/** What the file says of a selected text, or null when it leaves it out. */
export type EntryOf = (entity: TextEntity, chosen: OwnerSelection) => ExportEntry | null;

/** Bytes per chunk of a streamed file: few chunks for the socket, small enough to render between turns. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Milliseconds of rendering between two turns of the event loop. Checked every few entries
 * (reading the clock costs more than writing a short entry), so a turn comes after at most a
 * few milliseconds of work whatever the format and the texts' sizes.
 */
const TURN_MS = 4;
const ENTRIES_PER_CLOCK = 16;

/**
 * The file's chunks, written from one page of texts at a time. The event loop gets a turn every
 * `TURN_MS` of rendering and after every page, so an export of any size never holds up other
 * requests for long. `done` runs once the file is written, or when its reader gives up.
 */
export async function* fileChunks(
  pages: AsyncIterable<TextSelection>,
  writer: FileWriter,
  entryOf: EntryOf,
  done: () => Promise<void>,
): AsyncGenerator<Buffer> {
  try {
    let out = writer.head();
    for await (const page of pages) {
      let since = performance.now();
      let count = 0;
      for (const entity of page.entities) {
        const chosen = page.select(entity);
        const entry = chosen && entryOf(entity, chosen);
        if (entry) out += writer.entry(entry);
        if (out.length >= CHUNK_BYTES) {
          yield Buffer.from(out);
          out = '';
        }
        count += 1;
        if (count % ENTRIES_PER_CLOCK === 0 && performance.now() - since >= TURN_MS) {
          await nextTurn();
          since = performance.now();
        }
      }
      await nextTurn();
    }
    out += writer.tail();
    if (out !== '') yield Buffer.from(out);
  } finally {
    await done();
  }
}

/**
 * The file as an answer, through `bodyOf` (src/http/cache/index.ts): bytes when it ends within
 * 64 KiB, else a stream that pulls the rest as its reader reads. The chunks end their snapshot
 * themselves (`fileChunks`' `done`), whether finished, failed or abandoned.
 */
export async function renderFile(chunks: AsyncGenerator<Buffer>, contentType: string): Promise<ExportBody> {
  return { body: await bodyOf(chunks, async () => {}), contentType };
}
