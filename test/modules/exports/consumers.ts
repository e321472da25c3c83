/** The consumers of the JSON formats, loaded as apps load them (as in test/formats). */
import {
  type CoreContext,
  compile,
  createCoreContext,
  type LocaleMessage,
  registerMessageCompiler,
  translate,
} from '@intlify/core-base';
import { baseCompile, type CompileError } from '@intlify/message-compiler';
import i18next from 'i18next';
import IntlMessageFormat from 'intl-messageformat';
import { expect } from 'vitest';

import { cldrPluralRule } from '../../formats/vue-plural-rule.js';

registerMessageCompiler(compile);

export type Render = (key: string, values?: Record<string, unknown>) => string;

export async function i18nextOf(json: Record<string, unknown>, locale: string): Promise<Render> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: locale,
    resources: { [locale]: { translation: json as never } },
    interpolation: { escapeValue: false },
  });
  return (key, values) => instance.t(key, values ?? {}) as string;
}

export function vueI18nOf(json: Record<string, unknown>, locale: string): Render {
  for (const [key, message] of Object.entries(json)) {
    if (key.startsWith('__')) continue;
    const errors: CompileError[] = [];
    baseCompile(message as string, { onError: (error) => errors.push(error) });
    expect(errors, `${key}: ${message}`).toEqual([]);
  }
  const context = createCoreContext({
    locale,
    messages: { [locale]: json as LocaleMessage<string> },
    pluralRules: { [locale]: cldrPluralRule(locale) },
    missingWarn: false,
    fallbackWarn: false,
    warnHtmlMessage: false,
  }) as CoreContext<string>;
  const t = translate as (...all: unknown[]) => unknown;
  return (key, values = {}) =>
    (typeof values.count === 'number'
      ? t(context, key, values.count, { named: values })
      : t(context, key, values)) as string;
}

/** ICU messages as a formatjs app that shows markup as text reads them: with `ignoreTag`. */
export function icuOf(json: Record<string, unknown>, locale: string): Render {
  return (key, values) =>
    new IntlMessageFormat(json[key] as string, locale, undefined, { ignoreTag: true }).format(values) as string;
}
