import { createRequire } from 'node:module';
import type { AppDeps } from '../../src/app.js';

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
 * `cachedSerializers` is a serializer factory as Fastify's `schemaController.compilersFactory`
 * takes it, given to `buildApp` as its `buildSerializer` option: Fastify's own factory
 * (`@fastify/fast-json-stringify-compiler`, the copy Fastify itself loads) behind the cache. Test
 * files of a worker share this module (`isolate: false`), so the cache lasts the worker's run; the
 * servers the tests start as processes build their own.
 */

type BuildSerializer = NonNullable<AppDeps['buildSerializer']>;
type RouteCompiler = ReturnType<BuildSerializer>;
type Serializer = ReturnType<RouteCompiler>;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const selector = fromFastify('@fastify/fast-json-stringify-compiler') as () => BuildSerializer;
const fastifyFactory = selector();

const compiled = new Map<string, Serializer>();
let hits = 0;
let misses = 0;

export const cachedSerializers: BuildSerializer = (externalSchemas, serializerOptions) => {
  const compile = fastifyFactory(externalSchemas, serializerOptions);
  const context = JSON.stringify([externalSchemas ?? null, serializerOptions ?? null]);
  return (route) => {
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

/** How many serializers were reused and compiled in this worker so far. */
export const serializerCacheStats = () => ({ hits, misses, kept: compiled.size });
