/**
 * What a copy tells its user while it runs and when it ends: a progress line on a terminal, one
 * JSON document per line otherwise (for scripts and logs), and a summary of what was created,
 * updated, left as it was, and what could not be carried.
 */

export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
}

export interface CopySummary {
  workspaceId: number;
  source: string;
  counts: Record<string, Tally>;
  /** What the copy could not carry, one sentence each. */
  notCarried: string[];
}

export interface Progress {
  phase(name: string, total: number): void;
  advance(count: number): void;
  end(): void;
}

export class Report {
  readonly counts: Record<string, Tally> = {};
  readonly notCarried: string[] = [];

  constructor(readonly progress: Progress) {}

  count(kind: string, what: keyof Tally, n = 1): void {
    if (n === 0) return;
    this.counts[kind] ??= { created: 0, updated: 0, unchanged: 0 };
    this.counts[kind][what] += n;
  }

  skip(sentence: string): void {
    this.notCarried.push(sentence);
  }
}

const BAR_WIDTH = 30;

/** A progress that keeps the phase, its total and how much is done, and shows them at every step. */
function shownProgress(
  show: (phase: string, done: number, total: number) => void,
  around: { phase?: () => void; end?: () => void } = {},
): Progress {
  let name = '';
  let total = 0;
  let done = 0;
  return {
    phase(next, count) {
      around.phase?.();
      name = next;
      total = count;
      done = 0;
      show(name, done, total);
    },
    advance(count) {
      done += count;
      show(name, done, total);
    },
    end() {
      around.end?.();
    },
  };
}

/** A one-line bar redrawn in place (`\r`), written to the terminal's stderr. */
export function terminalProgress(write: (text: string) => void): Progress {
  let drawn = false;
  const draw = (name: string, done: number, total: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    write(`\r${bar} ${String(Math.round(share * 100)).padStart(3)}% ${name} ${done}/${total}\u001b[K`);
    drawn = true;
  };
  const endLine = () => {
    if (drawn) write('\n');
  };
  return shownProgress(draw, {
    phase: endLine,
    end: () => {
      endLine();
      drawn = false;
    },
  });
}

/** One JSON document per line: `{"phase":"textItems","done":1000,"total":10000}`. */
export function jsonProgress(out: (line: string) => void): Progress {
  return shownProgress((phase, done, total) => out(JSON.stringify({ phase, done, total })));
}

export function describeSummary(summary: CopySummary): string {
  const lines = [`Copied ${summary.source} into workspace ${summary.workspaceId}`];
  for (const [kind, t] of Object.entries(summary.counts)) {
    lines.push(`  ${kind.padEnd(16)} ${t.created} created, ${t.updated} updated, ${t.unchanged} unchanged`);
  }
  if (summary.notCarried.length === 0) lines.push('Everything was carried.');
  else {
    lines.push(`Not carried (${summary.notCarried.length}):`);
    for (const sentence of summary.notCarried) lines.push(`  - ${sentence}`);
  }
  return lines.join('\n');
}
