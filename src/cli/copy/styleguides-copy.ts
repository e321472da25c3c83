import type { Snapshot, Styleguide } from './snapshot.js';
import { chunks, type StructureContext } from './structure.js';

/**
 * Style guides with their sections, rules and wordlist terms, where the source has them. The
 * built-in guide (`default`) exists in every workspace; only its enabled-by-default setting and
 * its entries can change.
 */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const DEFAULT = 'default';

export async function copyStyleguides(ctx: StructureContext, source: Snapshot, target: Snapshot) {
  if (source.styleguides === undefined) {
    ctx.report.skip('style guides: the source has no GET /styleguides');
    return;
  }
  const { services, scope, report } = ctx;
  const have = new Map((target.styleguides ?? []).map((g) => [g.id, g]));
  const missing = source.styleguides.filter((g) => !have.has(g.id));
  for (const part of chunks(missing, ctx.batch)) {
    await services.styleguides.create(
      scope,
      part.map((g) => ({
        developerId: g.id,
        name: g.name,
        description: g.description,
        enabledByDefault: g.enabledByDefault,
        variantId: g.variantId,
        sections: g.sections,
      })),
    );
  }
  report.count('styleguides', 'created', missing.length);
  for (const g of source.styleguides) {
    const there = have.get(g.id);
    if (!there) continue;
    const meta = (s: Styleguide) => [s.name, s.description, s.enabledByDefault, s.variantId, s.sections];
    if (same(meta(g), meta(there))) continue;
    if (g.id === DEFAULT) {
      await services.styleguides.update(scope, { developerId: g.id, enabledByDefault: g.enabledByDefault });
      continue;
    }
    await services.styleguides.update(scope, {
      developerId: g.id,
      name: g.name,
      ...(g.description && { description: g.description }),
      enabledByDefault: g.enabledByDefault,
      variantId: g.variantId,
      sections: g.sections,
    });
    report.count('styleguides', 'updated');
  }
  await copyEntries(ctx, source.styleguides, have);
}

async function copyEntries(ctx: StructureContext, guides: Styleguide[], have: Map<string, Styleguide>) {
  const { services, scope, report } = ctx;
  const newRules = [];
  const changedRules = [];
  const newTerms = [];
  const changedTerms = [];
  for (const g of guides) {
    const rules = new Map((have.get(g.id)?.rules ?? []).map((r) => [r.id, r]));
    const terms = new Map((have.get(g.id)?.terms ?? []).map((t) => [t.id, t]));
    for (const { id, ...rule } of g.rules) {
      const entry = { styleguideId: g.id, developerId: id, ...rule };
      if (!rules.has(id)) newRules.push(entry);
      else if (!same({ id, ...rule }, rules.get(id))) changedRules.push(entry);
    }
    for (const { id, ...term } of g.terms) {
      const entry = { styleguideId: g.id, developerId: id, ...term };
      if (!terms.has(id)) newTerms.push(entry);
      else if (!same({ id, ...term }, terms.get(id))) changedTerms.push(entry);
    }
  }
  for (const part of chunks(newRules, ctx.batch)) await services.styleguides.rules.create(scope, part as never);
  for (const part of chunks(changedRules, ctx.batch)) await services.styleguides.rules.update(scope, part as never);
  for (const part of chunks(newTerms, ctx.batch)) await services.styleguides.terms.create(scope, part as never);
  for (const part of chunks(changedTerms, ctx.batch)) await services.styleguides.terms.update(scope, part as never);
  report.count('styleguideEntries', 'created', newRules.length + newTerms.length);
  report.count('styleguideEntries', 'updated', changedRules.length + changedTerms.length);
}
