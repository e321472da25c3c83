import type { ExportEntry } from '../types.js';

/**
 * One text of a body of the deprecated v0/v1 API: an export entry (already resolved to the
 * requested variant's text, or base text) with the fields the legacy JSON bodies carry besides.
 */
export interface LegacyText extends ExportEntry {
  /** The status of the text shown: a variant value's own status for a variant fetch. */
  status: string;
  tags: string[];
  /** Components only: the component's name and the developer ID of its folder (null at the root). */
  component?: { name: string; folder: string | null };
  /** Text items only: the name of the block holding the item, null outside blocks. */
  block?: string | null;
}

export interface LegacyOptions {
  /** `includeRichText=true`: `rich_text` beside the text (structured and full only). */
  richText: boolean;
}
