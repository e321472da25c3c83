import type { Snapshot } from './snapshot.js';
import { chunks, type StructureContext } from './structure.js';
import {
  baseContent,
  baseFingerprint,
  fingerprint,
  groupRecords,
  isRich,
  type TextGroup,
  variantContent,
  variantFingerprint,
} from './texts.js';

/**
 * Components and text items: created with their plurals and variant values in batches, updated
 * where the target shows something else, left alone where it shows the same records. A text with
 * formatting goes in a request that sends HTML (`richText: html`), the others as plain text, so
 * that plain texts stay plain.
 */

type Kind = 'components' | 'textItems';

export async function copyComponents(
  ctx: StructureContext,
  source: Snapshot,
  target: Snapshot,
  defer: { has(id: string): boolean },
) {
  const wanted = groupRecords(source.components);
  const have = groupRecords(target.components);
  const missing = [...wanted.values()].filter((g) => !have.has(g.id) && !defer.has(g.id));
  ctx.report.progress.phase('components', wanted.size);
  for (const rich of [false, true]) {
    for (const part of chunks(
      missing.filter((g) => isRich(g) === rich),
      ctx.batch,
    )) {
      const components = part.map((g) => ({
        developerId: g.id,
        name: g.record.name ?? g.id,
        folderId: g.record.folderId ?? null,
        ...baseContent(g, rich),
        variants: [...g.variants].map(([id, value]) => variantContent(id, value, rich)),
      }));
      await ctx.services.components.create(ctx.scope, { ...(rich && { richText: 'html' }), components });
      ctx.report.progress.advance(part.length);
    }
  }
  ctx.report.count('components', 'created', missing.length);
  const existing = [...wanted.values()].filter((g) => have.has(g.id));
  for (const g of existing) {
    const there = have.get(g.id);
    if (there?.record.name !== g.record.name)
      ctx.report.skip(`component ${g.id}: its name differs here, and a name cannot change`);
  }
  await updateTexts(ctx, { kind: 'components', groups: existing, have });
  ctx.report.progress.advance(existing.length);
}

/** Items this workspace has in another project or base: where each one is, by developer ID. */
export interface Elsewhere {
  has(id: string): boolean;
  get(id: string): string | undefined;
}

/** Where the text items of one project or base go here. */
export interface ItemPlaces {
  /** The blocks here, by project and name. */
  blockIds: BlockIds;
  /** The items this workspace has in another project or base, by developer ID. */
  elsewhere: Elsewhere;
}

/**
 * The text items of one project or base. `places.elsewhere` holds the items this workspace has in
 * another project or base, by developer ID, with where they are: they are reported, never created
 * twice.
 */
export async function copyTextItems(ctx: StructureContext, source: Snapshot, target: Snapshot, places: ItemPlaces) {
  const { blockIds, elsewhere } = places;
  const wanted = groupRecords(source.textItems);
  const have = groupRecords(target.textItems);
  const moved = [...wanted.values()].filter((g) => !have.has(g.id) && elsewhere.has(g.id));
  for (const g of moved) {
    ctx.report.skip(`text item ${g.id}: it is in project ${elsewhere.get(g.id)} here, and items cannot move`);
  }
  ctx.report.progress.advance(moved.length);
  const missing = [...wanted.values()].filter((g) => !have.has(g.id) && !elsewhere.has(g.id));
  // Base items first: project items derive from them.
  const isBaseItem = (g: TextGroup) => g.record.projectId === g.record.baseId;
  const ordered = [...missing.filter(isBaseItem), ...missing.filter((g) => !isBaseItem(g))];
  // A derivation needs the project connected to the same base here (a source without GET /bases has none).
  const baseOf = new Map(target.projects.map((p) => [p.id, p.baseId ?? null]));
  const derives = (g: TextGroup) => baseOf.get(g.record.projectId as string) === (g.record.baseId ?? null);
  for (const g of missing) {
    if (g.record.baseTextItemId && !isBaseItem(g) && !derives(g)) {
      ctx.report.skip(`text item ${g.id}: derives from base item ${g.record.baseTextItemId}, whose base is not here`);
    }
  }
  let created = 0;
  for (let i = 0; i < ordered.length; ) {
    const first = ordered[i] as TextGroup;
    const rich = isRich(first);
    const container = first.record.projectId as string;
    const part: TextGroup[] = [];
    // One request per run of items in the same container and text mode, in the source's order.
    while (i < ordered.length && part.length < ctx.batch) {
      const g = ordered[i] as TextGroup;
      if (g.record.projectId !== container || isRich(g) !== rich) break;
      part.push(g);
      i += 1;
    }
    const textItems = part.map((g) => ({
      developerId: g.id,
      ...baseContent(g, rich),
      blockId: blockIds.of(container, g.record.blockName ?? null),
      ...(g.record.baseTextItemId && !isBaseItem(g) && derives(g) && { baseTextItemId: g.record.baseTextItemId }),
      variants: [...g.variants].map(([id, value]) => variantContent(id, value, rich)),
    }));
    const where = isBaseItem(first) ? { baseId: container } : { projectId: container };
    await ctx.services.textItems.create(ctx.scope, { ...where, ...(rich && { richText: 'html' }), textItems });
    created += part.length;
    ctx.report.progress.advance(part.length);
  }
  ctx.report.count('textItems', 'created', created);
  const existing = [...wanted.values()].filter((g) => have.has(g.id));
  for (const g of existing) {
    const there = have.get(g.id) as TextGroup;
    if (there.record.projectId !== g.record.projectId) {
      ctx.report.skip(`text item ${g.id}: it is in project ${there.record.projectId} here, and items cannot move`);
    } else if ((there.record.baseTextItemId ?? null) !== (g.record.baseTextItemId ?? null)) {
      ctx.report.skip(`text item ${g.id}: the base item it derives from cannot change`);
    }
  }
  await updateTexts(ctx, { kind: 'textItems', groups: existing, have, blockIds });
  ctx.report.progress.advance(existing.length);
  for (const g of wanted.values()) {
    const link = g.record.componentId;
    if (link && link !== g.id) {
      ctx.report.skip(`text item ${g.id}: a link to component ${link} can only be made by publishing; copied unlinked`);
    }
  }
}

/** Publishes the items the source shows as published, once they exist here unlinked. */
export async function publishItems(ctx: StructureContext, source: Snapshot, target: Snapshot, ids: Set<string>) {
  const components = groupRecords(source.components);
  const here = groupRecords(target.textItems);
  const existing = new Set(groupRecords(target.components).keys());
  let published = 0;
  for (const id of ids) {
    const component = components.get(id);
    if (!component || existing.has(id) || here.get(id)?.record.componentId) continue;
    await ctx.services.components.publish(ctx.scope, {
      textItemId: id,
      name: component.record.name ?? id,
      folderId: component.record.folderId ?? null,
    });
    ctx.report.count('published', 'created');
    published += 1;
  }
  return published;
}

export interface BlockIds {
  of(projectId: string, blockName: string | null): string | null;
}

export function blockIdsOf(target: Snapshot): BlockIds {
  return {
    of(projectId, blockName) {
      if (blockName === null) return null;
      return target.blocks?.get(projectId)?.find((b) => b.name === blockName)?.id ?? null;
    },
  };
}

/** The texts of one kind that exist here, to be updated where they differ. */
interface TextUpdates {
  kind: Kind;
  /** The source's texts. */
  groups: readonly TextGroup[];
  /** The texts here, by developer ID. */
  have: Map<string, TextGroup>;
  /** The blocks here, for text items. */
  blockIds?: BlockIds;
}

/** Base text first, then each variant's values: one PATCH per variant, as the API has it. */
async function updateTexts(ctx: StructureContext, texts: TextUpdates) {
  const { kind, groups, have, blockIds } = texts;
  const changed = groups.filter((g) => fingerprint(g) !== fingerprint(have.get(g.id)));
  ctx.report.count(kind, 'unchanged', groups.length - changed.length);
  ctx.report.count(kind, 'updated', changed.length);
  const service = kind === 'components' ? ctx.services.components : ctx.services.textItems;
  const patch = async (richText: boolean, variantId: string | undefined, updates: Record<string, unknown>[]) => {
    for (const part of chunks(updates, ctx.batch)) {
      const input = { ...(richText && { richText: 'html' as const }), ...(variantId && { variantId }), updates: part };
      await service.update(ctx.scope, input as never);
    }
  };
  for (const rich of [false, true]) {
    const group = changed.filter((g) => isRich(g) === rich);
    const base = group
      .filter((g) => baseFingerprint(g) !== baseFingerprint(have.get(g.id)))
      .map((g) => {
        const there = have.get(g.id) as TextGroup;
        const { text, plurals, ...rest } = baseContent(g, rich);
        // A linked instance shows its component's text: only the component's update changes it.
        const content = there.record.componentId ? rest : { text, plurals, ...rest };
        if (kind === 'components') return { developerId: g.id, ...content, folderId: g.record.folderId ?? null };
        return {
          developerId: g.id,
          ...content,
          blockId: blockIds?.of(g.record.projectId as string, g.record.blockName ?? null) ?? null,
        };
      });
    await patch(rich, undefined, base);
    const variantIds = new Set(group.flatMap((g) => [...g.variants.keys()]));
    for (const variantId of variantIds) {
      const updates = group
        .filter((g) => g.variants.has(variantId))
        .filter((g) => !have.get(g.id)?.record.componentId)
        .filter((g) => variantFingerprint(g, variantId) !== variantFingerprint(have.get(g.id), variantId))
        .map((g) => {
          const { variantId: _id, ...content } = variantContent(variantId, g.variants.get(variantId) as never, rich);
          return { developerId: g.id, ...content };
        });
      await patch(rich, variantId, updates);
    }
  }
  for (const g of changed) {
    const there = have.get(g.id) as TextGroup;
    for (const variantId of there.variants.keys()) {
      if (!g.variants.has(variantId)) {
        ctx.report.skip(
          `${kind === 'components' ? 'component' : 'text item'} ${g.id}: its ${variantId} value exists only here and was kept`,
        );
      }
    }
  }
}
