import { describe, expect, it } from 'vitest';
import {
  type VariableType,
  variableDataError,
  variableNameError,
} from '../../../src/modules/variables/variable-data.js';

const P = 'v[0].data';

describe('variableDataError', () => {
  it.each<[VariableType, unknown, string | null]>([
    ['string', { example: 'Ada' }, null],
    ['string', { example: '', fallback: 'friend' }, null],
    ['string', 'Ada', `${P} must be object`],
    ['string', ['Ada'], `${P} must be object`],
    ['string', null, `${P} must be object`],
    ['string', {}, `${P}.example is required`],
    ['string', { example: 1 }, `${P}.example must be string`],
    ['string', { example: 'a', fallback: null }, `${P}.fallback must be string`],
    ['string', { example: 'a', other: 'b' }, `${P}.other is not a known field`],
    ['string', { example: 'a', 'two words': 'b' }, `${P}["two words"] is not a known field`],
    ['string', JSON.parse('{"example":"a","__proto__":"b"}'), `${P}.__proto__ is not a known field`],
    ['number', { example: 3, fallback: 0.5 }, null],
    ['number', { example: '3' }, null],
    ['number', { example: 21, fallback: '18' }, null],
    ['number', { example: '-2.5', fallback: '1e3' }, null],
    ['number', { example: '.5' }, null],
    ['number', { example: 'three' }, `${P}.example must be a number or a string holding one`],
    ['number', { example: '' }, `${P}.example must be a number or a string holding one`],
    ['number', { example: ' 3' }, `${P}.example must be a number or a string holding one`],
    ['number', { example: '0x10' }, `${P}.example must be a number or a string holding one`],
    ['number', { example: '1e999' }, `${P}.example must be a number or a string holding one`],
    ['number', { example: 3, fallback: null }, `${P}.fallback must be a number or a string holding one`],
    ['number', { example: true }, `${P}.example must be a number or a string holding one`],
    ['hyperlink', { text: 'Help', url: 'https://example.com/help?q=1' }, null],
    ['hyperlink', { text: 'Help' }, `${P}.url is required`],
    ['hyperlink', { url: 'https://example.com' }, `${P}.text is required`],
    ['hyperlink', { text: 'Help', url: '/help' }, `${P}.url: '/help' is not an absolute URL`],
    ['hyperlink', { text: 'Help', url: 'https://x.io', title: 't' }, `${P}.title is not a known field`],
    ['list', ['a', 'b'], null],
    ['list', [], `${P} must have at least one item`],
    ['list', ['a', 2], `${P}[1] must be string`],
    ['list', { 0: 'a' }, `${P} must be array`],
    ['map', { en: 'Hello', 'fr-FR': 'Bonjour' }, null],
    ['map', {}, `${P} must have at least one entry`],
    ['map', ['a'], `${P} must be object`],
    ['map', { en: 'Hello', 'fr-FR': 1 }, `${P}["fr-FR"] must be string`],
    ['map', { '': 'x' }, `${P}: keys must not be empty`],
  ])('%s %j -> %s', (type, data, expected) => {
    expect(variableDataError(type, data, P)).toBe(expected);
  });
});

describe('variableNameError', () => {
  const rule = "(1 to 64 letters, digits or '_', not starting with a digit)";
  it.each<[string, boolean]>([
    ['user_name', true],
    ['_private', true],
    ['A1', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['1st', false],
    ['user-name', false],
    ['user name', false],
    ['naïve', false],
  ])('%j valid: %s', (name, valid) => {
    expect(variableNameError(name, 'name')).toBe(valid ? null : `name: '${name}' is not a valid variable name ${rule}`);
  });
});
