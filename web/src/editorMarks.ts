import { Extension } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { PLACEHOLDER } from './model';

/**
 * What the rich editor draws over the text without changing it: `{{name}}` placeholders as
 * tokens (a workspace variable, or an unknown name that will stay literal), and the words a
 * style-guide finding is about. Decorations, not nodes: the stored text stays plain `{{name}}`,
 * as the API and every export read it, and typing braces by hand makes a token as well.
 */

export interface LintMark {
  /** UTF-16 offsets in the editor's plain text (lines joined with `\n`), as the lint API gives them. */
  start: number;
  end: number;
  message: string;
  /** The words the finding was about: a mark whose words were since edited away is not drawn. */
  words?: string;
  /** How it is drawn: a style-guide finding by default; `comment-mark` for a comment's passage. */
  className?: string;
}

export interface MarkSource {
  variables: ReadonlySet<string>;
  findings: readonly LintMark[];
}

export const marksKey = new PluginKey<DecorationSet>('copydeskMarks');

/**
 * Maps offsets of the plain text (`getText({ blockSeparator: '\n' })`: a line break and a
 * paragraph boundary are one `\n` each) to document positions.
 */
export function plainPositions(doc: PmNode): { text: string; positionAt: (offset: number) => number } {
  let text = '';
  const positions: number[] = [];
  let blocks = 0;
  doc.descendants((node, pos) => {
    if (node.isTextblock) {
      if (blocks > 0) {
        positions.push(pos);
        text += '\n';
      }
      blocks += 1;
      return true;
    }
    if (node.isText) {
      const value = node.text ?? '';
      for (let i = 0; i < value.length; i += 1) positions.push(pos + i);
      text += value;
    } else if (node.type.name === 'hardBreak') {
      positions.push(pos);
      text += '\n';
    }
    return false;
  });
  const end = doc.content.size - 1;
  return {
    text,
    positionAt: (offset) => (offset < positions.length ? (positions[offset] ?? end) : end),
  };
}

function decorationsOf(doc: PmNode, source: MarkSource): DecorationSet {
  const { text, positionAt } = plainPositions(doc);
  const decorations: Decoration[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    const known = source.variables.has(name);
    const from = positionAt(match.index);
    const to = positionAt(match.index + match[0].length - 1) + 1;
    decorations.push(
      Decoration.inline(from, to, {
        class: known ? 'var-token' : 'var-token unknown',
        title: known ? `Variable ${name}` : `Unknown variable ${name}: it stays literal text`,
        'data-variable': name,
      }),
    );
  }
  for (const finding of source.findings) {
    if (finding.end <= finding.start || finding.end > text.length) continue;
    if (finding.words !== undefined && text.slice(finding.start, finding.end) !== finding.words) continue;
    const from = positionAt(finding.start);
    const to = positionAt(finding.end - 1) + 1;
    decorations.push(Decoration.inline(from, to, { class: finding.className ?? 'lint-mark', title: finding.message }));
  }
  return DecorationSet.create(doc, decorations);
}

/** `read` answers the current variables and findings; dispatch a transaction with `marksKey` meta to redraw. */
export function textMarks(read: () => MarkSource) {
  return Extension.create({
    name: 'copydeskMarks',
    addProseMirrorPlugins() {
      return [
        new Plugin<DecorationSet>({
          key: marksKey,
          state: {
            init: (_config, state) => decorationsOf(state.doc, read()),
            apply: (tr, old, _before, state) =>
              tr.docChanged || tr.getMeta(marksKey) ? decorationsOf(state.doc, read()) : old,
          },
          props: {
            decorations: (state) => marksKey.getState(state),
          },
        }),
      ];
    },
  });
}
