import type { Limits } from '../../config.js';
import { CLI_ACTOR } from '../../modules/changes/index.js';
import type { Services } from '../../services.js';
import { copyBlocks, copyContainers } from './containers.js';
import { copyOrder } from './order.js';
import { type CopySummary, type Progress, Report } from './report.js';
import { append, readSource, type Snapshot } from './snapshot.js';
import type { Source } from './source.js';
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
import { readTarget } from './target.js';
import { blockIdsOf, copyComponents, copyTextItems, publishedIds, publishItems } from './texts-copy.js';
import { checkWritable } from './validate.js';

export interface CopyOptions {
  source: Source;
  services: Services;
  limits: Limits;
  /** The workspace to write into; a new one (named after the source's) when absent. */
  into?: number;
  progress: Progress;
}

/**
 * Copies what the source's key can see into a workspace of this server, through the services and
 * the write path like any API client's writes: each write is checked, recorded in history (by the
 * actor `cli`) and announced. Run again, it writes only what differs.
 */
export async function copyWorkspace(options: CopyOptions): Promise<CopySummary> {
  const { services, limits, progress } = options;
  const report = new Report(progress);
  // Everything is read and checked before the first write: a source that times out, answers too
  // much or sends a record that does not validate leaves this server as it was (no new workspace).
  let source: Snapshot;
  try {
    source = await readSource(options.source, { progress });
  } finally {
    options.source.close();
  }
  progress.phase('checking the source', 1);
  checkWritable(source, limits);
  progress.advance(1);
  const workspaceId = options.into ?? (await services.accounts.createWorkspace(workspaceName(source))).id;
  const ctx: StructureContext = {
    services,
    scope: { workspaceId, actor: CLI_ACTOR },
    batch: limits.batchItems,
    report,
  };
  const structure = () => readTarget(services, workspaceId, limits, { texts: false });
  let target = await structure();

  progress.phase('settings, users, workflow, variants, variables, folders, projects', 7);
  const steps = [
    () => copySettings(ctx, source, target, options.into === undefined),
    () => copyUsers(ctx, source, target),
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
  await copyBlocks(ctx, source, target);
  target = await readTarget(services, workspaceId, limits);

  const published = publishedIds(source);
  await copyComponents(ctx, source, target, published);
  await copyTextItems(ctx, source, target, blockIdsOf(target));
  if (wroteTexts(report)) target = await readTarget(services, workspaceId, limits);
  if (published.size > 0 && (await publishItems(ctx, source, target, published)) > 0) {
    target = await readTarget(services, workspaceId, limits);
    // The published components take the rest of their content (variants, status...) now.
    const again = new Report(progress);
    await copyComponents({ ...ctx, report: again }, onlyPublished(source, published), target, new Set());
    append(report.notCarried, again.notCarried);
    target = await readTarget(services, workspaceId, limits);
  }
  await copyOrder(ctx, source, target);
  await copyStyleguides(ctx, source, target);
  progress.end();
  return { workspaceId, source: options.source.base, counts: report.counts, notCarried: report.notCarried };
}

const wroteTexts = (report: Report) =>
  ['components', 'textItems'].some(
    (kind) => (report.counts[kind]?.created ?? 0) + (report.counts[kind]?.updated ?? 0) > 0,
  );

function onlyPublished(source: Snapshot, ids: Set<string>): Snapshot {
  const idOf = (r: { id: string; pluralForm: string | null }) =>
    r.pluralForm !== null && r.id.endsWith(`_${r.pluralForm}`) ? r.id.slice(0, -r.pluralForm.length - 1) : r.id;
  return { ...source, components: source.components.filter((r) => ids.has(idOf(r))) };
}

function workspaceName(source: Snapshot): string {
  return source.workspace?.name ?? `Copy of ${new Date().toISOString().slice(0, 10)}`;
}
