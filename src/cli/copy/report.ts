import type { ReadingState } from './source.js';

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
  /**
   * While the source is read: the request under way, and the bytes and records fetched so far.
   * Shown at once unless `quiet`; a quiet state is shown with the next step.
   */
  reading(state: ReadingState, quiet?: boolean): void;
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
  show: (phase: string, done: number, total: number, reading?: ReadingState) => void,
  around: { phase?: () => void; end?: () => void } = {},
): Progress {
  let name = '';
  let total = 0;
  let done = 0;
  let reading: ReadingState | undefined;
  return {
    reading(state, quiet = false) {
      reading = state;
      if (!quiet) show(name, done, total, state);
    },
    phase(next, count) {
      around.phase?.();
      name = next;
      total = count;
      done = 0;
      // Reading phases carry what has been fetched so far; the phases that write do not.
      if (!next.startsWith('reading')) reading = undefined;
      show(name, done, total, reading);
    },
    advance(count) {
      done += count;
      show(name, done, total, reading);
    },
    end() {
      around.end?.();
    },
  };
}

/** A one-line bar redrawn in place (`\r`), written to the terminal's stderr. */
export function terminalProgress(write: (text: string) => void): Progress {
  let drawn = false;
  const draw = (name: string, done: number, total: number, reading?: ReadingState) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    const fetched = reading
      ? ` · ${megabytes(reading.bytes)}, ${reading.records} records${reading.waitingSeconds ? ` · waiting ${reading.waitingSeconds} s for ${reading.step}` : ''}`
      : '';
    write(`\r${bar} ${String(Math.round(share * 100)).padStart(3)}% ${name} ${done}/${total}${fetched}\u001b[K`);
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

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * One JSON document per line: `{"phase":"textItems","done":1000,"total":10000}`; while the source
 * is read, with the request, the bytes and records so far, and how long it has been silent.
 */
export function jsonProgress(out: (line: string) => void): Progress {
  return shownProgress((phase, done, total, reading) => out(JSON.stringify({ phase, done, total, ...reading })));
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
