import { type StructuredText, structuredText } from './structured.js';
import type { LegacyOptions, LegacyText } from './types.js';

export interface FullProjectBody {
  project_id: string;
  project_name: string;
  exported_at: string;
  /** Block name to its texts, blocks in project order; only blocks that hold a selected text. */
  blocks: Record<string, Record<string, StructuredText>>;
  /** The texts outside blocks. */
  otherText: Record<string, StructuredText>;
}

export interface FullComponentsBody {
  project_id: string;
  project_name: string;
  exported_at: string;
  components: Record<string, StructuredText>;
}

export interface FullHeader {
  id: string;
  name: string;
  exportedAt: string;
}

/**
 * `full` of a project: its texts grouped by block (in the order given, the project's order),
 * each text as in `structured`. Blocks with the same name share one entry.
 */
export function fullProjectBody(header: FullHeader, texts: readonly LegacyText[], options: LegacyOptions) {
  const body: FullProjectBody = {
    project_id: header.id,
    project_name: header.name,
    exported_at: header.exportedAt,
    // Block names are free text: without a prototype, `constructor` or `__proto__` is a plain key.
    blocks: Object.create(null) as FullProjectBody['blocks'],
    otherText: {},
  };
  for (const text of texts) {
    let target = body.otherText;
    if (text.block != null) {
      target = body.blocks[text.block] ?? {};
      body.blocks[text.block] = target;
    }
    target[text.id] = structuredText(text, options);
  }
  return body;
}

/** `full` of components: the library as one source with its components, each as in `structured`. */
export function fullComponentsBody(
  header: FullHeader,
  texts: readonly LegacyText[],
  options: LegacyOptions,
): FullComponentsBody {
  const components: Record<string, StructuredText> = {};
  for (const text of texts) components[text.id] = structuredText(text, options);
  return { project_id: header.id, project_name: header.name, exported_at: header.exportedAt, components };
}
