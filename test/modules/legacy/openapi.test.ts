import { describe, expect, it } from 'vitest';
import { apiClient, setupApp } from '../../helpers/app.js';

const ctx = await setupApp();

const READS = [
  '/project-names',
  '/projects',
  '/projects/{id}',
  '/projects/{id}/components',
  '/components',
  '/component-folders',
  '/component-folders/{id}/components',
  '/variables',
  '/variants',
];

describe('the OpenAPI document', () => {
  it('lists every v0 and v1 route as deprecated under the legacy tag, with its parameters and responses', async () => {
    const doc = (await apiClient(ctx.app, null).get('/v2/openapi.json')).body;
    const routes: Array<[string, string]> = [
      ...READS.flatMap((path) => [[path, 'get'] as [string, string], [`/v1${path}`, 'get'] as [string, string]]),
      ['/components', 'put'],
      ['/v1/components', 'put'],
      ['/v1/components/file', 'post'],
    ];
    for (const [path, method] of routes) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.deprecated, path).toBe(true);
      expect(operation.tags, path).toEqual(['legacy']);
      expect(operation.responses['200'] ?? operation.responses['201'], path).toBeDefined();
      expect(operation.responses['401'], path).toBeDefined();
    }
    const fetch = doc.paths['/v1/projects/{id}'].get;
    const names = fetch.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'id',
        'format',
        'variant',
        'status',
        'includeRichText',
        'exclude_components',
        'projectIds[]',
      ]),
    );
    expect(Object.keys(doc.paths['/components'].put.requestBody.content)).toEqual(['application/json']);
    expect(doc.paths['/v1/components/file'].post.requestBody.content['multipart/form-data'].schema.required).toEqual([
      'import',
    ]);
    expect(Object.keys(doc.paths['/v2/workspace']).sort()).toEqual(['get', 'patch']);
    const developerMode =
      doc.paths['/v2/projects'].post.requestBody.content['application/json'].schema.properties.projects.items.properties
        .developerMode;
    expect(developerMode.default).toBe(false);
  });
});
