/**
 * Swift identifiers for the accessors and parameters of `Ditto.swift` (pure). The rule is in
 * docs/swift-driver.md: developer IDs become lower camel case, names Swift reserves get a `_`
 * suffix, and clashes get a number.
 */

/**
 * Words Swift reserves: they cannot name a function or parameter without backticks. Contextual
 * keywords (`get`, `set`, `some`, `async`, ...) are valid identifiers and are not listed.
 */
export const SWIFT_RESERVED_WORDS: ReadonlySet<string> = new Set([
  // declarations
  'associatedtype',
  'borrowing',
  'class',
  'consuming',
  'deinit',
  'enum',
  'extension',
  'fileprivate',
  'func',
  'import',
  'init',
  'inout',
  'internal',
  'let',
  'nonisolated',
  'open',
  'operator',
  'private',
  'precedencegroup',
  'protocol',
  'public',
  'rethrows',
  'static',
  'struct',
  'subscript',
  'typealias',
  'var',
  // statements
  'break',
  'case',
  'catch',
  'continue',
  'default',
  'defer',
  'do',
  'else',
  'fallthrough',
  'for',
  'guard',
  'if',
  'in',
  'repeat',
  'return',
  'switch',
  'throw',
  'where',
  'while',
  // expressions and types
  'Any',
  'as',
  'await',
  'false',
  'is',
  'nil',
  'self',
  'Self',
  'super',
  'throws',
  'true',
  'try',
  'Type',
  'Protocol',
  // patterns
  '_',
]);

/** The helper every accessor calls: no accessor may take its name. */
export const BUNDLE_HELPER = 'getBundle';

/** The parameters every accessor may have before the variables. */
export const LOCALE_PARAMETER = 'localeOverride';
export const PLURAL_PARAMETER = 'pluralCount';

const SEPARATORS = /[^A-Za-z0-9]+/;

/**
 * A developer ID as lower camel case: words split at every character other than an ASCII letter
 * or digit, the first word's first letter lowered, each later word's first letter raised, the
 * rest kept (`home.cta.send-payment` -> `homeCtaSendPayment`). A leading digit gets a `_` prefix.
 */
export function camelCaseIdentifier(developerId: string): string {
  const words = developerId.split(SEPARATORS).filter((word) => word !== '');
  const joined = words
    .map((word, index) =>
      index === 0 ? word[0]!.toLowerCase() + word.slice(1) : word[0]!.toUpperCase() + word.slice(1),
    )
    .join('');
  if (joined === '') return 'text';
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** A name as it is when nothing clashes with it: with a `_` suffix when Swift (or `reserved`) reserves it. */
export const naturalIdentifier = (name: string, reserved: ReadonlySet<string>): string =>
  SWIFT_RESERVED_WORDS.has(name) || reserved.has(name) ? `${name}_` : name;

/**
 * Unique names for `wanted`, in order: a name Swift reserves (or one in `reserved`) gets a `_`
 * suffix; a name already given gets the first free number from 2 on (`title2`). A number never
 * takes a name that a later element wants as it is, so adding a key does not rename earlier ones
 * unless they clash with it.
 */
export function uniqueIdentifiers(wanted: readonly string[], reserved: ReadonlySet<string> = new Set()): string[] {
  const natural = wanted.map((name) => naturalIdentifier(name, reserved));
  const claimed = new Set(natural);
  const given = new Set<string>();
  return natural.map((name) => {
    let chosen = name;
    if (given.has(chosen)) {
      let n = 2;
      while (given.has(`${name}${n}`) || claimed.has(`${name}${n}`)) n++;
      chosen = `${name}${n}`;
    }
    given.add(chosen);
    return chosen;
  });
}
