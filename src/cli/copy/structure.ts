import type { WriteScope } from '../../modules/changes/index.js';
import type { Services } from '../../services.js';
import type { Report } from './report.js';
import type { Snapshot } from './snapshot.js';

/**
 * Everything the texts refer to, written before them: settings, users, the workflow, variants,
 * variables, folders, bases, projects and blocks. Each is created when missing and updated when
 * it differs; a record already equal to the source's is not written at all.
 */

export interface StructureContext {
  services: Services;
  scope: WriteScope;
  batch: number;
  report: Report;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function copySettings(ctx: StructureContext, source: Snapshot, target: Snapshot, rename: boolean) {
  const from = source.workspace;
  if (!from) {
    ctx.report.skip('workspace settings: the source has no GET /workspace');
    return;
  }
  const update = {
    ...(rename && { name: from.name }),
    ...(from.baseLanguage !== undefined && { baseLanguage: from.baseLanguage }),
    ...(from.libraryDeveloperMode !== undefined && { libraryDeveloperMode: from.libraryDeveloperMode }),
  };
  const before = target.workspace;
  await ctx.services.workspace.update(ctx.scope, update);
  const changed = Object.entries(update).some(([k, v]) => (before as Record<string, unknown>)[k] !== v);
  ctx.report.count('workspace', changed ? 'updated' : 'unchanged');
}

/**
 * The source's users, and anyone a record is assigned to (`assignees`, in lower case): assignees
 * must be users of the workspace.
 */
export async function copyUsers(
  ctx: StructureContext,
  source: Snapshot,
  target: Snapshot,
  assignees: ReadonlySet<string>,
) {
  const have = new Set((target.users ?? []).map((u) => u.email.toLowerCase()));
  const wanted = new Map((source.users ?? []).map((u) => [u.email.toLowerCase(), u]));
  for (const email of assignees) {
    if (!wanted.has(email)) wanted.set(email, { email: '', name: '' });
  }
  for (const [email, { name, role }] of wanted) {
    if (have.has(email)) {
      ctx.report.count('users', 'unchanged');
      continue;
    }
    // A source without roles (an older server, the hosted original) gives editors.
    const known = role === 'admin' || role === 'editor' || role === 'commenter' || role === 'viewer' ? role : undefined;
    await ctx.services.accounts.createUser({
      workspaceId: ctx.scope.workspaceId,
      email,
      name: name || undefined,
      role: known,
    });
    ctx.report.count('users', 'created');
  }
}

export async function copyStatuses(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  if (same(source.statuses, target.statuses)) return ctx.report.count('statuses', 'unchanged');
  const kept = new Set(source.statuses.map((s) => s.id));
  const first = source.statuses[0]?.id;
  const reassign = Object.fromEntries(
    target.statuses.filter((s) => !kept.has(s.id) && first !== undefined).map((s) => [s.id, first as string]),
  );
  await ctx.services.statuses.replace(ctx.scope, { statuses: source.statuses, reassign });
  ctx.report.count('statuses', 'updated');
}

export async function copyVariants(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  const have = new Map(target.variants.map((v) => [v.id, v]));
  const missing = source.variants.filter((v) => !have.has(v.id));
  for (const part of chunks(missing, ctx.batch)) {
    await ctx.services.variants.create(
      ctx.scope,
      part.map((v) => ({ developerId: v.id, name: v.name, description: v.description, localeCode: v.localeCode })),
    );
  }
  ctx.report.count('variants', 'created', missing.length);
  const changed = source.variants.filter((v) => have.has(v.id) && !same(v, have.get(v.id)));
  for (const part of chunks(changed, ctx.batch)) {
    await ctx.services.variants.update(
      ctx.scope,
      part.map((v) => ({ developerId: v.id, name: v.name, description: v.description, localeCode: v.localeCode })),
    );
  }
  ctx.report.count('variants', 'updated', changed.length);
  ctx.report.count('variants', 'unchanged', source.variants.length - missing.length - changed.length);
}

export async function copyVariables(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  const have = new Map(target.variables.map((v) => [v.id, v]));
  const missing = source.variables.filter((v) => !have.has(v.id));
  for (const part of chunks(missing, ctx.batch)) {
    await ctx.services.variables.create(
      ctx.scope,
      part.map((v) => ({ name: v.name, type: v.type, data: v.data }) as never),
    );
  }
  ctx.report.count('variables', 'created', missing.length);
  const changed = source.variables.filter((v) => have.has(v.id) && !same(v, have.get(v.id)));
  const retyped = changed.filter((v) => have.get(v.id)?.type !== v.type);
  for (const v of retyped) ctx.report.skip(`variable ${v.id}: its type differs here and a type cannot change`);
  const updates = changed.filter((v) => !retyped.includes(v));
  for (const part of chunks(updates, ctx.batch)) {
    await ctx.services.variables.update(
      ctx.scope,
      part.map((v) => ({ developerId: v.id, data: v.data })),
    );
  }
  ctx.report.count('variables', 'updated', updates.length);
  ctx.report.count('variables', 'unchanged', source.variables.length - missing.length - changed.length);
}

/** Folders parent first, so that every parent exists when its children are created. */
export async function copyFolders(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  const have = new Map(target.folders.map((f) => [f.id, f]));
  const byId = new Map(source.folders.map((f) => [f.id, f]));
  const ordered: Snapshot['folders'] = [];
  const placed = new Set<string>();
  const place = (id: string, path: Set<string>) => {
    const folder = byId.get(id);
    if (!folder || placed.has(id) || path.has(id)) return;
    path.add(id);
    if (folder.parentId !== null) place(folder.parentId, path);
    placed.add(id);
    ordered.push(folder);
  };
  for (const f of source.folders) place(f.id, new Set());
  const missing = ordered.filter((f) => !have.has(f.id));
  for (const part of chunks(missing, ctx.batch)) {
    await ctx.services.folders.create(
      ctx.scope,
      part.map((f) => ({ developerId: f.id, name: f.name, ...(f.parentId !== null && { parentId: f.parentId }) })),
    );
  }
  ctx.report.count('folders', 'created', missing.length);
  for (const f of source.folders) {
    const there = have.get(f.id);
    if (!there) continue;
    if (same(f, there)) ctx.report.count('folders', 'unchanged');
    else ctx.report.skip(`folder ${f.id}: its name or parent differs here, and folders cannot be renamed or moved`);
  }
}
