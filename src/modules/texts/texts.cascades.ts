import type { Transaction } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import type { Change } from '../changes/index.js';
import * as repo from './texts.repository.js';
import type { TextEntity, TextFieldChanges } from './texts.types.js';
import { type FieldLookups, type FieldLookupsLoader, referencedTextIds, textChanges } from './write-steps.js';

type Trx = Transaction<Database>;

/**
 * What other modules' writes do to components and text items: moving them out of a deleted
 * folder or block, reassigning a removed status, deleting a project's items, removing a variant's
 * values, unassigning a removed user. Each runs inside the caller's write, changes only the `texts` tables, and answers the
 * change of every record it touched, for the change log. Call them before deleting the rows they
 * refer to, so that the changes still name them.
 */
export function createTextCascades(loadLookups: FieldLookupsLoader) {
  async function lookupsFor(
    trx: Executor,
    workspaceId: number,
    entities: readonly TextEntity[],
  ): Promise<FieldLookups> {
    const [base, texts] = await Promise.all([
      loadLookups(trx, workspaceId),
      repo.developerIdsByRowIds(trx, workspaceId, referencedTextIds(entities)),
    ]);
    return { ...base, texts };
  }

  /** Loads the texts, lets `step.write` change the rows, and answers the changes `step.next` predicts for each. */
  async function cascade(
    trx: Trx,
    workspaceId: number,
    refs: readonly repo.TextRef[],
    step: {
      /** Each text as the write leaves it; null when it goes. */
      next: (entity: TextEntity) => TextEntity | null;
      write: () => Promise<void>;
    },
  ): Promise<Change[]> {
    const { next, write } = step;
    if (refs.length === 0) return [];
    const entities = await repo.loadTextsByRefs(trx, workspaceId, refs);
    const lookups = await lookupsFor(trx, workspaceId, entities);
    await write();
    return entities.flatMap((entity) => textChanges(entity, next(entity), lookups));
  }

  const withFields = (entity: TextEntity, changes: TextFieldChanges) => ({ ...entity, ...changes }) as TextEntity;

  return {
    lookupsFor,
    variableUsage: repo.variableUsage,

    /** The statuses among `keys` that a text or variant value still carries. */
    async statusesInUse(trx: Trx, workspaceId: number, keys: readonly string[]): Promise<string[]> {
      const entities = await repo.loadTextsByRefs(
        trx,
        workspaceId,
        await repo.textsWithStatuses(trx, workspaceId, keys),
      );
      const wanted = new Set(keys);
      const used = new Set<string>();
      for (const e of entities) {
        if (wanted.has(e.status)) used.add(e.status);
        for (const v of e.variants) if (wanted.has(v.status)) used.add(v.status);
      }
      return keys.filter((key) => used.has(key));
    },

    /** Every text or variant value in a status of `mapping`'s keys moves to the mapped status. */
    async reassignStatuses(trx: Trx, workspaceId: number, mapping: ReadonlyMap<string, string>): Promise<Change[]> {
      const to = (status: string) => mapping.get(status) ?? status;
      return cascade(trx, workspaceId, await repo.textsWithStatuses(trx, workspaceId, [...mapping.keys()]), {
        next: (e) => ({
          ...withFields(e, { status: to(e.status) }),
          variants: e.variants.map((v) => ({ ...v, status: to(v.status) })),
        }),
        write: async () => {
          for (const [from, into] of mapping) await repo.reassignStatus(trx, workspaceId, from, into);
        },
      });
    },

    /** Every text or variant value assigned to the user loses its assignee (the user is being removed). */
    async unassignUser(trx: Trx, workspaceId: number, userId: number): Promise<Change[]> {
      const unassign = <T extends { assigneeId: number | null }>(value: T): T =>
        value.assigneeId === userId ? { ...value, assigneeId: null } : value;
      return cascade(trx, workspaceId, await repo.textsAssignedTo(trx, workspaceId, userId), {
        next: (e) => ({ ...unassign(e), variants: e.variants.map(unassign) }) as TextEntity,
        write: () => repo.unassignUser(trx, workspaceId, userId),
      });
    },

    /** The components directly in any of `folderIds` move to the folder `to` (null: the library root). */
    async moveComponents(trx: Trx, workspaceId: number, folderIds: readonly number[], to: number | null) {
      if (folderIds.length === 0) return [];
      const refs = await repo.textsWhere(trx, workspaceId, { folderIds });
      return cascade(trx, workspaceId, refs, {
        next: (e) => withFields(e, { folderId: to }),
        write: () =>
          repo.updateTexts(
            trx,
            workspaceId,
            refs.map((r) => r.id),
            { folder_id: to },
          ),
      });
    },

    /** The text items of any of `blockIds` leave their block (they stay in their project). */
    async detachFromBlocks(trx: Trx, workspaceId: number, blockIds: readonly number[]) {
      if (blockIds.length === 0) return [];
      const refs = await repo.textsWhere(trx, workspaceId, { blockIds });
      return cascade(trx, workspaceId, refs, {
        next: (e) => withFields(e, { blockId: null }),
        write: () =>
          repo.updateTexts(
            trx,
            workspaceId,
            refs.map((r) => r.id),
            { block_id: null },
          ),
      });
    },

    /** Deletes every text item of the projects or bases `containerIds`, with their variant values. */
    async deleteTextItemsIn(trx: Trx, workspaceId: number, containerIds: readonly number[]) {
      if (containerIds.length === 0) return [];
      const refs = await repo.textsWhere(trx, workspaceId, { containerIds });
      return cascade(trx, workspaceId, refs, {
        next: () => null,
        write: () =>
          repo.deleteTexts(
            trx,
            workspaceId,
            refs.map((r) => r.id),
          ),
      });
    },

    /**
     * Items of a project that derive from base text items which are not in `baseId` (the project's
     * base after a change; null: none) no longer derive from anything.
     */
    async dropForeignDerivations(trx: Trx, workspaceId: number, projectId: number, baseId: number | null) {
      const items = await repo.textsWhere(trx, workspaceId, { containerIds: [projectId] });
      const entities = await repo.loadTextsByRefs(trx, workspaceId, items);
      const baseItems =
        baseId === null
          ? new Set<number>()
          : new Set((await repo.textsWhere(trx, workspaceId, { containerIds: [baseId] })).map((r) => r.id));
      const foreign = entities.filter(
        (e) => e.kind === 'text_item' && e.baseTextItemId !== null && !baseItems.has(e.baseTextItemId),
      );
      return cascade(
        trx,
        workspaceId,
        foreign.map((e) => ({ id: e.id, kind: e.kind })),
        {
          next: (e) => withFields(e, { baseTextItemId: null }),
          write: () =>
            repo.updateTexts(
              trx,
              workspaceId,
              foreign.map((e) => e.id),
              { base_text_item_id: null },
            ),
        },
      );
    },

    /** Removes the values of the variants `variantIds` from every text. */
    async removeVariantValues(trx: Trx, workspaceId: number, variantIds: readonly number[]) {
      if (variantIds.length === 0) return [];
      const refs = await repo.textsWhere(trx, workspaceId, { variantIds });
      const gone = new Set(variantIds);
      return cascade(trx, workspaceId, refs, {
        next: (e) => ({ ...e, variants: e.variants.filter((v) => !gone.has(v.variantId)) }),
        write: async () => {
          for (const variantId of variantIds) {
            await repo.deleteVariantValues(
              trx,
              refs.map((r) => r.id),
              variantId,
            );
          }
        },
      });
    },
  };
}

export type TextCascades = ReturnType<typeof createTextCascades>;
