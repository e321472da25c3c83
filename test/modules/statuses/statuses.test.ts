import { describe, expect, it } from 'vitest';
import { createWorkspace, setupApp } from '../../helpers/app.js';

const ctx = await setupApp();

describe('GET /v2/statuses', () => {
  it('returns the default workflow in order', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.get('statuses');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 'NONE', name: 'Draft' },
      { id: 'WIP', name: 'In Progress' },
      { id: 'REVIEW', name: 'In Review' },
      { id: 'FINAL', name: 'Final' },
    ]);
  });
});

describe('PUT /v2/statuses', () => {
  it('replaces the workflow in the order given', async () => {
    const { api } = await createWorkspace(ctx);
    const statuses = [
      { id: 'TODO', name: 'To do' },
      { id: 'NONE', name: 'Draft' },
      { id: 'DONE', name: 'Done' },
    ];
    expect((await api.put('statuses', { statuses })).body).toEqual({ success: true });
    expect((await api.get('statuses')).body).toEqual(statuses);
  });

  it('rejects a repeated id and changes nothing', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.put('statuses', {
      statuses: [
        { id: 'A', name: 'A' },
        { id: 'A', name: 'B' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("statuses[1].id: duplicate status id 'A'");
    expect((await api.get('statuses')).body).toHaveLength(4);
  });

  it('rejects an empty list and a missing name with the field named', async () => {
    const { api } = await createWorkspace(ctx);
    const empty = await api.put('statuses', { statuses: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^statuses /);
    const noName = await api.put('statuses', { statuses: [{ id: 'A' }] });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe('statuses[0].name is required');
  });

  it('rejects a reassign target that is not among the new statuses', async () => {
    const { api } = await createWorkspace(ctx);
    const res = await api.put('statuses', {
      statuses: [{ id: 'NONE', name: 'Draft' }],
      reassign: { WIP: 'GONE' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("reassign.WIP: 'GONE' is not one of the new statuses");
  });
});
