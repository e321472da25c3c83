import IntlMessageFormat from 'intl-messageformat';
import * as plist from 'plist';
import { describe, expect, it } from 'vitest';
import { decodeResources } from '../../formats/aapt2-decoder.js';
import { decodeStrings } from '../../formats/strings-decoder.js';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { legacy, ok, seed } from './helpers.js';

const ctx = await setupApp();
const ws = await createWorkspace(ctx);
await seed(ws);

const VERSIONS = ['', '/v1'] as const;

describe.each(VERSIONS)('lists (%s)', (prefix) => {
  it('lists the projects with developer mode on, the library first', async () => {
    const expected = [
      { id: 'ditto_component_library', name: 'Component Library' },
      { id: 'web', name: 'Web' },
    ];
    expect(await ok(ctx, ws, `${prefix}/project-names`)).toEqual(expected);
    if (prefix === '/v1') expect(await ok(ctx, ws, '/v1/projects')).toEqual(expected);
  });

  it('lists variants, or those with text in the given projects', async () => {
    expect(await ok(ctx, ws, `${prefix}/variants?showSampleData=false`)).toEqual([
      { apiID: 'fr', name: 'French', description: '' },
      { apiID: 'de', name: 'German', description: 'Deutsch' },
      { apiID: 'es', name: 'Spanish', description: '' },
    ]);
    expect(await ok(ctx, ws, `${prefix}/variants?projectIds[]=web`)).toEqual([
      { apiID: 'fr', name: 'French', description: '' },
    ]);
    const both = await ok(ctx, ws, `${prefix}/variants?projectIds[]=web&projectIds[]=ditto_component_library`);
    expect(both.map((v: { apiID: string }) => v.apiID)).toEqual(['fr', 'de']);
  });

  it('maps folders to names and variables to their descriptions', async () => {
    expect(await ok(ctx, ws, `${prefix}/component-folders`)).toEqual({ onboarding: 'Onboarding', buttons: 'Buttons' });
    expect(await ok(ctx, ws, `${prefix}/variables`)).toEqual({
      count: { example: 3, __type: 'number' },
      name: { example: 'Ann', fallback: 'friend', __type: 'string' },
    });
  });
});

describe.each(VERSIONS)('project bodies (%s)', (prefix) => {
  const url = (query: string) => `${prefix}/projects/web${query}`;

  it('answers `full` by default: texts by block, others apart', async () => {
    const body = await ok(ctx, ws, url(''));
    expect(Date.parse(body.exported_at)).not.toBeNaN();
    expect(body).toEqual({
      project_id: 'web',
      project_name: 'Web',
      exported_at: body.exported_at,
      blocks: { Header: { 'web.title': { text: 'Title', status: 'REVIEW' } } },
      otherText: {
        'web.body': { text: 'Body & soul\nLine 2', status: 'NONE' },
        'web.cta': { text: 'Go', status: 'NONE' },
      },
    });
  });

  it('answers flat, nested and structured JSON', async () => {
    expect(await ok(ctx, ws, url('?format=flat'))).toEqual({
      'web.title': 'Title',
      'web.body': 'Body & soul\nLine 2',
      'web.cta': 'Go',
    });
    expect(await ok(ctx, ws, url('?format=nested'))).toEqual({
      web: { title: 'Title', body: 'Body & soul\nLine 2', cta: 'Go' },
    });
    expect((await ok(ctx, ws, url('?format=structured')))['web.title']).toEqual({ text: 'Title', status: 'REVIEW' });
  });

  it('answers the v2 files for icu, android and the iOS formats', async () => {
    const icu = await ok(ctx, ws, url('?format=icu&variant=fr'));
    expect(icu).toEqual({ 'web.title': 'Titre' });
    const android = await legacy(ctx, ws, url('?format=android'));
    expect(android.type).toMatch(/^text\/xml/);
    const resources = decodeResources(android.text).resources;
    const byId = (id: string) => resources.find((r) => Object.values(r.attributes).includes(id));
    expect(byId('web.body')?.values.get('')?.text).toBe('Body & soul\nLine 2');
    const strings = await legacy(ctx, ws, url('?format=ios-strings'));
    expect(strings.type).toMatch(/^text\/plain/);
    expect(decodeStrings(strings.text).get('web.title')?.value).toBe('Title');
  });

  it('multi-project fetch wraps each body under its id', async () => {
    if (prefix === '/v1') return; // v1 lists projects at GET /projects (tested above).
    const body = await ok(ctx, ws, '/projects?projectIds[]=web&format=flat');
    expect(body).toEqual({
      projects: { web: { 'web.title': 'Title', 'web.body': 'Body & soul\nLine 2', 'web.cta': 'Go' } },
      exported_at: body.exported_at,
    });
    const all = await ok(ctx, ws, '/projects?format=android');
    expect(Object.keys(all.projects)).toEqual(['web']);
    expect(all.projects.web).toContain('<resources');
    const withLibrary = await ok(
      ctx,
      ws,
      '/projects?projectIds[]=web&projectIds[]=ditto_component_library&format=flat',
    );
    expect(withLibrary.projects.ditto_component_library.welcome).toBe('Welcome, {{name}}!');
  });
});

describe.each(VERSIONS)('component bodies (%s)', (prefix) => {
  it('answers the library in every JSON format', async () => {
    expect(await ok(ctx, ws, `${prefix}/components?format=flat`)).toEqual({
      'buttons.ok': 'OK',
      cart: '{{count}} items',
      cart_one: '{{count}} item',
      cart_other: '{{count}} items',
      'onboarding.title': 'Hi there',
      'web.cta': 'Go',
      welcome: 'Welcome, {{name}}!',
    });
    const structured = await ok(ctx, ws, `${prefix}/components?format=structured`);
    expect(structured.welcome).toEqual({
      text: 'Welcome, {{name}}!',
      status: 'FINAL',
      notes: 'Greeting',
      tags: ['home'],
      variables: { name: { example: 'Ann', fallback: 'friend', __type: 'string' } },
      name: 'Welcome',
      folder: null,
    });
    expect(structured['buttons.ok']).toMatchObject({ name: 'buttons.ok', folder: 'buttons' });
    expect(structured.cart.plurals).toEqual({ one: '{{count}} item', other: '{{count}} items' });
    const full = await ok(ctx, ws, `${prefix}/components`);
    expect(full).toMatchObject({ project_id: 'ditto_component_library', project_name: 'Component Library' });
    expect(full.components.welcome).toEqual(structured.welcome);
  });

  it('answers icu messages that IntlMessageFormat formats', async () => {
    const icu = await ok(ctx, ws, `${prefix}/components?format=icu`);
    expect(new IntlMessageFormat(icu.cart, 'en').format({ count: 1 })).toBe('1 item');
    expect(new IntlMessageFormat(icu.cart, 'en').format({ count: 4 })).toBe('4 items');
  });

  it('answers ios-stringsdict, also under its alias ios-strings-dict', async () => {
    const file = await legacy(ctx, ws, `${prefix}/components?format=ios-stringsdict`);
    expect(file.type).toMatch(/^text\/xml/);
    const dict = plist.parse(file.text) as Record<string, Record<string, Record<string, string>>>;
    expect(Object.keys(dict)).toEqual(['cart']);
    expect((await legacy(ctx, ws, `${prefix}/components?format=ios-strings-dict`)).text).toBe(file.text);
  });

  it('fetches a folder (directly in it), the root, and the components a project uses', async () => {
    expect(await ok(ctx, ws, `${prefix}/component-folders/onboarding/components?format=flat`)).toEqual({
      'onboarding.title': 'Hi there',
    });
    expect(await ok(ctx, ws, `${prefix}/component-folders/buttons/components?format=flat`)).toEqual({
      'buttons.ok': 'OK',
    });
    expect(Object.keys(await ok(ctx, ws, `${prefix}/components?root_only=true&format=flat`))).toEqual([
      'cart',
      'cart_one',
      'cart_other',
      'web.cta',
      'welcome',
    ]);
    expect(await ok(ctx, ws, `${prefix}/projects/web/components?format=flat`)).toEqual({ 'web.cta': 'Go' });
    expect(await ok(ctx, ws, `${prefix}/projects/ditto_component_library?format=flat`)).toEqual(
      await ok(ctx, ws, `${prefix}/components?format=flat`),
    );
  });
});
