import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { badRequest } from '../../http/errors.js';
import { withErrors } from '../../http/schemas.js';
import { validatorCompiler } from '../../http/validation.js';
import { ImportQuery, ImportResult } from './legacy.schemas.js';
import type { LegacyWriter, Writer } from './legacy.write.js';

const FIELD = 'import';

/** The multipart body, for the OpenAPI document only: the handler reads the stream itself. */
const FileBody = Type.Object({
  [FIELD]: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'A .csv or .json file' }),
});

/**
 * POST /v1/components/file, in a context of its own: only this route parses multipart bodies,
 * every other route still answers anything but JSON with 415.
 */
export const legacyFileRoutes: FastifyPluginAsyncTypebox<{
  writer: LegacyWriter;
  limits: Limits;
  writerOf: (request: FastifyRequest) => Writer;
}> = async (app, { writer, limits, writerOf }) => {
  await app.register(multipart, { limits: { fileSize: limits.bodyBytes, files: 1 } });

  app.post(
    '/components/file',
    {
      config: { auth: 'either' },
      // The body schema documents the upload; the parts are checked as they are read, not validated as JSON.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route)),
      schema: {
        tags: ['legacy'],
        deprecated: true,
        summary: 'v1: Import components from a CSV or JSON file (multipart field `import`)',
        description:
          'A CSV takes its column mapping from the query (column numbers, 1 for the first; the first row is a header). A JSON file is a flat, nested or structured body. See docs/legacy-api.md.',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        body: FileBody,
        response: withErrors({ 201: ImportResult, 200: ImportResult }, 403, 409, 413),
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw badRequest(`${FIELD}: send the file as multipart/form-data in the field \`${FIELD}\``);
      }
      const part = await request.file();
      if (!part) throw badRequest(`${FIELD}: no file was sent (multipart field \`${FIELD}\`)`);
      if (part.fieldname !== FIELD) {
        throw badRequest(`${FIELD}: the file must be in the multipart field \`${FIELD}\`, not \`${part.fieldname}\``);
      }
      const content = await part.toBuffer();
      const result = await writer.importFile(
        writerOf(request),
        { filename: part.filename, mimetype: part.mimetype, content },
        request.query,
      );
      return reply.status(result.componentsInserted > 0 ? 201 : 200).send(result);
    },
  );
};
