import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import { escapeText } from '../../richtext/serialize.js';
import { type ChangeRow, rowOfChange, rowsOfRecordsSince, rowsOfRevision } from './changes.repository.js';
import { CHANGES_PER_ROW, changesOfRow } from './changes.stored.js';
import type { ChangeKind, WriteScope } from './changes.types.js';
import type { RestoreInput } from './history.schemas.js';
import { revisionOf } from './history.service.js';
import { changedFields, planRecords, type RecordPlan, type Side } from './restore.plan.js';
import type { PlannedWrite, WritePath } from './write-path.js';

/**
 * POST /v2/history/restore: a record back to a version of its history (`changeId`), or a whole
 * write undone (`revision`). The restore is one write: every step goes through the service of
 * the module that owns the record (its own rules and checks), inside one transaction of the write
 * path (`composed`), so it is recorded in history, sent to webhooks and seen by every cache like
 * any write, and a step that fails leaves nothing written.
 */

export const RESTORABLE_KINDS: readonly ChangeKind[] = ['textItem', 'component', 'folder', 'block', 'project'];

/** A text's fields as a POST or PATCH of components or text items takes them. */
export type TextInput = { developerId: string } & Record<string, unknown>;
type Trx = Transaction<Database>;
type UserIds = ReadonlyMap<string, number>;

/** What the restore needs of the modules that own the records (wired in src/services.ts). */
export interface RestoreDeps {
  db: Kysely<Database>;
  writes: WritePath;
  userIdsByEmail(workspaceId: number): Promise<UserIds>;
  /** The workspace's projects, blocks (by row id) and folders, as they are inside the write. */
  projectIds(trx: Trx, workspaceId: number): Promise<Set<string>>;
  blocks(trx: Trx, workspaceId: number): Promise<Map<number, { developerId: string; projectId: string }>>;
  folders(trx: Trx, workspaceId: number): Promise<Map<string, { name: string; parentId: string | null }>>;
  projects: {
    create(
      scope: WriteScope,
      inputs: { developerId: string; name: string; baseId?: string | null; developerMode?: boolean }[],
    ): Promise<unknown>;
    update(
      scope: WriteScope,
      updates: { developerId: string; name?: string; baseId?: string | null; developerMode?: boolean }[],
    ): Promise<unknown>;
    remove(scope: WriteScope, developerIds: string[]): Promise<unknown>;
  };
  blocksOps: {
    create(scope: WriteScope, projectId: string, blocks: { developerId: string; name: string }[]): Promise<unknown>;
    update(scope: WriteScope, projectId: string, updates: { developerId: string; name: string }[]): Promise<unknown>;
    remove(scope: WriteScope, projectId: string, developerIds: string[]): Promise<unknown>;
  };
  foldersOps: {
    create(
      scope: WriteScope,
      folders: { developerId: string; name: string; parentId: string | null }[],
    ): Promise<unknown>;
    place(
      scope: WriteScope,
      updates: { developerId: string; name: string; parentId: string | null }[],
    ): Promise<unknown>;
    remove(scope: WriteScope, developerIds: string[]): Promise<unknown>;
  };
  components: {
    createIn(
      trx: Trx,
      workspaceId: number,
      input: { components: TextInput[]; richText?: 'html' },
      userIds: UserIds,
    ): Promise<PlannedWrite<unknown>>;
    updateIn(
      trx: Trx,
      workspaceId: number,
      input: { updates: TextInput[]; variantId?: string; richText?: 'html' },
      userIds: UserIds,
    ): Promise<PlannedWrite<unknown>>;
    remove(scope: WriteScope, developerIds: string[]): Promise<unknown>;
  };
  textItems: {
    createIn(
      trx: Trx,
      workspaceId: number,
      input: { projectId: string; textItems: TextInput[]; richText?: 'html' },
      userIds: UserIds,
    ): Promise<PlannedWrite<unknown>>;
    updateIn(
      trx: Trx,
      workspaceId: number,
      input: { updates: TextInput[]; variantId?: string; richText?: 'html' },
      userIds: UserIds,
    ): Promise<PlannedWrite<unknown>>;
    place(
      scope: WriteScope,
      input: { componentId: string; projectId: string; blockId?: string | null; developerId: string },
    ): Promise<unknown>;
    remove(scope: WriteScope, developerIds: string[]): Promise<unknown>;
    /** Instances detached since are linked again; items linked since are detached. */
    relink(scope: WriteScope, links: { developerId: string; componentId: string }[]): Promise<unknown>;
    detach(scope: WriteScope, developerIds: string[]): Promise<unknown>;
  };
}

export interface RestoreResult {
  success: true;
  /** The revision the restore made; null when the records already were as asked. */
  revision: string | null;
}

const KIND_NAMES: Record<string, string> = {
  textItem: 'text item',
  component: 'component',
  folder: 'folder',
  block: 'block',
  project: 'project',
};

const str = (value: unknown) => (typeof value === 'string' ? value : null);

/** What the restore reads before writing: the records and their plans. */
async function plansOf(trx: Trx, workspaceId: number, input: RestoreInput): Promise<RecordPlan[]> {
  const given = (input.changeId !== undefined ? 1 : 0) + (input.revision !== undefined ? 1 : 0);
  if (given !== 1) throw badRequest('changeId or revision: give exactly one of them');
  let refs: string[];
  let fromRow: number;
  if (input.changeId !== undefined) {
    const id = /^\d{1,18}$/.test(input.changeId) ? Number(input.changeId) : Number.NaN;
    const row = Number.isSafeInteger(id) ? await rowOfChange(trx, workspaceId, id) : undefined;
    const part = row ? changesOfRow(row)[id % CHANGES_PER_ROW] : undefined;
    if (!row || !part) throw badRequest(`changeId: there is no change ${input.changeId} in this workspace's history`);
    if (!RESTORABLE_KINDS.includes(row.kind as ChangeKind)) {
      throw badRequest(
        `changeId: change ${input.changeId} is to a ${row.kind}, which cannot be restored (only text items, components, folders, blocks and projects)`,
      );
    }
    refs = [row.record_ref];
    // A deleted record comes back as it was just before the delete; any other, as the change left it.
    fromRow = part.action === 'deleted' ? row.id : row.id + 1;
    if (part.action === 'deleted' && row.revision !== null && row.kind in HOLDING_FIELD) {
      // What the same write removed or moved out with it comes back too.
      const write = await rowsOfRevision(trx, workspaceId, Number(row.revision));
      for (const other of write) {
        if (heldBy(row, other)) refs.push(other.record_ref);
        if (other.id < fromRow) fromRow = other.id;
      }
    }
  } else {
    const revision = revisionOf(input.revision, 'revision') as number;
    const write = await rowsOfRevision(trx, workspaceId, revision);
    if (write.length === 0) {
      throw badRequest(`revision: no write of this workspace's history made revision ${input.revision}`);
    }
    const other = write.find((row) => !RESTORABLE_KINDS.includes(row.kind as ChangeKind));
    if (other) {
      throw badRequest(
        `revision: the write of revision ${input.revision} changed a ${other.kind} (${other.developer_id}), which cannot be restored`,
      );
    }
    refs = [...new Set(write.map((row) => row.record_ref))];
    fromRow = (write[0] as ChangeRow).id;
  }
  const rows = await rowsOfRecordsSince(trx, workspaceId, [...new Set(refs)], fromRow);
  return [...planRecords(rows).values()];
}

/** The field by which a record names the container (or component) whose delete took it along. */
const HOLDING_FIELD: Record<string, string> = {
  project: 'projectId',
  block: 'blockId',
  folder: 'folderId',
  component: 'componentId',
};

/** Whether a change of the same write was to a record held by the deleted container `row`. */
function heldBy(row: ChangeRow, other: ChangeRow): boolean {
  if (other.record_ref === row.record_ref) return false;
  const field = HOLDING_FIELD[row.kind] as string;
  return changesOfRow(other).some(
    (part) =>
      part.fields[field]?.before === row.developer_id ||
      (row.kind === 'folder' && part.fields.parentId?.before === row.developer_id),
  );
}

/** What to do with a record: put it back, take it away, or set some of its fields. */
type Step = 'create' | 'remove' | 'update' | 'none';
function stepOf(plan: RecordPlan): Step {
  const base = plan.base;
  if (!base) return 'update';
  if (base.existed && !base.exists) return 'create';
  if (!base.existed && base.exists) return 'remove';
  if (!base.existed && !base.exists) return 'none';
  return 'update';
}

/** A text's content fields as a request takes them; `html`: texts are sent as markup. */
function textFields(values: Record<string, unknown>, html: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const asSent = (text: unknown, rich: unknown) =>
    html ? (str(rich) ?? escapeText(String(text ?? ''))) : String(text ?? '');
  if ('text' in values || ('richText' in values && values.richText !== null)) {
    if ('text' in values || html) out.text = asSent(values.text, values.richText);
  }
  if ('plurals' in values) {
    const plurals = (values.plurals as { form: string; text: string; richText?: string }[] | null) ?? [];
    const sent = plurals.map((p) => ({ form: p.form, text: asSent(p.text, p.richText) }));
    // The history lists forms in CLDR order; a request names first the form that is the text.
    const first = sent.findIndex((p) => p.text === out.text);
    if (first > 0) sent.unshift(sent.splice(first, 1)[0]!);
    out.plurals = sent;
  }
  for (const name of ['notes', 'characterLimit', 'status', 'assignee'] as const) {
    if (name in values) out[name] = values[name] ?? null;
  }
  if (out.status === null) delete out.status;
  return out;
}

/** Whether a text's values need the request's markup mode (its text or a plural form is rich). */
function isRich(values: Record<string, unknown>): boolean {
  if (str(values.richText) !== null) return true;
  const plurals = values.plurals as { richText?: string }[] | null | undefined;
  return (plurals ?? []).some((p) => typeof p.richText === 'string');
}

/** The base record's own fields (tags, variables, placement) as a request takes them. */
function ownFields(kind: ChangeKind, values: Record<string, unknown>, place: Placement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if ('tags' in values) out.tags = values.tags ?? [];
  if ('integrated' in values) out.integrated = values.integrated ?? false;
  if ('variableIds' in values) out.variables = values.variableIds ?? [];
  if (kind === 'component' && 'folderId' in values) out.folderId = place.folder(str(values.folderId));
  if (kind === 'textItem' && 'blockId' in values) out.blockId = place.block(str(values.projectId), str(values.blockId));
  return out;
}

/** Where a record goes back: a folder or block gone since is replaced by the root or no block. */
interface Placement {
  folder(developerId: string | null): string | null;
  block(projectId: string | null, developerId: string | null): string | null;
}

/** Groups of text writes that share a variant and markup mode (one request each). */
class Batches {
  readonly groups = new Map<string, { key: string[]; items: TextInput[] }>();
  add(key: string[], item: TextInput) {
    const id = JSON.stringify(key);
    const group = this.groups.get(id) ?? { key, items: [] };
    group.items.push(item);
    this.groups.set(id, group);
  }
}

export function createRestoreService(deps: RestoreDeps) {
  const { writes } = deps;

  /** Runs one step of the restore; a refusal names the record it was restoring. */
  async function step<T>(plan: RecordPlan | null, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && plan) {
        const what = `${KIND_NAMES[plan.kind] ?? plan.kind} ${plan.developerIdThen}`;
        throw new AppError(error.code, `Restoring ${what}: ${error.message}`);
      }
      throw error;
    }
  }

  async function apply(trx: Trx, scope: WriteScope, plans: readonly RecordPlan[], userIds: UserIds) {
    const { workspaceId } = scope;
    const ofKind = (kind: ChangeKind, wanted: Step) => plans.filter((p) => p.kind === kind && stepOf(p) === wanted);
    const planned = async (run: (trx: Trx) => Promise<PlannedWrite<unknown>>) => writes.write(scope, run);

    // Projects first: what they hold goes back into them.
    for (const plan of ofKind('project', 'create')) {
      const then = (plan.base as Side).was;
      await step(plan, () =>
        deps.projects.create(scope, [
          {
            developerId: plan.developerIdThen,
            name: String(then.name ?? plan.developerIdThen),
            ...('baseId' in then && { baseId: str(then.baseId) }),
            ...('developerMode' in then && { developerMode: then.developerMode === true }),
          },
        ]),
      );
    }
    for (const plan of ofKind('project', 'update')) {
      const fields = plan.base ? changedFields(plan.base) : {};
      const update: { developerId: string; name?: string; baseId?: string | null; developerMode?: boolean } = {
        developerId: plan.developerIdNow,
      };
      if ('name' in fields) update.name = String(fields.name);
      if ('baseId' in fields) update.baseId = str(fields.baseId);
      if ('developerMode' in fields) update.developerMode = fields.developerMode === true;
      if (Object.keys(update).length > 1) await step(plan, () => deps.projects.update(scope, [update]));
    }
    const projects = await deps.projectIds(trx, workspaceId);

    // Blocks: back into their project, which must exist.
    for (const plan of ofKind('block', 'create')) {
      const then = (plan.base as Side).was;
      const projectId = str(then.projectId) as string;
      if (!projects.has(projectId)) {
        throw conflict(
          `Restoring block ${plan.developerIdThen}: its project ${projectId} no longer exists; restore the project first`,
        );
      }
      await step(plan, () =>
        deps.blocksOps.create(scope, projectId, [
          { developerId: plan.developerIdThen, name: String(then.name ?? plan.developerIdThen) },
        ]),
      );
    }
    const renames = ofKind('block', 'update').filter((p) => p.base && 'name' in changedFields(p.base));
    if (renames.length > 0) {
      const blocks = await deps.blocks(trx, workspaceId);
      for (const plan of renames) {
        const block = blocks.get(Number(plan.ref.split(':')[1]));
        if (!block) continue;
        const name = String(changedFields(plan.base as Side).name);
        await step(plan, () =>
          deps.blocksOps.update(scope, block.projectId, [{ developerId: block.developerId, name }]),
        );
      }
    }

    // Folders: the ones deleted come back parents first, then every folder goes back under its parent.
    const folderCreates = ofKind('folder', 'create');
    if (folderCreates.length > 0) {
      const existing = await deps.folders(trx, workspaceId);
      const created = new Set(folderCreates.map((p) => p.developerIdThen));
      const ordered: { developerId: string; name: string; parentId: string | null }[] = [];
      const pending = folderCreates.map((p) => ({
        developerId: p.developerIdThen,
        name: String(p.base?.was.name ?? p.developerIdThen),
        parentId: str(p.base?.was.parentId),
      }));
      while (pending.length > 0) {
        const index = pending.findIndex(
          (f) => f.parentId === null || !created.has(f.parentId) || ordered.some((o) => o.developerId === f.parentId),
        );
        const next = pending.splice(index === -1 ? 0 : index, 1)[0] as (typeof pending)[number];
        // A parent gone since (and not coming back): the library root.
        const parentKnown = next.parentId === null || existing.has(next.parentId) || created.has(next.parentId);
        ordered.push({ ...next, parentId: parentKnown ? next.parentId : null });
      }
      await step(folderCreates[0] ?? null, () => deps.foldersOps.create(scope, ordered));
    }
    const folderMoves = ofKind('folder', 'update').filter((p) => p.base && Object.keys(changedFields(p.base)).length);
    if (folderMoves.length > 0) {
      const existing = await deps.folders(trx, workspaceId);
      const places = folderMoves.flatMap((plan) => {
        const now = existing.get(plan.developerIdNow);
        if (!now) return [];
        const fields = changedFields(plan.base as Side);
        const parentId = 'parentId' in fields ? str(fields.parentId) : now.parentId;
        return [
          {
            developerId: plan.developerIdNow,
            name: 'name' in fields ? String(fields.name) : now.name,
            parentId: parentId !== null && !existing.has(parentId) ? null : parentId,
          },
        ];
      });
      if (places.length > 0) await step(folderMoves[0] ?? null, () => deps.foldersOps.place(scope, places));
    }

    // Texts: components before text items, which may be their instances.
    const folders = await deps.folders(trx, workspaceId);
    const blocks = [...(await deps.blocks(trx, workspaceId)).values()];
    const place: Placement = {
      folder: (id) => (id !== null && folders.has(id) ? id : null),
      block: (projectId, id) =>
        id !== null && blocks.some((b) => b.developerId === id && (projectId === null || b.projectId === projectId))
          ? id
          : null,
    };
    const texts = { trx, scope, plans, userIds, place, planned };
    await restoreTexts('component', texts);
    await restoreTexts('textItem', texts);

    // What was created since goes again, contents before containers.
    const removed = (kind: ChangeKind) => ofKind(kind, 'remove');
    const textItemIds = removed('textItem').map((p) => p.developerIdNow);
    if (textItemIds.length > 0)
      await step(removed('textItem')[0] ?? null, () => deps.textItems.remove(scope, textItemIds));
    const componentIds = removed('component').map((p) => p.developerIdNow);
    if (componentIds.length > 0) {
      await step(removed('component')[0] ?? null, () => deps.components.remove(scope, componentIds));
    }
    if (removed('block').length > 0) {
      const current = await deps.blocks(trx, workspaceId);
      for (const plan of removed('block')) {
        const block = current.get(Number(plan.ref.split(':')[1]));
        if (block) await step(plan, () => deps.blocksOps.remove(scope, block.projectId, [block.developerId]));
      }
    }
    const folderIds = removed('folder').map((p) => p.developerIdNow);
    if (folderIds.length > 0) await step(removed('folder')[0] ?? null, () => deps.foldersOps.remove(scope, folderIds));
    const projectIds = removed('project').map((p) => p.developerIdNow);
    if (projectIds.length > 0) await step(removed('project')[0] ?? null, () => deps.projects.remove(scope, projectIds));
  }

  /** Components or text items: re-created ones first, then updates of base records and variant values. */
  async function restoreTexts(
    kind: 'component' | 'textItem',
    input: {
      trx: Trx;
      scope: WriteScope;
      plans: readonly RecordPlan[];
      userIds: UserIds;
      place: Placement;
      planned: (run: (trx: Trx) => Promise<PlannedWrite<unknown>>) => Promise<unknown>;
    },
  ) {
    const { trx, scope, plans, userIds, place, planned } = input;
    const { workspaceId } = scope;
    const ops = kind === 'component' ? deps.components : deps.textItems;
    const mine = plans.filter((p) => p.kind === kind);
    const creates = new Batches();
    const instances: { plan: RecordPlan; then: Record<string, unknown> }[] = [];
    const updates = new Batches();
    const planOf = new Map<string, RecordPlan>();
    // A developer ID given since, or another project: put back after every other field, which the
    // updates above address by the ID the record has now.
    const moves: TextInput[] = [];
    const links: { developerId: string; componentId: string }[] = [];
    const unlinks: string[] = [];
    const projects = kind === 'textItem' ? await deps.projectIds(trx, workspaceId) : new Set<string>();

    for (const plan of mine) {
      const todo = stepOf(plan);
      if (todo === 'none' || todo === 'remove') continue;
      const developerId = todo === 'create' ? plan.developerIdThen : plan.developerIdNow;
      planOf.set(developerId, plan);
      if (todo === 'create') {
        const then = (plan.base as Side).was;
        if (kind === 'textItem') {
          const projectId = str(then.projectId) as string;
          if (!projects.has(projectId)) {
            throw conflict(
              `Restoring text item ${developerId}: its project ${projectId} no longer exists; restore the project first`,
            );
          }
          if (str(then.componentId) !== null) {
            instances.push({ plan, then });
            continue;
          }
        }
        const html = isRich(then);
        const item: TextInput = { developerId, ...ownFields(kind, then, place), ...textFields(then, html) };
        if (kind === 'component' && typeof then.name === 'string') item.name = then.name;
        if (kind === 'textItem' && str(then.baseTextItemId) !== null) item.baseTextItemId = then.baseTextItemId;
        if (item.text === undefined) item.text = '';
        creates.add([kind === 'textItem' ? (str(then.projectId) ?? '') : '', html ? 'html' : ''], item);
      } else if (plan.base) {
        const fields = changedFields(plan.base);
        const html = isRich(fields);
        if (kind === 'textItem' && 'componentId' in fields) {
          const componentId = str(fields.componentId);
          if (componentId !== null) links.push({ developerId, componentId });
          else unlinks.push(developerId);
        }
        // An instance's text is its component's: only its own fields go back.
        const content = textFields(fields, html);
        if (str(fields.componentId) !== null) {
          delete content.text;
          delete content.plurals;
        }
        // A move to another project goes back in the last step, with its block (see `moves`).
        const movedProject = kind === 'textItem' && 'projectId' in fields && str(fields.projectId) !== null;
        const own = ownFields(kind, { projectId: null, ...fields }, place);
        if (movedProject) delete own.blockId;
        const item: TextInput = { developerId, ...own, ...content };
        if (Object.keys(item).length > 1) updates.add(['', html ? 'html' : ''], item);
        const move: TextInput = { developerId };
        if (plan.developerIdThen !== plan.developerIdNow) move.newDeveloperId = plan.developerIdThen;
        if (movedProject) {
          const projectId = str(fields.projectId) as string;
          if (!projects.has(projectId)) {
            throw conflict(
              `Restoring text item ${plan.developerIdThen}: its project ${projectId} no longer exists; restore the project first`,
            );
          }
          move.projectId = projectId;
          move.blockId = place.block(projectId, str(plan.base.was.blockId ?? null));
        }
        if (Object.keys(move).length > 1) moves.push(move);
      }
      for (const [variantId, side] of plan.variants) {
        // A variant value added since stays: values are removed only with their variant.
        if (!side.existed) continue;
        const values = side.exists && todo !== 'create' ? changedFields(side) : side.was;
        const html = isRich(values);
        const item: TextInput = { developerId, ...textFields(values, html) };
        if (Object.keys(item).length > 1) updates.add([variantId, html ? 'html' : ''], item);
      }
    }

    for (const { key, items } of creates.groups.values()) {
      const [container, mode] = key as [string, string];
      const richText = mode === 'html' ? { richText: 'html' as const } : {};
      await step(planOf.get(items[0]?.developerId ?? '') ?? null, () =>
        planned((trx) =>
          kind === 'component'
            ? deps.components.createIn(trx, workspaceId, { components: items, ...richText }, userIds)
            : deps.textItems.createIn(
                trx,
                workspaceId,
                { projectId: container, textItems: items, ...richText },
                userIds,
              ),
        ),
      );
    }
    for (const { plan, then } of instances) {
      const projectId = str(then.projectId) as string;
      await step(plan, () =>
        deps.textItems.place(scope, {
          componentId: str(then.componentId) as string,
          projectId,
          blockId: place.block(projectId, str(then.blockId)),
          developerId: plan.developerIdThen,
        }),
      );
      const own: TextInput = { developerId: plan.developerIdThen };
      for (const name of ['tags', 'notes', 'characterLimit', 'status', 'assignee'] as const) {
        if (name in then && then[name] !== null) own[name] = then[name];
      }
      if (Object.keys(own).length > 1) updates.add(['', ''], own);
    }
    if (unlinks.length > 0) {
      await step(planOf.get(unlinks[0] as string) ?? null, () => deps.textItems.detach(scope, unlinks));
    }
    if (links.length > 0) {
      await step(planOf.get(links[0]?.developerId ?? '') ?? null, () => deps.textItems.relink(scope, links));
    }
    for (const { key, items } of updates.groups.values()) {
      const [variantId, mode] = key as [string, string];
      const input = {
        updates: items,
        ...(variantId !== '' && { variantId }),
        ...(mode === 'html' && { richText: 'html' as const }),
      };
      await step(planOf.get(items[0]?.developerId ?? '') ?? null, () =>
        planned((trx) => ops.updateIn(trx, workspaceId, input, userIds)),
      );
    }
    if (moves.length > 0) {
      await step(planOf.get(moves[0]?.developerId ?? '') ?? null, () =>
        planned((trx) => ops.updateIn(trx, workspaceId, { updates: moves }, userIds)),
      );
    }
  }

  /** POST /v2/history/restore. */
  async function restore(scope: WriteScope, input: RestoreInput): Promise<RestoreResult> {
    const { workspaceId } = scope;
    // Outside the write: the accounts service reads on its own connection.
    const userIds = await deps.userIdsByEmail(workspaceId);
    let revision: number | null = null;
    const restoring: WriteScope = {
      ...scope,
      onCommitted: (made) => {
        revision = made;
        scope.onCommitted?.(made);
      },
    };
    await writes.composed(restoring, async (trx) => {
      const plans = await plansOf(trx, workspaceId, input);
      await apply(trx, { workspaceId, actor: scope.actor }, plans, userIds);
    });
    return { success: true, revision: revision === null ? null : String(revision) };
  }

  return { restore };
}

export type RestoreService = ReturnType<typeof createRestoreService>;
