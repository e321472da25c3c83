import { badRequest } from '../http/errors.js';

/** A locale code in its canonical BCP 47 form (`en-us` becomes `en-US`); null and undefined pass through. */
export function canonicalLocale<T extends string | null | undefined>(code: T, field: string): T | string {
  if (code === null || code === undefined) return code;
  try {
    const [canonical] = Intl.getCanonicalLocales(code);
    if (canonical) return canonical;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  throw badRequest(`${field}: '${code}' is not a valid BCP 47 language tag`);
}
