import type { SwaggerTransform } from '@fastify/swagger';
import { isCacheableRoute } from './cache/index.js';

/**
 * Statuses that come from the transport rather than a route: every body route can answer 408 (the
 * body did not arrive in time), 413 (too large) and 415 (not JSON), and every cacheable GET 304
 * (see src/http/cache/). The
 * routes do not declare them, so they are added to the OpenAPI document here, where clients look.
 */
const errorRef = { $ref: 'Error' };

export const documentTransportStatuses: SwaggerTransform = ({ schema, url, route }) => {
  if (!schema || schema.hide) return { schema, url };
  const methods = [route.method].flat();
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  if (schema.body) {
    response[408] ??= { ...errorRef, description: 'The request did not arrive within REQUEST_TIMEOUT_MS' };
    response[413] ??= { ...errorRef, description: 'The body is over the size limit' };
    response[415] ??= { ...errorRef, description: 'The body is not JSON' };
  }
  if (methods.includes('GET') && isCacheableRoute(route)) {
    response[304] ??= { type: 'null', description: 'Not modified: If-None-Match matches the current ETag' };
  }
  return { schema: { ...schema, response }, url };
};
