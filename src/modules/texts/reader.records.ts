import type { Executor } from '../../db/schema.js';
import { nextTurn } from '../../shared/next-turn.js';
import { showInstances } from './instances.js';
import { componentJson, type ReadBasis, type TextsReaderDeps, textItemJson } from './reader.kinds.js';
import { resolvePaged, storedPages } from './reader.pages.js';
import { type RecordContext, recordsJson } from './records.js';
import { developerIdsByRowIds } from './texts.repository.js';
import type { TextEntity, TextItem, TextQuery } from './texts.types.js';

/** Bytes gathered before they are handed on: few chunks for the socket, one page's JSON or so each. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The GET records of a query as the chunks of one JSON array, read page by page through
 * `executor` (a snapshot, so the pages agree) and never kept: memory holds a page and a chunk,
 * whatever the size of the selection. The event loop gets a turn after every page. The query is
 * resolved first, so an unknown reference is a 400 before any byte.
 */
export async function recordChunks(
  deps: TextsReaderDeps,
  executor: Executor,
  workspaceId: number,
  query: TextQuery,
  basis: ReadBasis,
  context: RecordContext,
): Promise<AsyncGenerator<Buffer>> {
  const read = await resolvePaged(deps, executor, workspaceId, query, basis);
  const pageJson = query.kind === 'component' ? await componentPages(deps, executor, workspaceId) : null;
  const itemJson = query.kind === 'text_item' ? await textItemPages(deps, executor, workspaceId, read) : null;
  const pages = storedPages(executor, workspaceId, read);
  async function* chunks(): AsyncGenerator<Buffer> {
    let out = '[';
    let first = true;
    for await (const page of pages) {
      const { entities, extraJson } = pageJson ? pageJson(page) : await (itemJson as ItemPages)(page);
      const json = recordsJson(entities, context, read.select, extraJson);
      if (json !== '') {
        out += first ? json : `,${json}`;
        first = false;
      }
      if (out.length >= CHUNK_BYTES) {
        yield Buffer.from(out);
        out = '';
      }
      // SQLite answers on the event loop: other requests get a turn between pages.
      await nextTurn();
    }
    yield Buffer.from(`${out}]`);
  }
  return chunks();
}

interface ShownPage {
  entities: readonly TextEntity[];
  extraJson: (entity: TextEntity) => string;
}
type ItemPages = (page: TextEntity[]) => Promise<ShownPage>;

async function componentPages(deps: TextsReaderDeps, executor: Executor, workspaceId: number) {
  const extraJson = componentJson(await deps.folders.loadFolderTree(executor, workspaceId));
  return (page: TextEntity[]): ShownPage => ({ entities: page, extraJson });
}

async function textItemPages(
  deps: TextsReaderDeps,
  executor: Executor,
  workspaceId: number,
  read: Awaited<ReturnType<typeof resolvePaged>>,
): Promise<ItemPages> {
  const [containers, blocks] = await Promise.all([
    deps.projects.listProjectRefs(executor, workspaceId),
    deps.blocks.loadBlocks(executor, workspaceId),
  ]);
  const byRowId = new Map(containers.map((c) => [c.id, c]));
  return async (page) => {
    // Linked instances show their components' text, read with the page.
    const shown = await showInstances(executor, workspaceId, page as TextItem[], read.selection.variantIds);
    const entities = shown.map((s) => s.entity);
    const components = new Map<number, string>();
    for (const s of shown) if (s.component) components.set(s.component.id, s.component.developerId);
    const derived = entities.flatMap((e) => e.baseTextItemId ?? []);
    const baseItems = derived.length > 0 ? await developerIdsByRowIds(executor, workspaceId, derived) : new Map();
    return { entities, extraJson: textItemJson({ containers: byRowId, baseItems, blocks, components }) };
  };
}
