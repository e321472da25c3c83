import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { decodeUpload, UploadEncodingError } from '../../formats/parsers/decode.js';
import { IMPORT_FORMATS } from '../../formats/parsers/index.js';
import { scopeOf } from '../../http/auth.js';
import { bodyOf } from '../../http/cache/index.js';
import { badRequest } from '../../http/errors.js';
import { Nullable, withErrors } from '../../http/schemas.js';
import type { ImportsService } from './imports.service.js';
import type { ImportRequest } from './imports.types.js';

/** The body; `skip` is bounded like every list a request carries (LIMIT_BATCH_ITEMS). */
const importBody = (maxSkip: number) =>
  Type.Object(
    {
      format: Type.Enum([...IMPORT_FORMATS], { description: 'The format of the file (docs/import.md)' }),
      content: Type.String({ description: 'The file’s text (UTF-8); in a multipart upload, the `file` part' }),
      stringsdict: Type.Optional(
        Type.String({ description: 'ios-strings: the `.stringsdict` of the same table, with the plural forms' }),
      ),
      projectId: Type.Optional(Type.String({ description: 'Import text items into this project' })),
      blockId: Type.Optional(Type.String({ description: 'New text items go into this block of the project' })),
      library: Type.Optional(Type.Boolean({ description: 'Import components into the library' })),
      folderId: Type.Optional(Type.String({ description: 'New components go into this folder (implies library)' })),
      variantId: Type.Optional(
        Type.String({ description: 'The file holds this variant’s text; none or `base`: base text' }),
      ),
      dryRun: Type.Optional(Type.Boolean({ description: 'Answer what the import would do; write nothing' })),
      keySeparator: Type.Optional(
        Type.String({ minLength: 1, description: 'Nested JSON: the separator of joined keys (default `.`)' }),
      ),
      variableOrder: Type.Optional(
        Type.Enum(['default', 'alphabetical'], {
          description: 'How unnamed `%1$s` arguments are numbered, as in the export that wrote them',
        }),
      ),
      richText: Type.Optional(Type.Literal('html', { description: 'The texts are HTML (as exported with richText)' })),
      columns: Type.Optional(
        Type.Object(
          {
            key: Type.String({ description: 'Header of the key column' }),
            text: Type.Optional(Type.String({ description: 'Header of the text column' })),
            notes: Type.Optional(Type.String({ description: 'Header of the notes column' })),
            variants: Type.Optional(
              Type.Record(Type.String(), Type.String(), {
                description: 'Variant developer ID -> header of the column with its text',
              }),
            ),
          },
          { additionalProperties: false, description: 'csv: which column is what' },
        ),
      ),
      skip: Type.Optional(
        Type.Array(Type.String(), {
          maxItems: maxSkip,
          description: 'Keys of the file to leave as they are: reported as skipped, nothing of them written',
        }),
      ),
    },
    { additionalProperties: false },
  );

const Skip = Type.Object({
  key: Type.String(),
  variantId: Type.Optional(Type.String()),
  reason: Type.String(),
});

const ValueChange = Type.Object({
  variantId: Type.Optional(Type.String({ description: 'The variant whose value it is; absent for the base text' })),
  field: Type.Union([Type.Literal('text'), Type.Literal('plurals'), Type.Literal('notes'), Type.Literal('variables')]),
  before: Nullable(
    Type.String({ description: 'As text; null for a new text or value (plural forms: `form: text` lines)' }),
  ),
  after: Type.String(),
});

const KeyPlan = Type.Object({
  key: Type.String(),
  action: Type.Union(
    [Type.Literal('create'), Type.Literal('update'), Type.Literal('unchanged'), Type.Literal('skip')],
    {
      description: '`skip`: nothing of the key is written (see `reason`)',
    },
  ),
  reason: Type.Optional(
    Type.String({ description: 'Why the key, or a variant’s value of it (`<variantId>: …`), is skipped' }),
  ),
  changes: Type.Array(ValueChange, {
    description: 'For a create or an update: each value it writes, before and after',
  }),
});

const ImportReport = Type.Object({
  dryRun: Type.Boolean(),
  created: Type.Array(Type.String(), { description: 'Developer IDs of the new texts' }),
  updated: Type.Array(Type.String(), {
    description: 'Developer IDs whose base text, variant value or variables changed',
  }),
  unchanged: Type.Array(Type.String()),
  skipped: Type.Array(Skip, { description: 'Keys (or a variant’s value of them) not imported, with the reason' }),
  warnings: Type.Array(Type.Object({ key: Type.String(), message: Type.String() })),
  keys: Type.Array(KeyPlan, { description: 'Every key of the file, in its order, with its action' }),
});

const BOOLEAN_FIELDS = ['library', 'dryRun'] as const;

/**
 * A multipart upload as the JSON body: the `file` part is `content` (and a `stringsdict` part its
 * own field), form fields are strings, so booleans and `columns` (JSON) are read here and the
 * one schema validates both kinds of request.
 */
function multipartAsBody(request: FastifyRequest): void {
  if (!request.isMultipart()) return;
  const fields = { ...(request.body as Record<string, unknown>) };
  if ('file' in fields) {
    fields.content = fields.file;
    delete fields.file;
  }
  for (const name of BOOLEAN_FIELDS) {
    if (fields[name] === 'true') fields[name] = true;
    else if (fields[name] === 'false') fields[name] = false;
  }
  if (typeof fields.columns === 'string') {
    try {
      fields.columns = JSON.parse(fields.columns);
    } catch {
      throw badRequest('columns is not valid JSON');
    }
  }
  if (typeof fields.skip === 'string') {
    try {
      fields.skip = JSON.parse(fields.skip);
    } catch {
      throw badRequest('skip is not valid JSON (a list of keys)');
    }
  }
  request.body = fields;
}

export const importsRoutes: FastifyPluginAsyncTypebox<{ imports: ImportsService; limits: Limits }> = async (
  app,
  { imports, limits },
) => {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: limits.bodyBytes, files: 2 },
    async onFile(part) {
      const bytes = await part.toBuffer();
      try {
        (part as unknown as { value: string }).value = decodeUpload(bytes);
      } catch (error) {
        if (error instanceof UploadEncodingError) throw badRequest(`${part.fieldname}: ${error.message}`);
        throw error;
      }
    },
  });

  app.post(
    '/import',
    {
      schema: {
        tags: ['import'],
        summary: 'Import a localisation file into a project or the library',
        description:
          'JSON body, or multipart/form-data with the file as the `file` part (and `stringsdict`) and the other fields as form fields. All or nothing; `dryRun` answers the plan. See docs/import.md.',
        consumes: ['application/json', 'multipart/form-data'],
        body: importBody(limits.batchItems),
        response: withErrors({ 200: ImportReport }),
      },
      preValidation: async (request) => multipartAsBody(request),
    },
    async (request, reply) => {
      const report = await imports.importFile(scopeOf(request), request.body as ImportRequest, limits);
      // The answer as the import wrote it (a piece at a time, from memory or its file): bytes when
      // small, else a stream, never copied into one buffer of tens of megabytes.
      const body = await bodyOf(report.json(), async () => report.close());
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
};
