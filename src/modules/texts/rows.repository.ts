import type { Executor } from '../../db/schema.js';
import type { TranslationState } from './texts.types.js';

/**
 * The narrow read behind the app's paged list (`GET /v2/textItems/rows`): every text item of one
 * project (or one of its blocks) as the few columns its order, the list's filters and their counts
 * need. No text, no values: at 100,000 items this is a few integers and a short string per item,
 * which the caller filters, counts, sorts and slices into pages.
 */

export interface RowKeyQuery {
  /** Row id of the project (or base). */
  projectId: number;
  /** Row id of a block: only its items. */
  blockId?: number;
  /** Row id of a variant: each key says the state of the item's own value of it. */
  variantId?: number;
  /** Only these texts (row ids): what a list kept from an earlier revision reads again. */
  textIds?: readonly number[];
}

/** One item: what its order, the list's filters and their counts read of it. */
export interface RowKey {
  id: number;
  developerId: string;
  blockId: number | null;
  position: number;
  /** The stored JSON array of tags (parse it only when a tag filter or the tag list needs it). */
  tags: string;
  status: string;
  assigneeId: number | null;
  integrated: boolean;
  plurals: boolean;
  /** Whether the item lists a variable or its base text has a `{{placeholder}}`. */
  variables: boolean;
  /** The state of its value of the query's variant (absent without one). */
  state?: TranslationState;
}

export async function listRowKeys(db: Executor, workspaceId: number, q: RowKeyQuery): Promise<RowKey[]> {
  const { variantId } = q;
  const rows = await db
    .selectFrom('texts')
    .select((eb) => [
      'texts.id',
      'texts.developer_id',
      'texts.block_id',
      'texts.position',
      'texts.tags',
      'texts.status',
      'texts.assignee_id',
      'texts.integrated',
      'texts.text_version',
      eb('texts.plurals', 'is not', null).as('has_plurals'),
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('text_variables')
              .select('text_variables.text_id')
              .whereRef('text_variables.text_id', '=', 'texts.id'),
          ),
          // A placeholder written but not listed counts too (the editor links them on save).
          eb('texts.text', 'like', '%{{%}}%'),
        ])
        .as('has_variables'),
      eb
        .selectFrom('text_variants')
        .select('text_variants.text_version')
        .whereRef('text_variants.text_id', '=', 'texts.id')
        .where('text_variants.variant_id', '=', variantId ?? -1)
        .as('value_version'),
    ])
    .where('texts.workspace_id', '=', workspaceId)
    .where('texts.kind', '=', 'text_item')
    .where('texts.project_id', '=', q.projectId)
    .$if(q.blockId !== undefined, (qb) => qb.where('texts.block_id', '=', q.blockId as number))
    .$if(q.textIds !== undefined, (qb) => qb.where('texts.id', 'in', [...(q.textIds as number[]), -1]))
    .execute();
  return rows.map((r) => {
    const key: RowKey = {
      id: Number(r.id),
      developerId: r.developer_id,
      blockId: r.block_id === null ? null : Number(r.block_id),
      position: Number(r.position),
      tags: typeof r.tags === 'string' ? r.tags : JSON.stringify(r.tags ?? []),
      status: r.status,
      assigneeId: r.assignee_id === null ? null : Number(r.assignee_id),
      integrated: Boolean(Number(r.integrated)),
      plurals: truthy(r.has_plurals),
      variables: truthy(r.has_variables),
    };
    if (variantId !== undefined) {
      const version = r.value_version;
      key.state =
        version === null || version === undefined
          ? 'missing'
          : Number(version) < Number(r.text_version)
            ? 'outdated'
            : 'upToDate';
    }
    return key;
  });
}

/** A boolean expression's value as either database answers it (1/0 on SQLite, true/false on PostgreSQL). */
const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';
