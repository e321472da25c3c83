import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp, withFilter } from '../helpers/app.js';
import { multipart } from '../modules/legacy/helpers.js';

const ctx = await setupApp();

const NUL = '\u0000';

describe('text the databases cannot store', () => {
  it('a NUL character anywhere in a body is a 400 naming the field, and nothing is written', async () => {
    const ws = await createWorkspace(ctx);
    const before = (await ws.api.get('history')).body.changes;
    const cases: [unknown, string][] = [
      [
        { components: [{ text: `ab${NUL}c` }] },
        'components[0].text: must not contain the NUL character (U+0000, at position 2)',
      ],
      [
        {
          components: [
            { developerId: 'ok', text: 'fine' },
            {
              text: 'items',
              plurals: [
                { form: 'one', text: 'item' },
                { form: 'other', text: `${NUL}items` },
              ],
            },
          ],
        },
        'components[1].plurals[1].text: must not contain the NUL character (U+0000, at position 0)',
      ],
      [
        { components: [{ text: 'x', tags: ['a', `b${NUL}`] }] },
        'components[0].tags[1]: must not contain the NUL character (U+0000, at position 1)',
      ],
      [
        { components: [{ text: 'x', [`no${NUL}te`]: 'y' }] },
        'components[0]: a field name must not contain the NUL character (U+0000, at position 2)',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await ws.api.post('components', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', message });
    }
    expect((await ws.api.get('components')).body).toEqual([]);
    expect((await ws.api.get('history')).body.changes).toEqual(before);
  });

  it('an unpaired surrogate is a 400; a well-formed pair is stored as sent', async () => {
    const ws = await createWorkspace(ctx);
    const lone = await ws.api.post('components', { components: [{ text: 'ok', notes: 'x\uD800y' }] });
    expect(lone.status).toBe(400);
    expect(lone.body.message).toBe(
      'components[0].notes: must not contain an unpaired surrogate (U+D800, at position 1)',
    );
    const low = await ws.api.post('variants', { variants: [{ name: '\uDC00' }] });
    expect(low.status).toBe(400);
    expect(low.body.message).toBe('variants[0].name: must not contain an unpaired surrogate (U+DC00, at position 0)');
    const pair = await ws.api.post('components', { components: [{ developerId: 'smile', text: 'hi \uD83D\uDE00' }] });
    expect(pair.status).toBe(201);
    expect((await ws.api.get('components')).body[0].text).toBe('hi 😀');
  });

  it('covers updates, query strings and the legacy bodies alike', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('components', { components: [{ developerId: 'hello', text: 'Hello' }] });
    const patch = await ws.api.patch('components', { updates: [{ developerId: 'hello', notes: `a${NUL}` }] });
    expect(patch.status).toBe(400);
    expect(patch.body.message).toBe('updates[0].notes: must not contain the NUL character (U+0000, at position 1)');
    const filter = await ws.api.get(withFilter('textItems', { tags: { values: [`t${NUL}`] } }));
    expect(filter.status).toBe(400);
    expect(filter.body.message).toBe(
      'filter.tags.values[0]: must not contain the NUL character (U+0000, at position 1)',
    );
    const raw = await ws.api.get(`textItems?filter=${encodeURIComponent('{"tags":{"values":["a')}%00"]}}`);
    expect(raw.status).toBe(400);
    expect(raw.body.message).toBe('filter: must not contain the NUL character (U+0000, at position 21)');
    const legacy = await ctx.app.inject({
      method: 'PUT',
      url: '/components',
      headers: { authorization: `token ${ws.key}` },
      payload: { hello: { text: `Hi${NUL}` } },
    });
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().message).toBe('hello.text: must not contain the NUL character (U+0000, at position 2)');
    expect((await ws.api.get('components')).body[0]).toMatchObject({ text: 'Hello', notes: '' });
  });

  it('an imported file with a NUL character is a 400 naming its line', async () => {
    const ws = await createWorkspace(ctx);
    const { payload, headers } = multipart('import', 'strings.csv', `ID,Text\nok,Fine\nbad,Ba${NUL}d\n`);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/components/file?componentId=1&text=2',
      headers: { ...headers, authorization: `token ${ws.key}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe('line 3: text: must not contain the NUL character (U+0000, at position 2)');
    expect((await ws.api.get('components')).body).toEqual([]);
  });
});

describe('text the databases cannot store, inside an imported file', () => {
  it('a JSON escape of NUL inside the file is a 400 naming its key', async () => {
    const ws = await createWorkspace(ctx);
    const res = await ws.api.post('import', {
      format: 'json_i18next',
      library: true,
      content: '{"hello": "Hel\\u0000lo", "bye": "Bye"}',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(
      /^content: .*hello.*: text: must not contain the NUL character \(U\+0000, at position 3\)$/,
    );
    expect((await ws.api.get('components')).body).toEqual([]);
  });
});
