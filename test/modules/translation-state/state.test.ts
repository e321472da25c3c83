import { describe, expect, it } from 'vitest';
import type { TextEntity, TextSelection, VariantValue } from '../../../src/modules/texts/index.js';
import { translationStateOf } from '../../../src/modules/texts/index.js';
import { countStates } from '../../../src/modules/translation-state/translation-state.service.js';

const value = (variantId: number, textVersion?: number) =>
  ({
    variantId,
    text: 'x',
    richText: null,
    plurals: null,
    notes: '',
    characterLimit: null,
    status: 'NONE',
    assigneeId: null,
    ...(textVersion === undefined ? {} : { textVersion }),
  }) as VariantValue;

describe('translationStateOf', () => {
  it.each([
    ['no value', 0, undefined, 'missing'],
    ['written against the current base', 3, value(1, 3), 'upToDate'],
    ['written against an older base', 3, value(1, 2), 'outdated'],
    ['never versioned (before the migration)', 0, value(1, 0), 'upToDate'],
    ['a value being written (no version yet)', 5, value(1), 'upToDate'],
    ['a version past the base (restamped instance value)', 2, value(1, 4), 'upToDate'],
  ] as const)('%s', (_name, base, v, expected) => {
    expect(translationStateOf({ textVersion: base }, v)).toBe(expected);
  });
});

describe('countStates', () => {
  it('counts every kept text once per variant; texts the selection drops are not counted', () => {
    const text = (id: number, textVersion: number, variants: VariantValue[]) =>
      ({ id, textVersion, variants }) as unknown as TextEntity;
    const entities = [text(1, 1, [value(10, 1), value(20, 0)]), text(2, 0, [value(10, 0)]), text(3, 0, [])];
    const selection: TextSelection = {
      entities,
      select: (e) => (e.id === 3 ? null : { base: true, variants: e.variants }),
    };
    expect(
      countStates(
        [
          { id: 10, developerId: 'fr' },
          { id: 20, developerId: 'de' },
        ],
        [selection],
      ),
    ).toEqual([
      { variantId: 'fr', total: 2, missing: 0, outdated: 0, upToDate: 2 },
      { variantId: 'de', total: 2, missing: 1, outdated: 1, upToDate: 0 },
    ]);
  });
});
