import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';
import { addRules, createVariant } from './factories.js';

const ctx = await setupApp();

describe('GET /v2/styleguides', () => {
  it('starts with the built-in guide, enabled by default', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.get('styleguides');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: 'default',
        name: 'Default style guide',
        description: 'The built-in style guide of the workspace',
        enabledByDefault: true,
        variantId: null,
        sections: [
          { sectionId: 'rules', kind: 'rules', name: 'Rules' },
          { sectionId: 'wordlist', kind: 'wordlist', name: 'Wordlist' },
        ],
        rules: [],
        terms: [],
      },
    ]);
  });

  it('shows only the workspace’s own guides', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.post('styleguides', { styleguides: [{ name: 'Only in A' }] });
    expect((await b.api.get('styleguides')).body.map((g: { id: string }) => g.id)).toEqual(['default']);
  });
});

describe('POST /v2/styleguides', () => {
  it('creates guides in order, with generated ids and default sections', async () => {
    const { api } = await createWorkspace(ctx);
    await createVariant(api, 'de', 'de-DE');
    const res = await api.post('styleguides', {
      styleguides: [
        { name: 'Voice & Tone' },
        { name: 'Voice & Tone' },
        {
          name: 'German',
          developerId: 'german',
          description: 'Für die deutsche Fassung',
          enabledByDefault: true,
          variantId: 'de',
          sections: [
            { sectionId: 'words', kind: 'wordlist', name: 'Words' },
            { sectionId: 'style', kind: 'rules' },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ developerIds: ['voice-tone', 'voice-tone-2', 'german'] });
    const guides = (await api.get('styleguides')).body;
    expect(guides[1]).toMatchObject({
      id: 'voice-tone',
      description: '',
      enabledByDefault: false,
      variantId: null,
      sections: [
        { sectionId: 'rules', kind: 'rules', name: 'Rules' },
        { sectionId: 'wordlist', kind: 'wordlist', name: 'Wordlist' },
      ],
    });
    expect(guides[3]).toMatchObject({
      id: 'german',
      enabledByDefault: true,
      variantId: 'de',
      sections: [
        { sectionId: 'words', kind: 'wordlist', name: 'Words' },
        { sectionId: 'style', kind: 'rules', name: 'Rules' },
      ],
    });
  });

  it('reserves default, answers 409 for an existing id and 400 for a repeated one', async () => {
    const { api } = await createWorkspace(ctx);
    const reserved = await api.post('styleguides', { styleguides: [{ name: 'x', developerId: 'default' }] });
    expect(reserved.status).toBe(400);
    expect(reserved.body.message).toBe(
      "styleguides[0].developerId: 'default' is reserved for the built-in style guide",
    );
    await api.post('styleguides', { styleguides: [{ name: 'x', developerId: 'voice' }] });
    const again = await api.post('styleguides', { styleguides: [{ name: 'y', developerId: 'voice' }] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Style guide with developer ID voice already exists in workspace');
    const twice = await api.post('styleguides', {
      styleguides: [
        { name: 'a', developerId: 'same' },
        { name: 'b', developerId: 'same' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("styleguides[1].developerId: duplicate developer ID 'same'");
  });

  it('never generates default from a name', async () => {
    const { api } = await createWorkspace(ctx);
    expect((await api.post('styleguides', { styleguides: [{ name: 'Default' }] })).body.developerIds).toEqual([
      'default-2',
    ]);
  });

  it('is all-or-nothing: an invalid last element writes nothing', async () => {
    const { api } = await createWorkspace(ctx);
    await createVariant(api, 'formal');
    const bads = [
      [{ name: 'Bad', sections: [{ sectionId: 'r', kind: 'rules' }] }, 'At least one wordlist section is required'],
      [
        { name: 'Bad', variantId: 'formal' },
        'styleguides[1].variantId: variant formal has no locale code; only variants with a locale code can scope a style guide',
      ],
      [{ name: 'Bad', variantId: 'nope' }, 'styleguides[1].variantId: Variant with id nope not found'],
      [{ name: '' }, 'styleguides[1].name must NOT have fewer than 1 characters'],
    ] as const;
    for (const [bad, message] of bads) {
      const res = await api.post('styleguides', { styleguides: [{ name: 'Good' }, bad] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await api.get('styleguides')).body).toHaveLength(1);
  });
});

describe('DELETE /v2/styleguides', () => {
  it('deletes guides with their rules', async () => {
    const { api } = await createWorkspace(ctx);
    await api.post('styleguides', { styleguides: [{ name: 'A' }, { name: 'B' }] });
    await addRules(api, [{ name: 'Short' }], 'a');
    expect((await api.delete('styleguides', { developerIds: ['a'] })).body).toEqual({ success: true });
    expect((await api.get('styleguides')).body.map((g: { id: string }) => g.id)).toEqual(['default', 'b']);
    // The id is free again, and the new guide starts empty.
    await api.post('styleguides', { styleguides: [{ name: 'A', developerId: 'a' }] });
    expect((await api.get('styleguides')).body[2].rules).toEqual([]);
  });

  it('refuses the built-in guide and a repeated id, and answers 404 for an unknown one, deleting nothing', async () => {
    const a = await createWorkspace(ctx);
    const b = await createWorkspace(ctx);
    await a.api.post('styleguides', { styleguides: [{ name: 'A' }] });
    const builtin = await a.api.delete('styleguides', { developerIds: ['a', 'default'] });
    expect(builtin.status).toBe(400);
    expect(builtin.body.message).toBe("developerIds[1]: the built-in style guide 'default' cannot be deleted");
    const unknown = await a.api.delete('styleguides', { developerIds: ['a', 'nope'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Style guide with developer ID nope not found');
    const twice = await a.api.delete('styleguides', { developerIds: ['a', 'a'] });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe("developerIds[1]: duplicate developer ID 'a'");
    const foreign = await b.api.delete('styleguides', { developerIds: ['a'] });
    expect(foreign.status).toBe(404);
    expect((await a.api.get('styleguides')).body).toHaveLength(2);
  });

  it('a guide scoped to a deleted variant loses its scope', async () => {
    const { api } = await createWorkspace(ctx);
    await createVariant(api, 'fr', 'fr');
    await api.post('styleguides', { styleguides: [{ name: 'French', variantId: 'fr' }] });
    await api.delete('variants', { developerIds: ['fr'] });
    expect((await api.get('styleguides')).body[1].variantId).toBeNull();
  });
});
