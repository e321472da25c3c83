import { describe, expect, it } from 'vitest';
import {
  dedupeName,
  legacyFolderPredicate,
  legacyTableName,
} from '../../../src/modules/swift-driver/swift-driver.legacy.js';
import { camelCaseIdentifier, uniqueIdentifiers } from '../../../src/modules/swift-driver/swift-identifiers.js';
import { commentText } from '../../../src/modules/swift-driver/swift-literals.js';
import { AccessorNames } from '../../../src/modules/swift-driver/swift-names.js';
import { naturalName } from '../../../src/modules/swift-driver/swift-source.js';

/** Swift's reserved words, from the language reference, listed here apart from the generator's own list. */
const RESERVED = (
  'associatedtype borrowing class consuming deinit enum extension fileprivate func import init inout internal let ' +
  'nonisolated open operator private precedencegroup protocol public rethrows static struct subscript typealias var ' +
  'break case catch continue default defer do else fallthrough for guard if in repeat return switch throw where ' +
  'while Any as await false is nil self Self super throws true try _'
).split(' ');

describe('accessor names', () => {
  it.each([
    ['cards.label.card-number-sample', 'cardsLabelCardNumberSample'],
    ['onboarding.link-bank.h2-sample', 'onboardingLinkBankH2Sample'],
    ['input.last-4-ssn.label-sample', 'inputLast4SsnLabelSample'],
    ['home_cta__send', 'homeCtaSend'],
    ['Welcome.Title', 'welcomeTitle'],
    ['errorURL.text', 'errorURLText'],
    ['404.page', '_404Page'],
    ['7', '_7'],
  ])('%s -> %s', (developerId, name) => {
    expect(camelCaseIdentifier(developerId)).toBe(name);
  });

  it('gives reserved words a `_` suffix and never a reserved name', () => {
    const names = uniqueIdentifiers(RESERVED.map(camelCaseIdentifier), new Set(['getBundle']));
    for (const name of names) {
      expect(RESERVED).not.toContain(name);
      expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    }
    expect(uniqueIdentifiers(['default', 'self', 'getBundle', 'text'], new Set(['getBundle']))).toEqual([
      'default_',
      'self_',
      'getBundle_',
      'text',
    ]);
  });

  it('numbers clashes from 2 in order, never taking a name another key wants', () => {
    expect(uniqueIdentifiers(['aB', 'aB', 'aB2', 'aB', 'default', 'default_'])).toEqual([
      'aB',
      'aB3',
      'aB2',
      'aB4',
      'default_',
      'default_2',
    ]);
  });
});

describe('comment text', () => {
  it('is one line without controls, cut at a code point', () => {
    expect(commentText(' a\nb\r\nc\u2028d\u0000e\tf ')).toBe('a b c d e f');
    expect(commentText(`${'x'.repeat(9)}👩‍💻`, 10)).toBe(`${'x'.repeat(9)}👩…`);
  });
});

describe('v1 table names, as the 4.x client names its files', () => {
  it.each([
    ['Web App', 'web-app'],
    ['  Web   App  ', 'web-app-'],
    ['Ünïcode Näme!', 'ncode-nme'],
    ['v1.2 App', 'v1'],
    ['my__project', 'my'],
    ['Web App-1', 'web-app-1'],
  ])('%j -> %j', (fileName, table) => {
    expect(legacyTableName(fileName)).toBe(table);
  });

  it('deduplicates repeated names as the client does', () => {
    const taken = new Set<string>();
    expect(['Web', 'Web', 'Web', 'Web-1', 'App-3', 'App-3'].map((n) => dedupeName(n, taken))).toEqual([
      'Web',
      'Web-1',
      'Web-2',
      'Web-3',
      'App-3',
      'App-4',
    ]);
  });
});

describe('v1 component sources', () => {
  const ids = [null, 1, 2, 3];
  const keep = (root: boolean | null, folders: (number | null)[] | null) =>
    ids.filter(legacyFolderPredicate(root, folders));
  it.each([
    [null, null, [null, 1, 2, 3]],
    [false, null, [1, 2, 3]],
    [true, null, [null]],
    [null, [1, 3], [1, 3]],
    [false, [1], [1]],
    [true, [2], [null, 2]],
    [null, [], []],
    [null, [null, 2], [null, 2]],
  ])('root %j with folders %j keeps %j', (root, folders, kept) => {
    expect(keep(root, folders)).toEqual(kept);
  });
});

describe('accessor names in two passes (AccessorNames)', () => {
  // The paged driver names keys without holding them all: it must give exactly the names that
  // `uniqueIdentifiers` gives over the whole list, whatever clashes, numbers and reserved words.
  const twoPasses = (ids: readonly string[]) => {
    const names = new AccessorNames();
    for (const id of ids) names.add(naturalName(id));
    if (names.endFirstPass()) {
      for (const [i, id] of ids.entries()) names.observe(String(i), naturalName(id));
      names.resolve();
    }
    return ids.map((id, i) => names.nameOf(String(i), naturalName(id)));
  };
  const whole = (ids: readonly string[]) => uniqueIdentifiers(ids.map(camelCaseIdentifier), new Set(['getBundle']));

  it('agrees with uniqueIdentifiers on lists full of clashes', () => {
    // A small alphabet makes clashes, numbers that other keys want, and reserved words frequent.
    const parts = ['a', 'A', 'b', '2', '3', '12', 'default', 'get', 'Bundle', 'in', 'x1'];
    const separators = ['.', '-', '_', ''];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const ids = new Set<string>();
      const size = 1 + random(60);
      while (ids.size < size) {
        let id = parts[random(parts.length)] as string;
        for (let k = random(3); k > 0; k--) id += `${separators[random(4)]}${parts[random(parts.length)]}`;
        ids.add(id);
      }
      const list = [...ids];
      expect(twoPasses(list), list.join(' ')).toEqual(whole(list));
    }
  });

  it('agrees with uniqueIdentifiers past the first tables of hashes (clashes far apart)', () => {
    // 2,048 hashes fill the first table; these 30,000 keys span several, and each clash pairs a
    // key of an early table with one of a late table (`k-0001` ... `k.0001` want `k0001`).
    const pad = (n: number) => String(n).padStart(5, '0');
    const ids = [
      ...Array.from({ length: 15_000 }, (_, i) => `k-${pad(i)}`),
      ...Array.from({ length: 15_000 }, (_, i) => `k.${pad(i)}`),
      'k-00007-2',
    ];
    const names = twoPasses(ids);
    expect(names).toEqual(whole(ids));
    expect(names[15_000]).toBe('k000002');
  });

  it('needs no second pass without clashes', () => {
    const names = new AccessorNames();
    for (let i = 0; i < 10_000; i++) names.add(naturalName(`key.${i}`));
    expect(names.endFirstPass()).toBe(false);
  });
});
