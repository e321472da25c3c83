import { STRONG } from './marks.js';
import type { Atom } from './tokenize.js';

/** A run of text sharing one set of marks, or a line break: the canonical form of rich text. */
export type Run = { kind: 'text'; text: string; marks: number } | { kind: 'br' };

/** Source whitespace around a block boundary. A no-break space is deliberate and stays. */
const isSourceWhitespace = (atom: Atom | undefined): boolean =>
  atom?.kind === 'char' && (atom.char === ' ' || atom.char === '\t' || atom.char === '\n' || atom.char === '\f');

/**
 * Turns atoms into runs. Text keeps its whitespace and a newline is a line break (so markup-free
 * text means the same as plain text); block boundaries become single line breaks with the
 * whitespace around them trimmed; a newline right after `<br>` is that tag's source line end.
 */
export function normalize(atoms: Atom[], options: { dropWholeBold: boolean }): Run[] {
  let resolved = resolveBlocks(atoms);
  if (options.dropWholeBold && isWhollyBold(resolved)) {
    resolved = resolved.map((atom) => (atom.kind === 'char' ? { ...atom, marks: atom.marks & ~STRONG } : atom));
  }
  return merge(resolved);
}

function resolveBlocks(atoms: Atom[]): Atom[] {
  const out: Atom[] = [];
  let afterBlock = false;
  let afterBreak = false;
  for (const atom of atoms) {
    if (atom.kind === 'block') {
      while (isSourceWhitespace(out.at(-1))) out.pop();
      const last = out.at(-1);
      if (last !== undefined && last.kind !== 'block') out.push(atom);
      afterBlock = true;
      afterBreak = false;
    } else if (afterBlock && isSourceWhitespace(atom)) {
      // indentation and newlines that open a block's line
    } else if (afterBreak && atom.kind === 'char' && atom.char === '\n') {
      // `a<br>\nb` is one line break, written on two source lines
      afterBreak = false;
    } else {
      out.push(atom);
      afterBlock = false;
      afterBreak = atom.kind === 'br';
    }
  }
  if (out.at(-1)?.kind === 'block') out.pop();
  // A block boundary right after an explicit `<br>` is the same line end (`<p>a<br></p><p>b</p>`).
  return out.flatMap((atom, i): Atom[] => {
    if (atom.kind !== 'block') return [atom];
    return out[i - 1]?.kind === 'br' ? [] : [{ kind: 'br' }];
  });
}

/** True when no visible character lies outside `strong` (the whole string is bold). */
function isWhollyBold(atoms: Atom[]): boolean {
  return !atoms.some((atom) => atom.kind === 'char' && !/^\s$/u.test(atom.char) && (atom.marks & STRONG) === 0);
}

function merge(atoms: Atom[]): Run[] {
  const runs: Run[] = [];
  for (const atom of atoms) {
    if (atom.kind !== 'char' || atom.char === '\n') {
      runs.push({ kind: 'br' });
      continue;
    }
    const last = runs.at(-1);
    if (last?.kind === 'text' && last.marks === atom.marks) last.text += atom.char;
    else runs.push({ kind: 'text', text: atom.char, marks: atom.marks });
  }
  return runs;
}
