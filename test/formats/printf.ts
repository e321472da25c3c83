/**
 * The printf subset our exports use, applied the way Foundation / java.util.Formatter do:
 * `%N$@`, `%N$s`, `%N$lld` and `%%`. Any other `%` is an error, which is how the tests catch an
 * unescaped literal percent. The argument types are checked as an app would hit them: `%@` and
 * `%s` take the strings that app code passes for every variable, and `%lld` (the plural count
 * of a stringsdict entry) an integer, so a number conversion left for a variable fails the test.
 */
export function formatPrintf(format: string, args: readonly unknown[]): string {
  return format.replace(/%(?:(\d+)\$(@|s|lld)|%|.?)/gsu, (match, position?: string, conversion?: string) => {
    if (match === '%%') return '%';
    if (position === undefined) {
      throw new Error(`unexpected format specifier ${JSON.stringify(match)} in ${JSON.stringify(format)}`);
    }
    const index = Number(position) - 1;
    if (index < 0 || index >= args.length)
      throw new Error(`argument %${position}$ out of range in ${JSON.stringify(format)}`);
    const arg = args[index];
    if (conversion === 'lld' ? !Number.isInteger(arg) : typeof arg !== 'string') {
      throw new Error(`%${position}$${conversion} given ${JSON.stringify(arg)} in ${JSON.stringify(format)}`);
    }
    return String(arg);
  });
}

/** The positions a format string refers to (`%2$@` gives 2). */
export function argumentPositions(format: string): number[] {
  return Array.from(format.replace(/%%/g, '').matchAll(/%(\d+)\$/g), (match) => Number(match[1]));
}

/** Whether the positions a format string refers to are exactly 1..n, none skipped. */
export function positionsAreContiguous(format: string): boolean {
  const positions = [...new Set(argumentPositions(format))].sort((a, b) => a - b);
  return positions.every((position, index) => position === index + 1);
}
