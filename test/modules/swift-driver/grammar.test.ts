import { describe, expect, it } from 'vitest';
import { swiftString } from '../../../src/modules/swift-driver/swift-literals.js';
import { accessorsOf, decodeSwiftString, grammarProblems, parseSwift } from './swift-grammar.js';

/** The check the driver tests rely on must be able to fail: broken Swift is reported. */
describe('the Swift grammar check', () => {
  const valid = [
    'import Foundation',
    '',
    'struct Ditto {',
    '\tpublic static func a(_ localeOverride: String? = nil, name: String = "x") -> String {',
    '\t\tString.localizedStringWithFormat(NSLocalizedString("a", tableName: "t", bundle: Bundle.main, comment: ""), name)',
    '\t}',
    '}',
    '',
  ].join('\n');

  it('finds no problem in valid Swift', () => {
    expect(grammarProblems(valid)).toEqual([]);
    expect(accessorsOf(valid).map((a) => [a.name, a.key, a.table, a.formatArguments])).toEqual([
      ['a', 'a', 't', ['name']],
    ]);
  });

  it.each([
    ['a missing closing brace', valid.replace(/}\n$/, '')],
    ['a missing parenthesis', valid.replace('name: String = "x")', 'name: String = "x"')],
    ['an unterminated string', valid.replace('comment: ""', 'comment: "oops')],
    ['a quote that ends the string early', valid.replace('"a", tableName', '"a"b", tableName')],
    ['an invalid escape', valid.replace('comment: ""', 'comment: "\\q"')],
    ['a stray keyword', valid.replace('public static func', 'public static func func')],
    ['a missing comma between parameters', valid.replace('= nil, name', '= nil name')],
  ])('reports %s', (_what, broken) => {
    const problems = grammarProblems(broken);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]!.kind).toMatch(/^(ERROR|MISSING)$/);
    expect(parseSwift(broken).rootNode.hasError).toBe(true);
  });

  it('decodes string literals by Swift’s escape rules and rejects what Swift rejects', () => {
    expect(decodeSwiftString('"a\\"b\\\\c\\n\\r\\t\\0\\u{1F600}\\u{7}"')).toBe('a"b\\c\n\r\t\0😀\u0007');
    expect(() => decodeSwiftString('"a\\qb"')).toThrow(/invalid escape/);
    expect(() => decodeSwiftString('"a\\(b)"')).toThrow(/invalid escape/);
    expect(() => decodeSwiftString('"a\nb"')).toThrow(/raw line break/);
  });
});

describe('swiftString', () => {
  it.each([
    ['plain', 'hello'],
    ['quotes and backslashes', 'say "hi" C:\\path'],
    ['an interpolation attempt', 'value \\(secret) and \\\\(x)'],
    ['line breaks and tabs', 'one\ntwo\r\nthree\tfour'],
    ['controls, DEL, C1, separators and BOM', '\u0000\u0001\u001f\u007f\u0085\u009f\u2028\u2029\ufeff'],
    ['non-ASCII', 'Ünïcødé — 日本語 — 👩‍💻🎉'],
    ['an empty string', ''],
  ])('writes %s as a literal that decodes to the same text and parses', (_what, text) => {
    const literal = swiftString(text);
    expect(decodeSwiftString(literal)).toBe(text);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must not reach the file
    expect(literal).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/);
    const source = `let value = ${literal}\n`;
    expect(grammarProblems(source)).toEqual([]);
    expect(parseSwift(source).rootNode.descendantsOfType('interpolated_expression')).toEqual([]);
  });

  it('replaces a lone surrogate, which no Swift file can hold, with U+FFFD', () => {
    expect(decodeSwiftString(swiftString('a\ud800b\udc00c'))).toBe('a\ufffdb\ufffdc');
  });
});
