import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database, Executor, StoredPlural } from '../../db/schema.js';
import { now } from '../../db/transaction.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { parseRichText } from '../../richtext/index.js';
import { idCursor } from '../../shared/cursor.js';
import { assertDistinctIds } from '../../shared/distinct-ids.js';
import { type Change, changeOf, type PlannedWrite, type WritePath, type WriteScope } from '../changes/index.js';
import {
  assertIfMatch,
  countsPerText,
  developerIdsByRowIds,
  loadTextsByDeveloperIds,
  resolveListScope,
  type TextEntity,
  type TextKind,
  textEtag,
  textTargets,
} from '../texts/index.js';
import * as repo from './suggestions.repository.js';
import {
  type Content,
  type CountsQuery,
  LIST_MAX_LIMIT,
  type NewSuggestionInput,
  type SuggestionDetail,
  type SuggestionRecord,
  type SuggestionsQuery,
} from './suggestions.schemas.js';
import { type WordDiff, wordDiff } from './word-diff.js';

export type { NewSuggestionInput, SuggestionDetail, SuggestionRecord, SuggestionsQuery };

/**
 * Suggestions (docs/suggestions.md): a proposed change of a text's content (its text, its plural
 * forms, or one variant's), kept with the content and ETag it was made against, applied only when
 * an editor accepts it, and then through the very updates a PATCH makes (`updateIn`, handed over
 * in src/services.ts), with the suggestion's ETag as If-Match. Every write of a suggestion goes
 * through the write path as changes of kind `suggestion`.
 */

/** One PATCH of one text, as an accept hands it to the text's own service. */
export interface TextUpdate {
  variantId?: string;
  richText?: 'html';
  updates: { developerId: string; text?: string; plurals?: { form: StoredPlural['form']; text: string }[] }[];
}

/** The PATCH's updates of one kind inside the caller's write: checked whole, answered as the plan to apply. */
export type UpdateIn = (
  trx: Transaction<Database>,
  workspaceId: number,
  input: TextUpdate,
  userIds: ReadonlyMap<string, number>,
) => Promise<PlannedWrite<undefined>>;

/** Who acts on suggestions: the write's scope and the user the authorship rules need. */
export interface SuggestionActor {
  scope: WriteScope;
  userId: number;
  email: string;
}

/** What the service takes from the modules around it (src/services.ts hands them). */
export interface SuggestionsDeps {
  db: Kysely<Database>;
  writes: WritePath;
  variantsOf: (executor: Executor, workspaceId: number) => Promise<readonly { id: number; developerId: string }[]>;
  projectsOf: (executor: Executor, workspaceId: number) => Promise<readonly { id: number; developerId: string }[]>;
  /** Read outside the write, as the PATCH reads them. */
  userIdsByEmail: (workspaceId: number) => Promise<ReadonlyMap<string, number>>;
  supSubEnabled: (executor: Executor, workspaceId: number) => Promise<boolean>;
  /** The text items' and the components' PATCH updates (`textItems.updateIn`, `components.updatesIn`). */
  updateIn: Record<TextKind, UpdateIn>;
}

const DEFAULT_LIMIT = 100;
const cursor = idCursor('sg1:');
/** The states a suggestion may still be decided in. */
const UNDECIDED = new Set<repo.SuggestionStatus>(['open', 'stale']);

const newSuggestionId = () => `sg_${randomBytes(8).toString('hex')}`;

const identity = (row: { id: number; developer_id: string }) => ({
  kind: 'suggestion' as const,
  ref: `suggestion:${row.id}`,
  developerId: row.developer_id,
});

const parsePlurals = (json: string | null): StoredPlural[] | null =>
  json === null ? null : (JSON.parse(json) as StoredPlural[]);

/** A text's content, or one variant's value of it (null when it has none). */
function contentOf(entity: TextEntity, variantId: number | null): (Content & { etag: string }) | null {
  const owner = variantId === null ? entity : entity.variants.find((v) => v.variantId === variantId);
  if (!owner) return null;
  return {
    etag: textEtag(entity.id, entity.revision ?? 0),
    text: owner.text,
    richText: owner.richText,
    plurals: owner.plurals?.map((p) => ({ form: p.form, text: p.text, richText: p.richText ?? null })) ?? null,
  };
}

const EMPTY: Content = { text: '', richText: null, plurals: null };

/** The diff of two contents: the text, and each plural form either side has when `plurals` take part. */
function diffOf(before: Content, after: Content, withPlurals: boolean) {
  const plurals: (WordDiff & { form: string })[] = [];
  if (withPlurals) {
    const forms = [...new Set([...(before.plurals ?? []), ...(after.plurals ?? [])].map((p) => p.form))];
    for (const form of forms) {
      const was = before.plurals?.find((p) => p.form === form)?.text ?? '';
      const is = after.plurals?.find((p) => p.form === form)?.text ?? '';
      plurals.push({ form, ...wordDiff(was, is) });
    }
  }
  return { text: wordDiff(before.text, after.text), plurals };
}

/**
 * An error of the PATCH's checks, said of the element that caused it: `updates[0].plurals: ...`
 * becomes `suggestions[2].plurals: ...` (or, with a prefix, `ids[2]: <prefix>plurals: ...`).
 */
function asElementError(error: unknown, path: string, prefix = ''): unknown {
  if (!(error instanceof AppError) || error.code === 'internal') return error;
  const own = /^updates\[0\]/.exec(error.message);
  const rest = own ? error.message.slice(own[0].length) : `: ${error.message}`;
  const named = prefix ? `${path}: ${prefix}${rest.replace(/^[.:]\s*/, '')}` : `${path}${rest}`;
  return new AppError(error.code, named);
}

export function createSuggestionsService(deps: SuggestionsDeps) {
  const { db, writes } = deps;

  /** What a row proposes, as the API shows it: plain text, and the HTML when it is rich. */
  function proposedOf(row: repo.SuggestionRow, supSub: boolean): Content {
    const rich = row.rich_text === 1;
    const plain = (text: string) => (rich ? parseRichText(text, { supSub }) : { text, html: null });
    const plurals = parsePlurals(row.proposed_plurals);
    const display = plain(row.proposed_text ?? plurals?.[0]?.text ?? '');
    return {
      text: display.text,
      richText: display.html,
      plurals:
        plurals?.map((p) => {
          const parsed = plain(p.text);
          return { form: p.form, text: parsed.text, richText: parsed.html };
        }) ?? null,
    };
  }

  /** Rows as the API shows them: the texts', projects' and variants' developer IDs as they are now. */
  async function present(executor: Executor, workspaceId: number, rows: readonly repo.SuggestionRow[]) {
    if (rows.length === 0) return [];
    const live = rows.flatMap((r) => (r.text_id === null ? [] : [r.text_id]));
    const texts = await developerIdsByRowIds(executor, workspaceId, live);
    const projects = rows.some((r) => r.project_id !== null)
      ? new Map((await deps.projectsOf(executor, workspaceId)).map((p) => [p.id, p.developerId]))
      : new Map<number, string>();
    const variants = rows.some((r) => r.variant_id !== null)
      ? new Map((await deps.variantsOf(executor, workspaceId)).map((v) => [v.id, v.developerId]))
      : new Map<number, string>();
    const supSub = rows.some((r) => r.rich_text === 1) ? await deps.supSubEnabled(executor, workspaceId) : false;
    return rows.map((r): SuggestionRecord => {
      const alive = r.text_id !== null && texts.has(r.text_id);
      const recordId = alive ? (texts.get(r.text_id as number) as string) : r.record_developer_id;
      return {
        id: r.developer_id,
        textItemId: r.record_kind === 'text_item' ? recordId : null,
        componentId: r.record_kind === 'component' ? recordId : null,
        projectId: r.project_id === null ? null : (projects.get(r.project_id) ?? null),
        variantId: r.variant_id === null ? null : (variants.get(r.variant_id) ?? r.variant_developer_id),
        recordDeleted: !alive,
        status: r.status,
        author: r.author_email,
        note: r.note,
        createdAt: r.created_at,
        proposed: proposedOf(r, supSub),
        base: {
          etag: r.base_etag,
          exists: r.base_text !== null,
          text: r.base_text ?? '',
          richText: r.base_rich_text,
          plurals: parsePlurals(r.base_plurals)?.map((p) => ({ ...p, richText: p.richText ?? null })) ?? null,
        },
        decidedAt: r.decided_at,
        decidedBy: r.decided_by,
        decisionNote: r.decision_note,
      };
    });
  }

  /** A suggestion as the change log records its creation. */
  const loggedFields = (s: SuggestionRecord) => ({
    textItemId: s.textItemId,
    componentId: s.componentId,
    projectId: s.projectId,
    variantId: s.variantId,
    author: s.author,
    note: s.note,
    status: s.status,
    proposed: s.proposed,
    base: s.base,
  });

  /** The suggestions named, in order; an unknown id is a 404 naming its element. */
  async function requireSuggestions(executor: Executor, workspaceId: number, ids: readonly string[]) {
    const byId = new Map((await repo.findSuggestions(executor, workspaceId, ids)).map((r) => [r.developer_id, r]));
    return ids.map((id, index) => {
      const row = byId.get(id);
      if (!row) throw notFound(`ids[${index}]: Suggestion ${id} not found`);
      return row;
    });
  }

  function assertUndecided(rows: readonly repo.SuggestionRow[], what: string) {
    rows.forEach((row, index) => {
      if (!UNDECIDED.has(row.status)) {
        throw conflict(
          `ids[${index}]: suggestion ${row.developer_id} is ${row.status}; only an open or stale suggestion can be ${what}`,
        );
      }
    });
  }

  /** The texts the rows are on, by row id; a text deleted meanwhile is absent. */
  async function textsOf(executor: Executor, workspaceId: number, rows: readonly repo.SuggestionRow[]) {
    const ids = await developerIdsByRowIds(
      executor,
      workspaceId,
      rows.flatMap((r) => (r.text_id === null ? [] : [r.text_id])),
    );
    const out = new Map<number, TextEntity>();
    for (const kind of ['text_item', 'component'] as const) {
      const wanted = rows.filter((r) => r.record_kind === kind && r.text_id !== null && ids.has(r.text_id));
      if (wanted.length === 0) continue;
      const loaded = await loadTextsByDeveloperIds(
        executor,
        workspaceId,
        kind,
        wanted.map((r) => ids.get(r.text_id as number) as string),
      );
      for (const entity of loaded) out.set(entity.id, entity);
    }
    return out;
  }

  /** The shape rules a schema cannot say, checked for the whole batch before anything is read. */
  function checkNew(input: NewSuggestionInput, path: string) {
    if (input.textItemId === undefined && input.componentId === undefined) {
      throw badRequest(`${path}.textItemId: a suggestion names its text (textItemId or componentId)`);
    }
    if (input.textItemId !== undefined && input.componentId !== undefined) {
      throw badRequest(`${path}.componentId: name one text, textItemId or componentId, not both`);
    }
    if (input.text === undefined && input.plurals === undefined) {
      throw badRequest(`${path}.text: a suggestion proposes a text or plural forms (plurals)`);
    }
    if (input.note !== undefined && input.note.trim() === '') throw badRequest(`${path}.note: must not be blank`);
  }

  /** The PATCH a suggestion's accept makes (and its create checks): one update of one text. */
  const patchOf = (input: {
    developerId: string;
    variantId: string | null;
    rich: boolean;
    text: string | null;
    plurals: StoredPlural[] | null;
  }): TextUpdate => ({
    ...(input.variantId !== null && { variantId: input.variantId }),
    ...(input.rich && { richText: 'html' as const }),
    updates: [
      {
        developerId: input.developerId,
        ...(input.text !== null && { text: input.text }),
        ...(input.plurals !== null && { plurals: input.plurals.map((p) => ({ form: p.form, text: p.text })) }),
      },
    ],
  });

  /**
   * Creates all the suggestions or none; answers their ids in request order. `knownUserIds` (the
   * workspace's users, read before) lets a caller create them inside its own composed write, where
   * a read outside the write's transaction would wait for it (SQLite's one connection).
   */
  async function create(
    actor: SuggestionActor,
    inputs: readonly NewSuggestionInput[],
    knownUserIds?: ReadonlyMap<string, number>,
  ): Promise<string[]> {
    const { workspaceId } = actor.scope;
    inputs.forEach((input, index) => {
      checkNew(input, `suggestions[${index}]`);
    });
    const userIds = knownUserIds ?? (await deps.userIdsByEmail(workspaceId));
    return writes.write(actor.scope, async (trx) => {
      const targetOf = await textTargets(trx, workspaceId, { inputs, variantsOf: deps.variantsOf });
      const at = now();
      const rows: repo.NewSuggestionRow[] = [];
      for (const [index, input] of inputs.entries()) {
        const path = `suggestions[${index}]`;
        const { developerId, text, variantId } = targetOf(input, path);
        const base = contentOf(text, variantId);
        const rich = input.richText === 'html';
        if (base && !rich && input.plurals === undefined && base.richText === null && input.text === base.text) {
          throw badRequest(`${path}.text: the text already reads so; there is nothing to suggest`);
        }
        // The PATCH's own checks (limits, plural forms, instances, variables), without applying it.
        const patch = patchOf({
          developerId,
          variantId: input.variantId ?? null,
          rich,
          text: input.text ?? null,
          plurals: input.plurals ?? null,
        });
        try {
          await deps.updateIn[text.kind](trx, workspaceId, patch, userIds);
        } catch (error) {
          throw asElementError(error, path);
        }
        rows.push({
          developer_id: newSuggestionId(),
          record_kind: text.kind,
          text_id: text.id,
          record_developer_id: text.developerId,
          project_id: text.kind === 'text_item' ? text.projectId : null,
          variant_id: variantId,
          variant_developer_id: input.variantId ?? null,
          author_id: actor.userId,
          author_email: actor.email.toLowerCase(),
          note: input.note ?? null,
          rich_text: rich ? 1 : 0,
          proposed_text: input.text ?? null,
          proposed_plurals: input.plurals === undefined ? null : JSON.stringify(input.plurals),
          base_etag: textEtag(text.id, text.revision ?? 0),
          base_text: base?.text ?? null,
          base_rich_text: base?.richText ?? null,
          base_plurals: base?.plurals ? JSON.stringify(base.plurals) : null,
          status: 'open',
          created_at: at,
        });
      }
      const ids = await repo.insertSuggestions(trx, workspaceId, rows);
      const created = await present(
        trx,
        workspaceId,
        await repo.findSuggestions(
          trx,
          workspaceId,
          rows.map((r) => r.developer_id),
        ),
      );
      const byId = new Map(created.map((s) => [s.id, s]));
      const changes = rows.map(
        (row, index) =>
          changeOf(
            identity({ id: ids[index] as number, developer_id: row.developer_id }),
            null,
            loggedFields(byId.get(row.developer_id) as SuggestionRecord),
          ) as Change,
      );
      return { changes, result: rows.map((r) => r.developer_id) };
    });
  }

  /**
   * Accepts suggestions, all or none: each is applied as a PATCH of its text by the accepter, with
   * the suggestion's base ETag as If-Match. When a text changed since its suggestion, nothing is
   * applied: the suggestions found so are marked `stale` (that much is written) and the answer is
   * a 409. `force` applies stale suggestions over the text as it is now.
   */
  async function accept(actor: SuggestionActor, ids: readonly string[], force = false): Promise<void> {
    const { workspaceId } = actor.scope;
    assertDistinctIds(ids, (index) => `ids[${index}]`, 'suggestion id');
    // Outside the write, as a PATCH reads them.
    const userIds = await deps.userIdsByEmail(workspaceId);
    const stale = await writes.composed(actor.scope, async (trx) => {
      const rows = await requireSuggestions(trx, workspaceId, ids);
      assertUndecided(rows, 'accepted');
      const texts = await textsOf(trx, workspaceId, rows);
      const seen = new Map<number, number>();
      const targets = rows.map((row, index) => {
        const entity = row.text_id === null ? undefined : texts.get(row.text_id);
        if (!entity) throw conflict(`ids[${index}]: the text of suggestion ${row.developer_id} was deleted`);
        const other = seen.get(entity.id);
        if (other !== undefined) {
          throw badRequest(
            `ids[${index}]: suggestion ${row.developer_id} is on the same text as ids[${other}]; accept one at a time`,
          );
        }
        seen.set(entity.id, index);
        return { row, entity, etag: textEtag(entity.id, entity.revision ?? 0) };
      });
      const changed = targets.filter((t) => t.etag !== t.row.base_etag);
      if (changed.length > 0 && !force) {
        const marking = changed.filter((t) => t.row.status !== 'stale');
        await writes.write(actor.scope, async () => ({
          changes: marking.map(
            (t) => changeOf(identity(t.row), { status: t.row.status }, { status: 'stale' }) as Change,
          ),
          apply: async (trx) => {
            for (const t of marking) await repo.updateSuggestion(trx, workspaceId, t.row.id, { status: 'stale' });
          },
          result: undefined,
        }));
        return changed.map((t) => ({ index: rows.indexOf(t.row), row: t.row, etag: t.etag }));
      }
      const variantNames = rows.some((r) => r.variant_id !== null)
        ? new Map((await deps.variantsOf(trx, workspaceId)).map((v) => [v.id, v.developerId]))
        : new Map<number, string>();
      // The PATCH of each text, by the accepter, through the text's own service.
      for (const [index, { row, entity, etag }] of targets.entries()) {
        const patch = patchOf({
          developerId: entity.developerId,
          variantId:
            row.variant_id === null ? null : (variantNames.get(row.variant_id) ?? (row.variant_developer_id as string)),
          rich: row.rich_text === 1,
          text: row.proposed_text,
          plurals: parsePlurals(row.proposed_plurals),
        });
        // A rebase sends the ETag as it is now: the write path holds the workspace's lock, so it is still so.
        const ifMatch = new Set([force ? etag : row.base_etag]);
        try {
          await writes.write(actor.scope, async (trx) => {
            await assertIfMatch(trx, workspaceId, { kind: entity.kind, developerIds: [entity.developerId] }, ifMatch);
            return deps.updateIn[entity.kind](trx, workspaceId, patch, userIds);
          });
        } catch (error) {
          throw asElementError(error, `ids[${index}]`, `suggestion ${row.developer_id} cannot be applied: `);
        }
      }
      const at = now();
      const by = actor.scope.actor.email;
      await writes.write(actor.scope, async () => {
        const records = await present(
          trx,
          workspaceId,
          targets.map((t) => t.row),
        );
        const changes = targets.map(
          ({ row, etag }, index) =>
            changeOf(
              identity(row),
              { status: row.status },
              {
                status: 'accepted',
                decidedBy: by,
                suggestedBy: row.author_email,
                textItemId: records[index]?.textItemId ?? null,
                componentId: records[index]?.componentId ?? null,
                variantId: records[index]?.variantId ?? null,
                ...(etag !== row.base_etag && { rebasedOnto: etag }),
              },
              'accepted',
            ) as Change,
        );
        return {
          changes,
          apply: async (trx) => {
            for (const { row, entity, etag } of targets) {
              // A rebase records the content it was applied over as its base.
              const rebase =
                etag === row.base_etag
                  ? {}
                  : (() => {
                      const base = contentOf(entity, row.variant_id);
                      return {
                        base_etag: etag,
                        base_text: base?.text ?? null,
                        base_rich_text: base?.richText ?? null,
                        base_plurals: base?.plurals ? JSON.stringify(base.plurals) : null,
                      };
                    })();
              await repo.updateSuggestion(trx, workspaceId, row.id, {
                status: 'accepted',
                decided_at: at,
                decided_by: by,
                ...rebase,
              });
            }
          },
          result: undefined,
        };
      });
      return [];
    });
    const first = stale[0];
    if (first) {
      throw conflict(
        `ids[${first.index}]: suggestion ${first.row.developer_id} is stale: its text changed since it was suggested (ETag ${first.row.base_etag}, now ${first.etag}). ` +
          `Nothing was applied. GET /v2/suggestions/${first.row.developer_id} shows both diffs; accept it with force: true to apply it over the current text, or reject it`,
      );
    }
  }

  /** Rejects (an editor's decision, with an optional note) or withdraws (the author's) suggestions, all or none. */
  async function decide(
    actor: SuggestionActor,
    decision: { ids: readonly string[]; action: 'rejected' | 'withdrawn'; note?: string },
  ): Promise<void> {
    const { workspaceId } = actor.scope;
    const { ids, action } = decision;
    assertDistinctIds(ids, (index) => `ids[${index}]`, 'suggestion id');
    if (decision.note !== undefined && decision.note.trim() === '') throw badRequest('note: must not be blank');
    await writes.write(actor.scope, async (trx) => {
      const rows = await requireSuggestions(trx, workspaceId, ids);
      assertUndecided(rows, action);
      if (action === 'withdrawn') {
        rows.forEach((row, index) => {
          if (row.author_id !== actor.userId) {
            throw forbidden(
              `ids[${index}]: suggestion ${row.developer_id} is ${row.author_email}'s; only its author may withdraw it (an editor rejects it)`,
            );
          }
        });
      }
      const at = now();
      const by = actor.scope.actor.email;
      const note = decision.note ?? null;
      // A rejection names its author and text, as an accept does: the author is told of it.
      const records = action === 'rejected' ? await present(trx, workspaceId, rows) : [];
      const changes = rows.map(
        (row, index) =>
          changeOf(
            identity(row),
            { status: row.status },
            {
              status: action,
              decidedBy: by,
              ...(action === 'rejected' && {
                decisionNote: note,
                suggestedBy: row.author_email,
                textItemId: records[index]?.textItemId ?? null,
                componentId: records[index]?.componentId ?? null,
                variantId: records[index]?.variantId ?? null,
              }),
            },
            action,
          ) as Change,
      );
      return {
        changes,
        apply: async (trx) => {
          for (const row of rows) {
            await repo.updateSuggestion(trx, workspaceId, row.id, {
              status: action,
              decided_at: at,
              decided_by: by,
              decision_note: action === 'rejected' ? note : null,
            });
          }
        },
        result: undefined,
      };
    });
  }

  /** GET /v2/suggestions: a page of the suggestions the query selects, oldest first. */
  async function list(
    workspaceId: number,
    query: SuggestionsQuery,
  ): Promise<{ suggestions: SuggestionRecord[]; nextCursor: string | null }> {
    const scope = await resolveListScope(db, workspaceId, query, {
      defaultLimit: DEFAULT_LIMIT,
      maxLimit: LIST_MAX_LIMIT,
      cursor,
      hasDeletedRecord: async (deletedRecord) =>
        (await repo.listSuggestions(db, workspaceId, { deletedRecord, limit: 1 })).length > 0,
      projectsOf: () => deps.projectsOf(db, workspaceId),
    });
    const { limit } = scope;
    const filter: repo.SuggestionFilter = scope.filter;
    if (query.author !== undefined) filter.authorEmail = query.author.trim().toLowerCase();
    if (query.status !== undefined) filter.statuses = [query.status];
    const rows = await repo.listSuggestions(db, workspaceId, filter);
    const { page, nextCursor } = cursor.page(rows, limit);
    return { suggestions: await present(db, workspaceId, page), nextCursor };
  }

  /** GET /v2/suggestions/counts: open and stale suggestions per text that has any. */
  function counts(workspaceId: number, query: CountsQuery) {
    return countsPerText(db, workspaceId, query, {
      projectsOf: () => deps.projectsOf(db, workspaceId),
      countRows: (projectId) => repo.pendingCounts(db, workspaceId, projectId),
    });
  }

  /** GET /v2/suggestions/{id}: the suggestion, its diff, and the text as it is now. */
  async function get(workspaceId: number, id: string): Promise<SuggestionDetail> {
    const rows = await repo.findSuggestions(db, workspaceId, [id]);
    const row = rows[0];
    if (!row) throw notFound(`Suggestion ${id} not found`);
    const [record] = (await present(db, workspaceId, rows)) as [SuggestionRecord];
    const entity = row.text_id === null ? undefined : (await textsOf(db, workspaceId, rows)).get(row.text_id);
    const current = entity ? contentOf(entity, row.variant_id) : null;
    const currentEtag = entity ? textEtag(entity.id, entity.revision ?? 0) : null;
    const base: Content = record.base.exists ? record.base : EMPTY;
    const baseChanged = currentEtag !== null && currentEtag !== row.base_etag;
    const shown = current ?? (entity ? EMPTY : null);
    return {
      ...record,
      diff: diffOf(base, record.proposed, record.proposed.plurals !== null),
      current: shown && currentEtag !== null ? { ...shown, etag: currentEtag } : null,
      baseChanged,
      currentDiff: baseChanged && shown ? diffOf(base, shown, base.plurals !== null || shown.plurals !== null) : null,
    };
  }

  // A text's deletion closes its open suggestions as obsolete, in the deletion's own transaction.
  // A write that deletes no text, or in a workspace without suggestions, costs a look over its
  // changes and at most one indexed read.
  writes.subscribe(async (trx, scope, changes, at) => {
    const deleted: { textId: number; developerId: string }[] = [];
    for (const change of changes) {
      if (change.action !== 'deleted' || change.variantId !== null) continue;
      if (change.kind !== 'textItem' && change.kind !== 'component') continue;
      const rowId = Number(change.ref.slice(change.ref.indexOf(':') + 1));
      if (Number.isSafeInteger(rowId)) deleted.push({ textId: rowId, developerId: change.developerId });
    }
    if (deleted.length === 0 || !(await repo.hasSuggestions(trx, scope.workspaceId))) return;
    await repo.closeDeletedTexts(trx, scope.workspaceId, deleted, at);
  });

  return { create, accept, decide, list, get, counts };
}

export type SuggestionsService = ReturnType<typeof createSuggestionsService>;
