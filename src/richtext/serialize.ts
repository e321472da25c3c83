import { MARK_ORDER } from './marks.js';
import type { Run } from './normalize.js';

/**
 * Escapes text for an HTML text node the way HTML serialisers do (`& < >` and the no-break
 * space, which would otherwise be invisible in stored markup). Quotes need no escaping outside
 * attributes, and the stored markup has no attributes.
 */
export function escapeText(text: string): string {
  return text.replace(/[&<>\u00a0]/g, (char) => ESCAPES[char]!);
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\u00a0': '&nbsp;' };

/**
 * Writes runs as well-formed markup in the canonical nesting order. Marks stay open across a
 * line break when the next run keeps them (`<strong>a<br>b</strong>`); a break is written after
 * the marks the next run drops are closed and before new ones open, so the output is one
 * deterministic function of the runs and re-parses to the same runs.
 */
export function serializeRuns(runs: readonly Run[], lineBreak: string): string {
  const open: Array<readonly [number, string]> = [];
  let out = '';
  let pendingBreaks = 0;
  for (const run of runs) {
    if (run.kind === 'br') {
      pendingBreaks++;
      continue;
    }
    const keep = open.findIndex(([mark]) => (run.marks & mark) === 0);
    if (keep !== -1) {
      while (open.length > keep) out += `</${open.pop()![1]}>`;
    }
    out += lineBreak.repeat(pendingBreaks);
    pendingBreaks = 0;
    for (const entry of MARK_ORDER) {
      if ((run.marks & entry[0]) !== 0 && !open.includes(entry)) {
        out += `<${entry[1]}>`;
        open.push(entry);
      }
    }
    out += escapeText(run.text);
  }
  while (open.length > 0) out += `</${open.pop()![1]}>`;
  return out + lineBreak.repeat(pendingBreaks);
}

/** The plain text of runs: marks dropped, a line break as `\n`. */
export function runsToText(runs: readonly Run[]): string {
  return runs.map((run) => (run.kind === 'br' ? '\n' : run.text)).join('');
}

/** Splits runs at line breaks; n breaks give n + 1 lines (an empty line is an empty array). */
export function splitLines(runs: readonly Run[]): Run[][] {
  const lines: Run[][] = [[]];
  for (const run of runs) {
    if (run.kind === 'br') lines.push([]);
    else lines.at(-1)!.push(run);
  }
  return lines;
}
