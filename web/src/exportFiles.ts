/**
 * Export files named as the command-line puller names them: `<projectId>___<variantId>.<ext>`
 * for a project's text items, `components___<variantId>.<ext>` for the library, `base` for the
 * base text. Several files (every variant, every project) are one zip of such files.
 */
import { zipSync } from 'fflate';

export const FORMATS = [
  'json_i18next',
  'json_icu',
  'json_vue_i18n',
  'android',
  'ios-strings',
  'ios-stringsdict',
  'arb',
];

const EXTENSIONS: Record<string, string> = {
  android: 'xml',
  'ios-strings': 'strings',
  'ios-stringsdict': 'stringsdict',
  arb: 'arb',
};

export const extensionOf = (format: string) => EXTENSIONS[format] ?? 'json';

/** `prefix` is the project's developer ID, or `components`; `variantId` null for the base text. */
export const exportFileName = (prefix: string, variantId: string | null, format: string) =>
  `${prefix}___${variantId ?? 'base'}.${extensionOf(format)}`;

/** The zip of several files, by name. */
export function zipFiles(files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(files), { level: 6 });
}

/** Hands bytes to the browser as a download named `name`. */
export function download(name: string, bytes: Uint8Array | Blob, type = 'application/octet-stream') {
  const blob = bytes instanceof Blob ? bytes : new Blob([bytes as BlobPart], { type });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
