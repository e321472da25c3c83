import { changesOfRow } from './changes.stored.js';
import type { ChangeAction, ChangeKind } from './changes.types.js';

/**
 * What a restore must do to one record, read from the change log alone. A restore brings records
 * back to how they were at a point of the log: every change made to them from that point on is
 * undone. For each field, the value to restore is the `before` of the first of those changes that
 * touched it, and the value it has now the `after` of the last; a field none of them touched
 * already has the value of that point. A record deleted since is re-created from those values
 * (its delete listed every value it had); one created since is deleted again.
 */

/** The base record or one variant value, over the changes since the point restored to. */
export interface Side {
  /** Whether it existed at the point restored to, and whether it exists now. */
  existed: boolean;
  exists: boolean;
  /** The values to restore: each field touched since, as it was at that point. */
  was: Record<string, unknown>;
  /** The same fields as they are now. */
  is: Record<string, unknown>;
}

export interface RecordPlan {
  kind: ChangeKind;
  ref: string;
  /** The developer ID it had at the point restored to, and the one it has (or last had) now. */
  developerIdThen: string;
  developerIdNow: string;
  /** Null when only variant values changed since. */
  base: Side | null;
  /** By variant developer ID. */
  variants: Map<string, Side>;
}

interface StoredRow {
  id: number;
  kind: string;
  record_ref: string;
  developer_id: string;
  variant_id: string | null;
  action: string;
  fields: string;
}

function addTo(
  side: Side | undefined,
  action: ChangeAction,
  fields: Record<string, { before: unknown; after: unknown }>,
) {
  const out = side ?? { existed: action !== 'created', exists: true, was: {}, is: {} };
  out.exists = action !== 'deleted';
  for (const name in fields) {
    const field = fields[name] as { before: unknown; after: unknown };
    if (!(name in out.was)) out.was[name] = field.before;
    out.is[name] = field.after;
  }
  return out;
}

/** The plan of each record from its rows since the point restored to (oldest first). */
export function planRecords(rows: readonly StoredRow[]): Map<string, RecordPlan> {
  const plans = new Map<string, RecordPlan>();
  for (const row of rows) {
    let plan = plans.get(row.record_ref);
    if (!plan) {
      plan = {
        kind: row.kind as ChangeKind,
        ref: row.record_ref,
        developerIdThen: row.developer_id,
        developerIdNow: row.developer_id,
        base: null,
        variants: new Map(),
      };
      plans.set(row.record_ref, plan);
    }
    plan.developerIdNow = row.developer_id;
    for (const part of changesOfRow(row)) {
      if (part.variantId === null) {
        plan.base = addTo(plan.base ?? undefined, part.action, part.fields);
      } else {
        plan.variants.set(part.variantId, addTo(plan.variants.get(part.variantId), part.action, part.fields));
      }
    }
    // A rename lists the developer ID it had: the first one since is the ID of that point.
    const renamed = plan.base?.was.developerId;
    if (typeof renamed === 'string') plan.developerIdThen = renamed;
  }
  return plans;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields of a side whose value then differs from the value now (what an update must set). */
export function changedFields(side: Side): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in side.was) if (!same(side.was[name], side.is[name])) out[name] = side.was[name];
  return out;
}
