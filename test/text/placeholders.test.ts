import { describe, expect, it } from 'vitest';
import { findPlaceholders, renderTemplate, splitTemplate, usedVariables } from '../../src/text/placeholders.js';

describe('findPlaceholders', () => {
  const cases: Array<[text: string, found: Array<[name: string, start: number, end: number]>]> = [
    ['', []],
    ['no placeholders', []],
    ['{{name}}', [['name', 0, 8]]],
    [
      'Hi {{first_name}}, you have {{count}} items',
      [
        ['first_name', 3, 17],
        ['count', 28, 37],
      ],
    ],
    [
      '{{a}}{{b}}',
      [
        ['a', 0, 5],
        ['b', 5, 10],
      ],
    ],
    ['{{ name }}', [['name', 0, 10]]],
    [
      '{{name  }} and {{  name}}',
      [
        ['name', 0, 10],
        ['name', 15, 25],
      ],
    ],
    [
      '{{_private}} {{A1}} {{x_2_y}}',
      [
        ['_private', 0, 12],
        ['A1', 13, 19],
        ['x_2_y', 20, 29],
      ],
    ],
    ['{{{name}}}', [['name', 1, 9]]],
    ['{{{{name}}}}', [['name', 2, 10]]],
    ['{{name}}}', [['name', 0, 8]]],
    ['{{a{{b}}', [['b', 3, 8]]],
    ['{{name}', []],
    ['{{name', []],
    ['{{', []],
    ['}}{{', []],
    ['{name}', []],
    ['{{}}', []],
    ['{{ }}', []],
    ['{{1abc}}', []],
    ['{{na me}}', []],
    ['{{na-me}}', []],
    ['{{café}}', []],
    ['{{\tname}}', []],
    ['{{\nname}}', []],
    ['{{ name }', []],
    ['{ {name} }', []],
    ['😀{{name}}', [['name', 2, 10]]],
    ['<b>{{name}}</b>', [['name', 3, 11]]],
  ];

  it.each(cases)('%j', (text, found) => {
    expect(findPlaceholders(text)).toEqual(found.map(([name, start, end]) => ({ name, start, end })));
    for (const [, start, end] of found) expect(text.slice(start, end)).toMatch(/^\{\{ *\w+ *\}\}$/);
  });
});

describe('usedVariables', () => {
  const cases: Array<[texts: string[], listed: string[], used: string[]]> = [
    [[], ['a'], []],
    [['{{a}}'], [], []],
    [['{{a}} {{b}}'], ['a', 'b'], ['a', 'b']],
    [['{{b}} {{a}}'], ['a', 'b'], ['a', 'b']],
    [['{{a}}'], ['b', 'a'], ['a']],
    [
      ['{{a}}', '{{c}}'],
      ['c', 'b', 'a'],
      ['c', 'a'],
    ],
    [['{{a}} {{a}}'], ['a'], ['a']],
    [['{{a}}'], ['a', 'a'], ['a']],
    [['{{unlisted}}'], ['a'], []],
    [['{{A}}'], ['a'], []],
    [['{{ a }}'], ['a'], ['a']],
    [['{a}', '{{a}'], ['a'], []],
    [
      ['base {{a}}', 'variant {{b}}', 'plural {{count}}'],
      ['count', 'a', 'b', 'c'],
      ['count', 'a', 'b'],
    ],
  ];

  it.each(cases)('%j listing %j', (texts, listed, used) => {
    expect(usedVariables(texts, listed)).toEqual(used);
  });
});

describe('splitTemplate', () => {
  const known = new Set(['name', 'count']);
  const cases: Array<[text: string, parts: ReturnType<typeof splitTemplate>]> = [
    ['', []],
    ['plain', [{ kind: 'text', value: 'plain' }]],
    ['{{name}}', [{ kind: 'variable', name: 'name', raw: '{{name}}' }]],
    [
      'Hi {{name}}!',
      [
        { kind: 'text', value: 'Hi ' },
        { kind: 'variable', name: 'name', raw: '{{name}}' },
        { kind: 'text', value: '!' },
      ],
    ],
    [
      '{{name}}{{count}}',
      [
        { kind: 'variable', name: 'name', raw: '{{name}}' },
        { kind: 'variable', name: 'count', raw: '{{count}}' },
      ],
    ],
    ['{{other}} stays', [{ kind: 'text', value: '{{other}} stays' }]],
    [
      'a {{other}} b {{ name }} c {{other}}',
      [
        { kind: 'text', value: 'a {{other}} b ' },
        { kind: 'variable', name: 'name', raw: '{{ name }}' },
        { kind: 'text', value: ' c {{other}}' },
      ],
    ],
    [
      '{{{name}}}',
      [
        { kind: 'text', value: '{' },
        { kind: 'variable', name: 'name', raw: '{{name}}' },
        { kind: 'text', value: '}' },
      ],
    ],
    ['{{name', [{ kind: 'text', value: '{{name' }]],
    ['{{Name}}', [{ kind: 'text', value: '{{Name}}' }]],
  ];

  it.each(cases)('%j', (text, parts) => {
    expect(splitTemplate(text, known)).toEqual(parts);
    const joined = parts.map((part) => (part.kind === 'text' ? part.value : part.raw)).join('');
    expect(joined).toBe(text);
  });
});

describe('renderTemplate', () => {
  const known = new Set(['name', 'count']);
  const cases: Array<[text: string, icu: string, printf: string]> = [
    ['Hi {{name}}', 'Hi {name}', 'Hi %1$s'],
    ['{{count}} items, {{name}}', '{count} items, {name}', '%2$s items, %1$s'],
    ['100% {{name}} {{other}}', '100% {name} {{other}}', '100%% %1$s {{other}}'],
    ['only {{other}}', 'only {{other}}', 'only {{other}}'],
  ];

  it.each(cases)('%j', (text, icu, printf) => {
    expect(renderTemplate(text, known, (name) => `{${name}}`)).toBe(icu);
    const position = (name: string) => [...known].indexOf(name) + 1;
    const escapePercent = (value: string) => value.replaceAll('%', '%%');
    expect(renderTemplate(text, known, (name) => `%${position(name)}$s`, escapePercent)).toBe(printf);
  });
});
