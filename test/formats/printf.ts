/**
 * The printf subset our exports use, applied the way Foundation / java.util.Formatter do:
 * `%N$@`, `%N$s`, `%N$lld`, `%N$d`, `%N$f` and `%%`. Any other `%` is an error, which is how the
 * tests catch an unescaped literal percent. `%f` prints the number as given (the tests only check
 * which argument lands where).
 */
export function formatPrintf(format: string, args: readonly unknown[]): string {
  return format.replace(/%(?:(\d+)\$(?:@|s|lld|d|f)|%|.?)/gsu, (match, position: string | undefined) => {
    if (match === '%%') return '%';
    if (position === undefined) {
      throw new Error(`unexpected format specifier ${JSON.stringify(match)} in ${JSON.stringify(format)}`);
    }
    const index = Number(position) - 1;
    if (index < 0 || index >= args.length)
      throw new Error(`argument %${position}$ out of range in ${JSON.stringify(format)}`);
    return String(args[index]);
  });
}

/** The positions a format string refers to (`%2$@` gives 2). */
export function argumentPositions(format: string): number[] {
  return Array.from(format.replace(/%%/g, '').matchAll(/%(\d+)\$/g), (match) => Number(match[1]));
}
