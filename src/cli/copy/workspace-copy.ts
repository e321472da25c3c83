import type { Limits } from '../../config.js';
import { CLI_ACTOR } from '../../modules/changes/index.js';
import type { Services } from '../../services.js';
import { copyBlocks, copyContainers } from './containers.js';
import { boundHeapGrowth } from './heap.js';
import type { IdSet } from './id-set.js';
import { copyOrder } from './order.js';
import { type CopySummary, type Progress, Report } from './report.js';
import { append, readSource, type Snapshot, type SourceTexts, TEXTS_PER_SLICE, type TextRecord } from './snapshot.js';
import type { Source } from './source.js';
import { IdList, SliceWriter, Spool } from './spool.js';
import {
  copyFolders,
  copySettings,
  copyStatuses,
  copyUsers,
  copyVariables,
  copyVariants,
  type StructureContext,
} from './structure.js';
import { copyStyleguides } from './styleguides-copy.js';
import { eachTargetText, readTarget, type TextHomes, targetOrder, textHomes } from './target.js';
import { blockIdsOf, copyComponents, copyTextItems, type Elsewhere, publishItems } from './texts-copy.js';
import { textIdOf } from './validate.js';

export interface CopyOptions {
  source: Source;
  services: Services;
  limits: Limits;
  /** The workspace to write into; a new one (named after the source's) when absent. */
  into?: number;
  progress: Progress;
  /** Texts in a slice, read, compared and written together (default `TEXTS_PER_SLICE`). */
  sliceTexts?: number;
}

/**
 * Copies what the source's key can see into a workspace of this server, through the services and
 * the write path like any API client's writes: each write is checked, recorded in history (by the
 * actor `cli`) and announced. Run again, it writes only what differs.
 */
export async function copyWorkspace(options: CopyOptions): Promise<CopySummary> {
  const { progress } = options;
  boundHeapGrowth();
  // Everything is read and checked before the first write: a source that times out, answers too
  // much or sends a record that does not validate leaves this server as it was (no new workspace).
  let read: Awaited<ReturnType<typeof readSource>>;
  try {
    read = await readSource(options.source, { limits: options.limits, progress, sliceTexts: options.sliceTexts });
  } finally {
    options.source.close();
  }
  try {
    return await writeCopy(options, read.snapshot, read.texts);
  } finally {
    read.texts.close();
  }
}

async function writeCopy(options: CopyOptions, source: Snapshot, texts: SourceTexts): Promise<CopySummary> {
  const { services, limits, progress } = options;
  const report = new Report(progress);
  const workspaceId = options.into ?? (await services.accounts.createWorkspace(workspaceName(source))).id;
  const ctx: StructureContext = {
    services,
    scope: { workspaceId, actor: CLI_ACTOR },
    batch: limits.batchItems,
    report,
  };
  const structure = (components = false) => readTarget(services, workspaceId, limits, { components });
  let target = await structure();

  progress.phase('settings, users, workflow, variants, variables, folders, projects', 7);
  const steps = [
    () => copySettings(ctx, source, target, options.into === undefined),
    () => copyUsers(ctx, source, target, texts.assignees),
    () => copyStatuses(ctx, source, target),
    () => copyVariants(ctx, source, target),
    () => copyVariables(ctx, source, target),
    () => copyFolders(ctx, source, target),
    () => copyContainers(ctx, source, target),
  ];
  for (const step of steps) {
    await step();
    progress.advance(1);
  }
  target = await structure();
  await copyBlocks(ctx, source, target, texts.blockNames);
  target = await structure(true);

  const published = texts.published;
  await copyComponents(ctx, source, target, published);
  // A new workspace has no text items yet; in an existing one, an item missing from its project
  // here may sit in another. Where each item is gets read once, the first time one is missing.
  let homes: TextHomes | undefined;
  const nowhere: TextHomes = { get: () => undefined };
  const elsewhere = async (items: TextRecord[], here: TextRecord[]) => {
    if (options.into === undefined) return nowhere;
    const present = new Set<string>();
    for (const r of here) present.add(r.id);
    if (items.every((r) => present.has(r.id))) return nowhere;
    homes ??= await textHomes(services, workspaceId, limits, target);
    return homes;
  };
  const blockIds = blockIdsOf(target);
  let publishedHere = 0;
  progress.phase('textItems', texts.count);
  // A project (a base) at a time, and in it a slice of whole texts at a time: its items, then
  // those of them published; then the project's order.
  for (const page of texts.pages) {
    const project = source.projects.filter((p) => p.id === page.container && page.kind === 'project');
    // The target's records of this project, sliced like the source's (the same texts in each
    // slice), on disk; and its order, by id.
    const sliceOf = texts.sliceOf(page);
    const hereSpool = Spool.open();
    try {
      const hereWriter = new SliceWriter(hereSpool, options.sliceTexts ?? TEXTS_PER_SLICE, {
        sliceOf,
        slices: page.slices.length,
      });
      // The target's order of the project, by id, on disk too.
      let order = new IdList(hereSpool);
      await eachTargetText({ services, workspaceId, limits }, page, (r) => {
        hereWriter.add(textIdOf(r), r);
        if (r.variantId === null && r.pluralForm === null && r.projectId) order.add(r.id);
      });
      sliceOf.clear();
      const here = hereWriter.finish().slices;
      let orderParts = order.finish();
      const before = written(report);
      for (let index = 0; index < page.slices.length; index += 1) {
        const items = texts.slice(page, index);
        const slice: Snapshot = { ...source, projects: project, textItems: items };
        const hereItems = hereSpool.lines<TextRecord>(here[index] ?? []);
        const targetSlice: Snapshot = { ...target, textItems: hereItems };
        await copyTextItems(ctx, slice, targetSlice, {
          blockIds,
          elsewhere: otherThan(await elsewhere(items, hereItems), page.container),
        });
        const toPublish = new Set<string>();
        for (const r of items) if (published.has(r.id)) toPublish.add(r.id);
        // An item created just now is not linked yet; one that was here already is as it was read.
        if (toPublish.size > 0) publishedHere += await publishItems(ctx, slice, targetSlice, toPublish);
      }
      if (page.kind === 'project') {
        if (written(report) > before) {
          order = new IdList(hereSpool);
          await targetOrder({ services, workspaceId, limits }, page.container, (id) => order.add(id));
          orderParts = order.finish();
        }
        await copyOrder(ctx, {
          projectId: page.container,
          source,
          target,
          items: texts.order(page),
          here: { ids: () => hereSpool.ids(orderParts), spool: hereSpool },
        });
      }
    } finally {
      hereSpool.close();
    }
  }
  if (publishedHere > 0) {
    target = await structure(true);
    // The published components take the rest of their content (variants, status...) now.
    const again = new Report(progress);
    await copyComponents({ ...ctx, report: again }, onlyPublished(source, published), target, new Set());
    append(report.notCarried, again.notCarried);
  }
  await copyStyleguides(ctx, source, target);
  progress.end();
  return { workspaceId, source: options.source.base, counts: report.counts, notCarried: report.notCarried };
}

/** The homes of items outside `container`: those inside it are compared as usual. */
function otherThan(homes: TextHomes, container: string): Elsewhere {
  const get = (id: string) => {
    const home = homes.get(id);
    return home === container ? undefined : home;
  };
  return { get, has: (id) => get(id) !== undefined };
}

const written = (report: Report) => (report.counts.textItems?.created ?? 0) + (report.counts.textItems?.updated ?? 0);

function onlyPublished(source: Snapshot, ids: IdSet): Snapshot {
  const idOf = (r: { id: string; pluralForm: string | null }) =>
    r.pluralForm !== null && r.id.endsWith(`_${r.pluralForm}`) ? r.id.slice(0, -r.pluralForm.length - 1) : r.id;
  return { ...source, components: source.components.filter((r) => ids.has(idOf(r))) };
}

function workspaceName(source: Snapshot): string {
  return source.workspace?.name ?? `Copy of ${new Date().toISOString().slice(0, 10)}`;
}
