import type { PluralForm } from '../../db/schema.js';
import { parseRichText } from '../../richtext/index.js';
import type { StyleguideRecord } from '../styleguides/styleguides.types.js';
import type { TextEntity, VariantValue } from '../texts/index.js';
import { pluralFormsOf, sourceFormFor } from './mt.plurals.js';
import { characterCount, protect, restore } from './mt.protect.js';
import type { TranslationGuidance } from './mt.providers.js';

/**
 * One text's translation, from what is sent to what is written: the pieces the provider gets (the
 * text, or each plural form the target locale needs), what the model is told beside each, and the
 * answer restored, checked and measured against the character limit. Pure, but for the provider
 * call the caller makes between `piecesOf` and `resultOf`.
 */

export interface Piece {
  form: PluralForm | null;
  wire: ReturnType<typeof protect>;
  hint: string;
}

/** Counts like 1, 21 for `one`: the first numbers `locale` puts in `form`. */
function samplesOf(locale: string, form: PluralForm): string {
  let rules: Intl.PluralRules;
  try {
    rules = new Intl.PluralRules(locale);
  } catch {
    return '';
  }
  const found: number[] = [];
  for (let n = 0; n <= 200 && found.length < 4; n++) if (rules.select(n) === form) found.push(n);
  return found.join(', ');
}

export function piecesOf(entity: TextEntity, target: string): Piece[] {
  const notes = entity.notes.trim() === '' ? '' : `Notes from the writers about this text: ${entity.notes.trim()}`;
  if (!entity.plurals || entity.plurals.length === 0) {
    return [{ form: null, wire: protect({ text: entity.text, html: entity.richText }), hint: notes }];
  }
  const sourceForms = entity.plurals.map((p) => p.form);
  return pluralFormsOf(target).map((form) => {
    const source = entity.plurals?.find((p) => p.form === sourceFormFor(form, sourceForms));
    const samples = samplesOf(target, form);
    const hint = [
      `This is the "${form}" plural form of the text in ${target}${samples ? `, used for counts such as ${samples}` : ''}; the source given is its "${source?.form}" form.`,
      notes,
    ]
      .filter(Boolean)
      .join('\n');
    return { form, wire: protect({ text: source?.text ?? '', html: source?.richText ?? null }), hint };
  });
}

export interface Translated {
  rich: boolean;
  /** The text (markup when rich), or null for a plural text. */
  text: string | null;
  plurals: { form: PluralForm; text: string }[] | null;
  characterLimit: number | null;
  /** The longest piece's length in characters, as the limit counts them. */
  characters: number;
  overLimit: boolean;
}

/** The provider's answers restored and checked (RefusedTranslation when one is not intact). */
export function resultOf(
  pieces: readonly Piece[],
  answers: readonly string[],
  limit: { characterLimit: number | null; supSub: boolean },
): Translated {
  const restored = pieces.map((piece, index) => restore(answers[index] ?? '', piece.wire));
  const rich = pieces.some((piece) => piece.wire.rich);
  const lengths = restored.map((text) =>
    characterCount(rich ? parseRichText(text, { supSub: limit.supSub }).text : text),
  );
  const characters = lengths.reduce((longest, n) => Math.max(longest, n), 0);
  const plural = pieces[0]?.form !== null;
  return {
    rich,
    text: plural ? null : (restored[0] ?? ''),
    plurals: plural
      ? pieces.map((piece, index) => ({ form: piece.form as PluralForm, text: restored[index] ?? '' }))
      : null,
    characterLimit: limit.characterLimit,
    characters,
    overLimit: limit.characterLimit !== null && characters > limit.characterLimit,
  };
}

/** The limit a value of the variant is held to: its own, else the base text's. */
export const limitOf = (entity: TextEntity, value: VariantValue | undefined) =>
  value?.characterLimit ?? entity.characterLimit;

/** A preferred term with a capital past its first letter (`GitHub`, `Wi-Fi`) names something. */
const isName = (term: string) => /\p{Lu}/u.test(term.slice(1)) || /\d/.test(term);

/**
 * What the style guides say for a text in `variantId`: the rules of every guide in effect there
 * (enabled by default, or scoped to the variant, as the lint takes them); the wordlist terms of the
 * guides scoped to the variant (they are written in its language); and the names of the base
 * language's guides that occur in the text, to keep as they are (a DeepL glossary's entries).
 */
export function guidanceFor(
  guides: readonly StyleguideRecord[],
  variantId: string,
  sourceText: string,
): TranslationGuidance {
  const inEffect = guides.filter((g) => g.enabledByDefault || g.variantId === variantId);
  const scoped = guides.filter((g) => g.variantId === variantId);
  const lower = sourceText.toLowerCase();
  const keep = guides
    .filter((g) => g.variantId === null && g.enabledByDefault)
    .flatMap((g) => g.terms)
    .map((t) => t.preferred)
    .filter((term) => isName(term) && lower.includes(term.toLowerCase()));
  return {
    rules: inEffect.flatMap((g) =>
      g.rules.map((r) => ({ name: r.name, description: r.description, examples: r.examples })),
    ),
    terms: scoped.flatMap((g) =>
      g.terms.map((t) => ({ preferred: t.preferred, replaces: t.replaces, note: t.note || null })),
    ),
    keep: [...new Set(keep)],
  };
}
