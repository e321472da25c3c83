import { type DefaultTreeAdapterTypes, defaultTreeAdapter, html, parseFragment } from 'parse5';
import { BLOCK_ELEMENTS, DROPPED_WITH_CONTENT, markOf } from './marks.js';

type ChildNode = DefaultTreeAdapterTypes.ChildNode;

/**
 * One character (code point) of text with its marks, an explicit `<br>`, or a block boundary.
 * A newline in text stays a `\n` character here; normalize.ts decides whether it is a line break.
 */
export type Atom = { kind: 'char'; char: string; marks: number } | { kind: 'br' } | { kind: 'block' };

type Frame = { node: ChildNode; marks: number } | { node: null };

// Markup is parsed as the content of a `<div>`, as an editor's innerHTML would be (without a
// context parse5 would use `<template>`, where table parts and `</br>` behave differently).
const CONTEXT = defaultTreeAdapter.createElement('div', html.NS.HTML, []);

/**
 * Parses markup with the HTML parser and flattens the tree into atoms.
 * The walk is iterative so hostile, deeply nested markup cannot overflow the stack.
 */
export function tokenize(markup: string, supSub: boolean): Atom[] {
  const atoms: Atom[] = [];
  const fragment = parseFragment(CONTEXT, markup, {});
  const stack: Frame[] = [];
  const pushChildren = (children: ChildNode[], marks: number) => {
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, marks });
  };
  pushChildren(fragment.childNodes, 0);

  while (stack.length > 0) {
    const frame = stack.pop()!;
    const node = frame.node;
    if (node === null) {
      atoms.push({ kind: 'block' });
      continue;
    }
    if (node.nodeName === '#text') {
      // parse5 has already decoded entities and turned CR and CRLF into LF.
      for (const char of (node as DefaultTreeAdapterTypes.TextNode).value) {
        atoms.push({ kind: 'char', char, marks: frame.marks });
      }
      continue;
    }
    if (!('tagName' in node)) continue; // comments (and CDATA, which HTML parses as a comment)
    // Foreign (SVG/MathML) content is not copy: drop it whole, whatever its tag names.
    if (node.namespaceURI !== html.NS.HTML) continue;
    const tag = node.tagName;
    if (DROPPED_WITH_CONTENT.has(tag)) continue;
    if (tag === 'br') {
      atoms.push({ kind: 'br' });
      continue;
    }
    const marks = frame.marks | markOf(tag, supSub);
    if (BLOCK_ELEMENTS.has(tag)) {
      atoms.push({ kind: 'block' });
      stack.push({ node: null });
    }
    pushChildren(node.childNodes, marks);
  }
  return atoms;
}
