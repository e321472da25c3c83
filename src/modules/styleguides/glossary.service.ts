import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { variantNotFoundMessage } from '../../shared/not-found.js';
import type { GlossaryQuery, GlossaryResponse } from './glossary.schemas.js';
import { scopeCovers } from './lint/engine.js';
import type { GuideTerm } from './lint/types.js';
import { compileWordlist, termsPresent, tokenize } from './lint/wordlist.js';
import { loadGuides, type VariantNames } from './styleguides.load.js';
import { indexGuides, toGuideData } from './styleguides.records.js';

/**
 * The glossary beside a text being translated (docs/translation-memory.md#glossary): the wordlist
 * terms of the guides in effect for the variant, as lint applies them. Every term of a guide
 * scoped to the variant's locale is listed (it is that language's glossary); a term of a guide
 * enabled by default only where it occurs in the base or the variant's text. Terms whose forbidden
 * form the variant's text uses come first, then those that occur, then the rest in guide order.
 */

export type { GlossaryQuery, GlossaryResponse };

const MAX_TERMS = 200;

export function createGlossary(deps: { db: Kysely<Database>; variants: VariantNames }) {
  return async function glossary(workspaceId: number, query: GlossaryQuery): Promise<GlossaryResponse> {
    const [loaded, variants] = await Promise.all([
      loadGuides(deps.db, workspaceId, deps.variants),
      deps.variants.listVariants(deps.db, workspaceId),
    ]);
    const target = variants.find((v) => v.developerId === query.variantId);
    if (!target) throw badRequest(`variantId: ${variantNotFoundMessage(query.variantId)}`);
    const locales = new Map(variants.map((v) => [v.developerId, v.localeCode]));
    const guides = [...indexGuides(loaded).values()].map(toGuideData);
    const baseTokens = tokenize(query.text ?? '');
    const variantTokens = tokenize(query.variantText ?? '');
    const candidates = guides.flatMap((guide) => {
      const scoped = scopeCovers(guide.variantId, target.developerId, locales);
      return scoped || guide.enabledByDefault ? guide.terms.map((term) => ({ guide: guide.id, scoped, term })) : [];
    });
    const terms = candidates.map((c) => c.term);
    // The preferred forms are matched as a wordlist of their own, of copies that name their term.
    const original = new Map<GuideTerm, GuideTerm>();
    const preferred = compileWordlist(
      terms.map((term) => {
        const copy = { ...term, replaces: [term.preferred] };
        original.set(copy, term);
        return copy;
      }),
    );
    const forbidden = compileWordlist(terms);
    const found = (tokens: ReturnType<typeof tokenize>) => ({
      forbidden: termsPresent(forbidden, tokens),
      preferred: new Set([...termsPresent(preferred, tokens)].map((copy) => original.get(copy) ?? copy)),
    });
    const [inBase, inVariant] = [found(baseTokens), found(variantTokens)];
    const listed = candidates
      .map((c, order) => {
        const inVariantText = inVariant.forbidden.has(c.term)
          ? ('forbidden' as const)
          : inVariant.preferred.has(c.term)
            ? ('preferred' as const)
            : null;
        const inText = inBase.forbidden.has(c.term) || inBase.preferred.has(c.term);
        return { ...c, order, inText, inVariantText };
      })
      .filter((c) => c.scoped || c.inText || c.inVariantText !== null);
    const rank = (c: (typeof listed)[number]) =>
      c.inVariantText === 'forbidden' ? 0 : c.inVariantText !== null || c.inText ? 1 : 2;
    listed.sort((a, b) => rank(a) - rank(b) || a.order - b.order);
    return {
      variantId: target.developerId,
      localeCode: target.localeCode,
      terms: listed.slice(0, MAX_TERMS).map((c) => ({
        styleguideId: c.guide,
        sectionId: c.term.sectionId,
        termId: c.term.id,
        preferred: c.term.preferred,
        replaces: c.term.replaces,
        caseSensitive: c.term.caseSensitive,
        note: c.term.note,
        scoped: c.scoped,
        inText: c.inText,
        inVariantText: c.inVariantText,
      })),
      truncated: listed.length > MAX_TERMS,
    };
  };
}
