import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, codeForStatus } from './errors.js';
import { describeSchemaError, firstSchemaError } from './validation.js';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const first = firstSchemaError(errors as unknown as ErrorObject[]);
    return new Error(first ? describeSchemaError(first as never, dataVar) : `${dataVar} is invalid`);
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const requestId = request.id;
    if (error instanceof AppError) {
      if (error.retryAfter !== undefined) reply.header('retry-after', error.retryAfter);
      return reply.status(error.statusCode).send({ message: error.message, code: error.code, requestId });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message = error.validation ? error.message : clientMessage(error);
      return reply.status(status).send({ message, code: codeForStatus(status), requestId });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ message: `Internal server error (request id ${requestId})`, code: 'internal', requestId });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      code: 'not_found',
      requestId: request.id,
    }),
  );
}

/** Fastify's own 4xx errors, phrased for a user. */
function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'body: request body is larger than the limit';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'body: Content-Type must be application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'body: must not be empty when Content-Type is application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'body: is not valid JSON';
    default:
      return error.message;
  }
}
