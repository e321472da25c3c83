/**
 * printf arguments (`%1$s`, `%@`, `%2$lld`) of the Apple and Android formats back to `{{name}}`
 * placeholders. Position N is the Nth name given; an unnumbered argument takes the next position.
 */

// `%%`, or a conversion with an optional position, flags, width, precision and length.
// No space flag: `100% sure` is text, not an argument with a space flag.
const SPEC = /%%|%(?:(\d+)\$)?[-+0#]*\d*(?:\.\d+)?(?:hh|h|ll|l|q|z|t|j|L)?([@sdiuxXoOfFeEgGcCaAp])/g;

export interface PrintfArgument {
  /** 1-based argument position. */
  position: number;
  conversion: string;
}

/** The arguments a format string uses, in text order. */
export function printfArguments(text: string): PrintfArgument[] {
  const found: PrintfArgument[] = [];
  let next = 1;
  for (const match of text.matchAll(SPEC)) {
    if (match[0] === '%%') continue;
    const position = match[1] === undefined ? next++ : Number(match[1]);
    found.push({ position, conversion: match[2]! });
  }
  return found;
}

/**
 * The text with every argument replaced by its name's placeholder and `%%` by `%`, when every
 * argument has a name; otherwise null (the text stays as written, since a half-named string
 * would be wrong either way). `formatted` says whether `%%` is an escape even without arguments
 * (a stringsdict form always is).
 */
export function namePrintf(
  text: string,
  nameOf: (position: number) => string | undefined,
  formatted = false,
): string | null {
  const args = printfArguments(text);
  if (args.length === 0) return formatted ? text.replaceAll('%%', '%') : text;
  if (args.some((arg) => nameOf(arg.position) === undefined)) return null;
  let next = 1;
  return text.replace(SPEC, (match, position: string | undefined) => {
    if (match === '%%') return '%';
    return `{{${nameOf(position === undefined ? next++ : Number(position))}}}`;
  });
}
