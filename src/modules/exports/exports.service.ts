import type { OpenSnapshot } from '../../db/snapshot.js';
import { fileFormats } from '../../formats/index.js';
import { badRequest } from '../../http/errors.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import {
  type FilterKey,
  type ParsedFilter,
  parseFilter,
  type TextQuery,
  type TextsReader,
  variantNotFoundMessage,
} from '../texts/index.js';
import type { VariablesService } from '../variables/variables.service.js';
import type { VariantsService } from '../variants/variants.service.js';
import { documentHeader, exportEntries } from './exports.document.js';
import { type ExportBody, fileChunks, renderFile } from './exports.file.js';
import type { ExportQuery } from './exports.schemas.js';

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

export function createExportsService(deps: ExportsDeps) {
  /**
   * GET /textItems/export and GET /components/export: the selected texts as one file. Everything
   * is read from one snapshot (the workspace's variants and variables too), page by page in the
   * file's order, and written as it is read: memory holds a page and a chunk, not the selection.
   */
  async function exportTexts(
    kind: ExportKind,
    workspaceId: number,
    _revision: number,
    query: ExportQuery,
    maxFilterIds: number,
  ): Promise<ExportBody> {
    const parsed = parseExportFilter(kind, query.filter, maxFilterIds);
    const developerId = chosenVariant(query);
    const snapshot = await deps.snapshot();
    let rendering = false;
    try {
      const { db } = snapshot;
      const [variants, variables, language] = await Promise.all([
        deps.variants.listVariants(db, workspaceId),
        deps.variables.listVariables(db, workspaceId),
        deps.accounts.baseLanguage(db, workspaceId),
      ]);
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
      const pages = await deps.texts.pages(db, workspaceId, textQuery);
      rendering = true;
      const chunks = fileChunks(pages, format.writer(header), entryOf, () => snapshot.close());
      return await renderFile(chunks, format.contentType);
    } finally {
      // Once rendering started, the file's chunks end the snapshot when they are done.
      if (!rendering) await snapshot.close();
    }
  }

  return { exportTexts };
}

export type ExportsService = ReturnType<typeof createExportsService>;

/** The exporter input of a selection, for other modules that render the same files (the v0/v1 API). */
export { buildDocument } from './exports.document.js';
