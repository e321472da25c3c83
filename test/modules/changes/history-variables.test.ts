import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';

const ctx = await setupApp();

describe('history of variables', () => {
  it('records create, update and delete with actor, key, action and fields', async () => {
    const ws = await createWorkspace(ctx);
    await ws.api.post('variables', { variables: [{ name: 'age', type: 'number', data: { example: 21 } }] });
    await ws.api.patch('variables', { updates: [{ developerId: 'age', data: { example: 30, fallback: '18' } }] });
    await ws.api.delete('variables', { developerIds: ['age'] });

    const res = await ws.api.get('history?kind=variable&id=age');
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    const [deleted, updated, created] = res.body.changes;
    expect(created).toMatchObject({
      actor: ws.email,
      kind: 'variable',
      developerId: 'age',
      variantId: null,
      action: 'created',
      fields: {
        name: { before: null, after: 'age' },
        type: { before: null, after: 'number' },
        data: { before: null, after: { example: 21 } },
      },
    });
    expect(created.keyId).toEqual(expect.any(String));
    expect(updated).toMatchObject({
      action: 'updated',
      fields: { data: { before: { example: 21 }, after: { example: 30, fallback: '18' } } },
    });
    expect(Object.keys(updated.fields)).toEqual(['data']);
    expect(deleted).toMatchObject({ action: 'deleted', fields: { name: { before: 'age', after: null } } });
  });

  it('records nothing for a rejected batch', async () => {
    const ws = await createWorkspace(ctx);
    const before = (await ws.api.get('history')).body;
    const res = await ws.api.post('variables', {
      variables: [
        { name: 'a', type: 'string', data: { example: 'x' } },
        { name: 'b', type: 'number', data: { example: 'x' } },
      ],
    });
    expect(res.status).toBe(400);
    expect((await ws.api.get('history')).body).toEqual(before);
    expect((await ws.api.get('history?kind=variable')).body).toEqual({ changes: [], nextCursor: null });
  });
});
