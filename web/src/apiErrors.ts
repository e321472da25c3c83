/** A refused request as the app reads it. Pure: unit-tested in test/web/apiErrors.test.ts. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The top-level fields of the body that was sent: a message about one of them starts with its path. */
    readonly sent: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * A refusal's message without the path into the request's own body that starts it
 * (`comments[0].body: mentions …` reads `mentions …`): the form under which it shows is that
 * field already. Only a path whose first name is a field of `sent` goes; any other text stays.
 */
export function withoutBodyPath(message: string, sent: readonly string[]): string {
  const match = /^([A-Za-z_$][\w$]*)(?:\[\d+\]|\.[A-Za-z_$][\w$]*)*: (?=\S)/.exec(message);
  if (!match || !sent.includes(match[1] ?? '')) return message;
  const rest = message.slice(match[0].length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** What a form shows of a failed request: an ApiError's message without its body path, or the error's text. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return withoutBodyPath(error.message, error.sent);
  return error instanceof Error ? error.message : String(error);
}
