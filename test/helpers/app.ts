import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect, inject } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { type Services, servicesFor } from '../../src/services.js';
import { migratedTestDatabaseConfig } from './database.js';
import { cachedSerializers } from './serializers.js';

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  services: Services;
  config: Config;
}

/**
 * A real app on a real database, closed after the file's tests. Rate limiting (keyed and keyless) is off unless a
 * test asks for it. On SQLite the file's database is a copy of an already migrated one; on PostgreSQL it is the
 * database the global setup migrated. Neither is migrated again (a check of every migration, dozens of queries);
 * a database the test names itself, or a run without that setup (`sqliteTemplate` not provided), is.
 */
export async function setupApp(
  overrides: Partial<Config> = {},
  /** The time of presence entries, for a test that moves it by hand. */
  clock: { now?: () => number } = {},
): Promise<TestContext> {
  const alreadyMigrated = overrides.database === undefined && inject('sqliteTemplate') !== undefined;
  const databaseConfig = overrides.database ?? migratedTestDatabaseConfig();
  const config = loadConfig(
    {},
    { database: databaseConfig, rateLimitPerMinute: 0, rateLimitKeylessPerMinute: 0, ...overrides },
  );
  const database = openDatabase(config.database);
  if (!alreadyMigrated) await migrateToLatest(database.db);
  const services = servicesFor(config, database, clock);
  const app = await buildApp({ config, database, services, logger: false, buildSerializer: cachedSerializers });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, services, config };
}

/**
 * Another server on the same database as `ctx`: its own services, memory and caches, as a second
 * process would have; closed after the file's tests.
 */
export async function anotherServer(ctx: TestContext): Promise<{ app: App; services: Services }> {
  const database = openDatabase(ctx.config.database);
  const services = servicesFor(ctx.config, database);
  const app = await buildApp({
    config: ctx.config,
    database,
    services,
    logger: false,
    buildSerializer: cachedSerializers,
  });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, services };
}

let counter = 0;

export interface Workspace {
  id: number;
  email: string;
  key: string;
  api: Api;
}

/** A fresh workspace with one user and one key: each test's own world. */
export async function createWorkspace(ctx: TestContext, name = 'Test workspace'): Promise<Workspace> {
  counter += 1;
  const { id } = await ctx.services.accounts.createWorkspace(`${name} ${counter}`);
  const email = `writer${counter}@example.com`;
  await ctx.services.accounts.createUser({ workspaceId: id, email, name: 'Writer', role: 'admin' });
  const { key } = await ctx.services.accounts.createKey({ workspaceId: id, email });
  return { id, email, key, api: apiClient(ctx.app, key) };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

export type Api = ReturnType<typeof apiClient>;

/** The body of a write that succeeded; a status of 300 or more fails the test, showing the body. */
export async function ok(res: Promise<{ status: number; body: unknown }>): Promise<any> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}

/** Requests with the key sent the v2 way; bodies are JSON. */
export function apiClient(app: App, key: string | null) {
  async function call<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const res = await app.inject({
      method,
      url: url.startsWith('/') ? url : `/v2/${url}`,
      headers: { ...(key === null ? {} : { authorization: key }), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const type = String(res.headers['content-type'] ?? '');
    const parsed = type.includes('json') && res.body ? JSON.parse(res.body) : res.body;
    return { status: res.statusCode, body: parsed as T, headers: res.headers, raw: res };
  }
  return {
    get: <T = any>(url: string, headers?: Record<string, string>) => call<T>('GET', url, undefined, headers),
    post: <T = any>(url: string, body: unknown) => call<T>('POST', url, body),
    put: <T = any>(url: string, body: unknown) => call<T>('PUT', url, body),
    patch: <T = any>(url: string, body: unknown) => call<T>('PATCH', url, body),
    delete: <T = any>(url: string, body: unknown) => call<T>('DELETE', url, body),
    call,
  };
}

/** `?filter=` with the JSON URL-encoded, as clients send it. */
export const withFilter = (path: string, filter: unknown, extra = '') =>
  `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`;
