import { pipeline, Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Limits } from '../../config.js';
import { principalOf } from '../../http/auth.js';
import { compressStream, negotiateEncoding } from '../../http/cache/index.js';
import { withErrors } from '../../http/schemas.js';
import { swiftDriverSchemas } from './swift-driver.schemas.js';
import type { SwiftDriverService } from './swift-driver.service.js';

export interface SwiftDriverOptions {
  swiftDriver: SwiftDriverService;
  limits: Limits;
}

const TEXT_PLAIN = 'text/plain; charset=utf-8';

/**
 * Sends the file: bytes as they are (compressed on the way out like any answer), a large file as
 * the stream it is written as, compressed as it flows when the client takes it.
 */
function sendFile(request: FastifyRequest, reply: FastifyReply, file: Buffer | Readable) {
  reply.type(TEXT_PLAIN);
  if (!(file instanceof Readable)) return reply.send(file as never);
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(file as never);
  const compressed = compressStream(encoding);
  // A failure on either side (a client gone) ends both, so the reading stops and its snapshot closes.
  pipeline(file, compressed, () => {});
  return reply
    .header('content-encoding', encoding)
    .header('vary', 'Accept-Encoding')
    .send(compressed as never);
}

const SwiftFile = Type.String({
  description: '`Ditto.swift`: the Swift source of a `Ditto` struct with one accessor per key (docs/swift-driver.md)',
});

/** `POST /cli/swiftDriver`, under `/v2`: what the 5.x command-line client calls for iOS outputs. */
export const swiftDriverRoutes: FastifyPluginAsyncTypebox<SwiftDriverOptions> = async (app, options) => {
  const driver = options.swiftDriver;
  const { CliDriverBody } = swiftDriverSchemas(options.limits);
  app.post(
    '/cli/swiftDriver',
    {
      schema: {
        tags: ['ios'],
        summary: 'Generate Ditto.swift, the Swift accessors of the exported iOS strings',
        description:
          'Components of the listed folders (all when none) and text items of the listed projects (every project when none). See docs/swift-driver.md.',
        body: CliDriverBody,
        produces: ['text/plain'],
        response: withErrors({ 200: SwiftFile }),
      },
    },
    async (request, reply) => {
      const { workspaceId, revision } = principalOf(request);
      return sendFile(request, reply, await driver.forCli(workspaceId, revision, request.body));
    },
  );
};

/** `POST /ios/swift-driver`, under `/v1`: what the 4.x client (and 5.x `pull --legacy`) calls. */
export const legacySwiftDriverRoutes: FastifyPluginAsyncTypebox<SwiftDriverOptions> = async (app, options) => {
  const driver = options.swiftDriver;
  const { LegacyDriverBody } = swiftDriverSchemas(options.limits);
  app.post(
    '/ios/swift-driver',
    {
      config: { auth: 'either' },
      schema: {
        tags: ['ios'],
        summary: 'Generate Ditto.swift for the v1 command-line clients (key raw or as `token <KEY>`)',
        description:
          'The component library when `components` is given, and the listed projects, which need developer mode on (403 otherwise). See docs/swift-driver.md.',
        body: LegacyDriverBody,
        produces: ['text/plain'],
        response: withErrors({ 200: SwiftFile }, 403),
      },
    },
    async (request, reply) => {
      const { workspaceId, revision } = principalOf(request);
      const file = await driver.forLegacy(workspaceId, revision, request.body, options.limits.filterIds);
      return sendFile(request, reply, file);
    },
  );
};
