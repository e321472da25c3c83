import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { legacy, ok, seed } from './helpers.js';

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const flat = (url: string) => ok(ctx, ws, `${url}${url.includes('?') ? '&' : '?'}format=flat`);

describe.each(['', '/v1'])('filters (%s)', (prefix) => {
  it('variant: the variant text, only texts that have one', async () => {
    expect(await flat(`${prefix}/components?variant=fr`)).toEqual({
      cart: '{{count}} articles',
      cart_one: '{{count}} article',
      cart_other: '{{count}} articles',
      welcome: 'Bienvenue, {{name}} !',
    });
    expect(await flat(`${prefix}/components?variant=de`)).toEqual({ 'buttons.ok': 'Okay' });
    expect(await flat(`${prefix}/components?variant=es`)).toEqual({});
    expect(await flat(`${prefix}/projects/web?variant=fr`)).toEqual({ 'web.title': 'Titre' });
    // `base` is base text.
    expect(await flat(`${prefix}/projects/web?variant=base`)).toEqual(await flat(`${prefix}/projects/web`));
  });

  it("status: the shown value's own status, a variant's its own", async () => {
    expect(Object.keys(await flat(`${prefix}/components?status=FINAL`))).toEqual(['welcome']);
    // welcome is FINAL, its French value WIP: the variant fetch goes by the French status.
    expect(Object.keys(await flat(`${prefix}/components?status=WIP&variant=fr`))).toEqual(['welcome']);
    expect(Object.keys(await flat(`${prefix}/components?status=FINAL&variant=fr`))).toEqual([
      'cart',
      'cart_one',
      'cart_other',
    ]);
    // web.title is REVIEW, its French value FINAL.
    expect(await flat(`${prefix}/projects/web?status=FINAL&variant=fr`)).toEqual({ 'web.title': 'Titre' });
    expect(await flat(`${prefix}/projects/web?status=REVIEW&variant=fr`)).toEqual({});
    expect(await flat(`${prefix}/projects/web?status=REVIEW`)).toEqual({ 'web.title': 'Title' });
    // Given twice (a folder's own status after the general one), the last counts.
    expect(await flat(`${prefix}/projects/web?status=FINAL&status=REVIEW`)).toEqual({ 'web.title': 'Title' });
  });

  it('includeRichText: rich_text in structured and full only, each line in <p>', async () => {
    const structured = await ok(ctx, ws, `${prefix}/components?format=structured&includeRichText=true`);
    expect(structured['onboarding.title'].rich_text).toBe('<p><strong>Hi</strong> there</p>');
    expect(structured.cart.plurals).toEqual({
      one: '{{count}} item',
      one_rich_text: '<p>{{count}} item</p>',
      other: '{{count}} items',
      other_rich_text: '<p>{{count}} items</p>',
    });
    const full = await ok(ctx, ws, `${prefix}/projects/web?includeRichText=true`);
    expect(full.otherText['web.body'].rich_text).toBe('<p>Body &amp; soul</p><p>Line 2</p>');
    expect((await flat(`${prefix}/components?includeRichText=true`))['onboarding.title']).toBe('Hi there');
    expect((await ok(ctx, ws, `${prefix}/components?format=structured`))['onboarding.title'].rich_text).toBeUndefined();
  });

  it('exclude_components: a project without its library instances', async () => {
    expect(await flat(`${prefix}/projects/web?exclude_components=true`)).toEqual({
      'web.title': 'Title',
      'web.body': 'Body & soul\nLine 2',
    });
    const full = await ok(ctx, ws, `${prefix}/projects/web?exclude_components=true`);
    expect(Object.keys(full.otherText)).toEqual(['web.body']);
  });

  it('ignores unknown parameters and client headers', async () => {
    const res = await legacy(ctx, ws, `${prefix}/projects/web?format=flat&githubActionRequest=true&trigger=manual`, {
      headers: { 'x-ditto-cli': 'true', 'x-ditto-client-id': 'abc', 'x-ditto-app': 'cli' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await flat(`${prefix}/projects/web`));
  });

  it('answers bad parameters with a 400 naming them', async () => {
    const cases: Array<[string, string | RegExp]> = [
      [`${prefix}/components?format=xliff`, /^format must be one of: "full", "flat"/],
      [`${prefix}/components?variant=nope`, 'variant: Variant with id nope not found'],
      [`${prefix}/projects/web?status=DONE`, "status: 'DONE' is not a status of the workspace"],
      [`${prefix}/components?includeRichText=maybe`, 'includeRichText must be boolean'],
    ];
    for (const [url, message] of cases) {
      const res = await legacy(ctx, ws, url);
      expect(res.status, url).toBe(400);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
  });
});
