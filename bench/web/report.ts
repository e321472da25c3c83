/** Figures and their targets, printed one a line with PASS or FAIL, and kept for `BENCH_WEB_OUT`. */

export const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
export const median = (values: number[]) => quantile(values, 0.5);
export const p95 = (values: number[]) => quantile(values, 0.95);
export const largest = (values: number[]) => values.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);

export const ms = (value: number | null | undefined) =>
  value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : `${value.toFixed(0)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export interface Figure {
  size: number;
  database: string;
  name: string;
  value: number | null;
  unit: string;
  target: string;
  pass: boolean | null;
  detail: string;
}

export const figures: Figure[] = [];

/**
 * Prints a figure: its name, what was measured, the target (under `limit`) and PASS/FAIL (a null
 * value: the measurement did not complete, a FAIL), and what else was seen.
 */
export function report(
  where: { size: number; database: string },
  {
    name,
    value,
    unit,
    limit,
    detail,
  }: { name: string; value: number | null; unit: string; limit: number | null; detail: string },
): void {
  const measured = value !== null && !Number.isNaN(value);
  // A figure without a target is informative; one that was not measured at all is a failure.
  const pass = limit === null ? (measured ? null : false) : measured && value < limit;
  const target = limit === null ? '' : `< ${limit} ${unit}`;
  const verdict = pass === null ? '' : pass ? 'PASS' : 'FAIL';
  const shown = value === null || Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} ${unit}`;
  console.log(`  ${name.padEnd(36)} ${shown.padStart(9)}  ${target.padEnd(10)} ${verdict.padEnd(4)}  ${detail}`);
  figures.push({ ...where, name, value, unit, target, pass, detail });
}
