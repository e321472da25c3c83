/**
 * The one error type of the service: a closed list of codes and one table from code to status.
 * Services throw these; the error handler renders `{ message, code, requestId }`.
 */
export const statusByCode = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
} as const;

export type ErrorCode = keyof typeof statusByCode;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Seconds after which the request may succeed: sent as `Retry-After` (a 503 or 429). */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, retryAfter?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfter = retryAfter;
  }

  get statusCode(): number {
    return statusByCode[this.code];
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const unauthorized = (message = 'Invalid or missing API key') => new AppError('unauthorized', message);
export const forbidden = (message: string) => new AppError('forbidden', message);

export function codeForStatus(status: number): ErrorCode {
  for (const [code, value] of Object.entries(statusByCode)) {
    if (value === status) return code as ErrorCode;
  }
  return status >= 500 ? 'internal' : 'bad_request';
}
