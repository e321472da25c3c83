import { createRequire } from 'node:module';

/**
 * Response serializers compiled once per worker instead of once per app.
 *
 * Building an app (`setupApp`) costs 200 to 400 ms of CPU, most of it fast-json-stringify turning
 * each route's response schemas into a serializer function, and a worker builds an app for every
 * test file (about a hundred a run). The functions depend on nothing but the schema, the shared
 * schemas added with `addSchema` and the serializer options, so a worker keeps them, keyed by those
 * three as JSON, and hands the same function to every later app that asks for the same thing. An
 * app still compiles whatever no earlier app had, and serializes exactly as a fresh one would.
 *
 * Fastify takes its serializer compiler from `@fastify/fast-json-stringify-compiler`, loaded when
 * an app is created (`lib/schema-controller.js`); the app itself (`src/app.ts`) sets none. This
 * replaces that module's export, in this process only (the servers the tests start as processes
 * are untouched), with the same selector behind a cache. Test files of a worker share this module
 * (`isolate: false`), so it is installed once.
 */

type Serializer = (data: unknown) => string;
type RouteCompiler = (route: { schema: unknown; [other: string]: unknown }) => Serializer;
type Factory = (externalSchemas: unknown, serializerOptions: unknown) => RouteCompiler;
type Selector = (() => Factory) & Record<string | symbol, unknown>;

const installed = Symbol.for('copydesk.test.serializerCache');
const compiled = new Map<string, Serializer>();
let hits = 0;
let misses = 0;

export function installSerializerCache(): void {
  const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
  const path = fromFastify.resolve('@fastify/fast-json-stringify-compiler');
  fromFastify(path);
  const cached = fromFastify.cache[path];
  if (!cached) return;
  const original = cached.exports as Selector;
  if (original[installed]) return;
  const selector = (() => {
    const factory = original();
    return (externalSchemas: unknown, serializerOptions: unknown) => {
      const compile = factory(externalSchemas, serializerOptions);
      const context = JSON.stringify([externalSchemas ?? null, serializerOptions ?? null]);
      return (route: Parameters<RouteCompiler>[0]) => {
        const key = `${context}\n${JSON.stringify(route.schema)}`;
        let serializer = compiled.get(key);
        if (serializer) {
          hits += 1;
        } else {
          misses += 1;
          serializer = compile(route);
          compiled.set(key, serializer);
        }
        return serializer;
      };
    };
  }) as Selector;
  Object.assign(selector, original, { default: selector, SerializerSelector: selector, [installed]: true });
  cached.exports = selector;
}

/** How many serializers were reused and compiled in this worker so far. */
export const serializerCacheStats = () => ({ hits, misses, kept: compiled.size });
