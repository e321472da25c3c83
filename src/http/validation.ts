import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { LRUCache } from 'lru-cache';
import { DEVELOPER_ID_PATTERN } from './schemas.js';

// ajv-formats is CommonJS; its default export arrives wrapped under native ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated strictly: no type coercion and no silent removal of unknown fields, so a
 * typo in a field name is a 400 rather than a no-op. Query strings arrive as text and are coerced.
 */
const bodyAjv = addFormats(new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, strict: false }));
const allErrorsAjv = addFormats(
  new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, strict: false }),
);
const queryAjv = addFormats(
  new Ajv({ allErrors: false, coerceTypes: true, useDefaults: true, removeAdditional: false, strict: false }),
);

/**
 * A strict validator (as for bodies) for JSON that arrives inside another part of the request,
 * such as the `filter` query parameter; its first error is rendered by `describeSchemaError`.
 */
export function compileStrict<T>(schema: object): (data: unknown) => { value: T } | { error: ErrorObject } {
  const validate = allErrorsAjv.compile(schema);
  return (data) => {
    if (validate(data)) return { value: data as T };
    const errors = validate.errors ?? [];
    // An unknown field explains the rest (a misspelt key is also a missing one): report it first.
    return {
      error: (errors.find((e) => e.keyword === 'additionalProperties') ?? firstSchemaError(errors)) as ErrorObject,
    };
  };
}

/**
 * Validators compiled, by engine and schema (its JSON): Ajv keeps what it compiled by the schema
 * object, and the routes' schemas reach it as new objects for each app that is built, so the
 * same schema was compiled again by every app of a process (the test suite builds hundreds) and
 * by every route that shares it. Bounded, although the API has a fixed set of schemas.
 */
const compiledValidators = new LRUCache<string, ValidateFunction>({ max: 4096 });

function compileOnce(engine: 'body' | 'query', schema: object): ValidateFunction {
  const key = `${engine}:${JSON.stringify(schema)}`;
  let compiled = compiledValidators.get(key);
  if (!compiled) {
    compiled = (engine === 'body' ? bodyAjv : queryAjv).compile(schema);
    compiledValidators.set(key, compiled);
  }
  return compiled;
}

/**
 * Validators are compiled on a route's first request rather than at start-up: compiling every
 * schema of the API up front is most of what a start costs, and most routes a process serves
 * see only a few request shapes.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const engine = httpPart === 'body' ? 'body' : 'query';
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown) => {
    compiled ??= compileOnce(engine, schema as object);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  return validate as ReturnType<FastifySchemaCompiler<unknown>>;
};

/** `/updates/3/status` becomes `updates[3].status`, the form the messages of this API use. */
export function fieldPath(instancePath: string, extra?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) segments.push(extra);
  let path = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path;
}

/**
 * The error to report of those a validation produced. A value that matches no branch of a union
 * of literals (`Type.Union([Type.Literal('a'), Type.Literal('b')])`, JSON Schema's `anyOf` of
 * `const`s) fails each branch in turn: Ajv lists a `const` error per branch, then the `anyOf`.
 * The first alone would read "must be \"a\"", as if that were the only value allowed, so the
 * branches are read back as one `enum` error naming them all.
 */
export function firstSchemaError<E extends ErrorObject>(errors: readonly E[]): E | undefined {
  const first = errors[0];
  const branch = first && /^(.*)\/anyOf\/0\/const$/.exec(first.schemaPath);
  if (!first || !branch) return first;
  const union = branch[1];
  const allowedValues: unknown[] = [];
  for (const [index, error] of errors.entries()) {
    if (error.schemaPath === `${union}/anyOf` && error.keyword === 'anyOf' && index === allowedValues.length) {
      return { ...first, keyword: 'enum', schemaPath: `${union}/anyOf`, params: { allowedValues } };
    }
    const isBranch =
      error.keyword === 'const' &&
      error.instancePath === first.instancePath &&
      error.schemaPath === `${union}/anyOf/${index}/const`;
    if (!isBranch) return first;
    allowedValues.push((error.params as { allowedValue: unknown }).allowedValue);
  }
  return first;
}

export function describeSchemaError(error: ErrorObject, part: string): string {
  const params = error.params as Record<string, unknown>;
  const at = (extra?: string) => fieldPath(error.instancePath, extra) || part;
  switch (error.keyword) {
    case 'required':
      return `${at(String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${at(String(params.additionalProperty))} is not a known field`;
    case 'enum':
      return `${at()} must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${at()} must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      if (params.pattern === DEVELOPER_ID_PATTERN) {
        return `${at()} must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit`;
      }
      return `${at()} must match the pattern ${String(params.pattern)}`;
    case 'format':
      return `${at()} must be a valid ${String(params.format)}`;
    case 'type':
      // `{ type: ['string', 'null'] }` reads "must be string or null".
      return `${at()} must be ${String(params.type).split(',').join(' or ')}`;
    default:
      return `${at()} ${error.message ?? 'is invalid'}`;
  }
}
