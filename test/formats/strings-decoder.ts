/**
 * A decoder of `.strings` files written from the CoreFoundation grammar (old-style property list
 * dictionary without braces), not from our exporter: `"key" = "value";` pairs, `/* *\/` and `//`
 * comments, whitespace between tokens, a mandatory `;`. Quoted strings know the escapes `\\ \"
 * \n \r \t` and `\U` with four hex digits; anything else is rejected so the tests stay strict.
 */

export interface StringsRecord {
  value: string;
  /** The comments directly above the pair, without their delimiters. */
  comments: string[];
}

export function decodeStrings(source: string): Map<string, StringsRecord> {
  const records = new Map<string, StringsRecord>();
  let pos = 0;
  let comments: string[] = [];

  const fail = (message: string): never => {
    const line = source.slice(0, pos).split('\n').length;
    throw new Error(`.strings line ${line}: ${message}`);
  };

  const skip = (): void => {
    for (;;) {
      while (pos < source.length && /\s/.test(source[pos]!)) pos++;
      if (source.startsWith('/*', pos)) {
        const end = source.indexOf('*/', pos + 2);
        if (end === -1) fail('unterminated comment');
        comments.push(source.slice(pos + 2, end).trim());
        pos = end + 2;
      } else if (source.startsWith('//', pos)) {
        const end = source.indexOf('\n', pos);
        comments.push(source.slice(pos + 2, end === -1 ? source.length : end).trim());
        pos = end === -1 ? source.length : end + 1;
      } else return;
    }
  };

  const quoted = (): string => {
    if (source[pos] !== '"') fail(`expected '"' but found ${JSON.stringify(source[pos] ?? 'end of file')}`);
    pos++;
    let out = '';
    for (;;) {
      if (pos >= source.length) fail('unterminated string');
      const char = source[pos++]!;
      if (char === '"') return out;
      if (char !== '\\') {
        out += char;
        continue;
      }
      const code = source[pos++];
      if (code === '\\' || code === '"') out += code;
      else if (code === 'n') out += '\n';
      else if (code === 'r') out += '\r';
      else if (code === 't') out += '\t';
      else if (code === 'U') {
        const hex = source.slice(pos, pos + 4);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail(`bad \\U escape ${JSON.stringify(hex)}`);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        pos += 4;
      } else fail(`unknown escape \\${code}`);
    }
  };

  const expect = (token: string): void => {
    skip();
    if (source[pos] !== token) fail(`expected '${token}' but found ${JSON.stringify(source[pos] ?? 'end of file')}`);
    pos++;
  };

  for (;;) {
    skip();
    if (pos >= source.length) return records;
    const above = comments;
    comments = [];
    const key = quoted();
    expect('=');
    skip();
    const value = quoted();
    expect(';');
    if (records.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
    records.set(key, { value, comments: above });
  }
}
