/**
 * A JSON list read as it arrives: the answer's bytes go in chunk by chunk, and each element of the
 * list comes out parsed as soon as its last byte is in, so memory holds one element, never the
 * answer. The list is the answer itself (`[...]`) or, as some servers wrap it, the property `key`
 * of an object (`{ "textItems": [...] }`).
 *
 * Only the structure around the elements is scanned here (brackets, commas, strings): each element
 * is parsed by `JSON.parse`, which checks it fully. Anything else the answer holds (another
 * property of the wrapping object) is parsed the same way, to check it, and dropped.
 */

export class ListSyntaxError extends Error {}
export class NotAList extends Error {}
export class RecordTooLarge extends Error {
  constructor(readonly index: number) {
    super('record too large');
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Where the scan stands between values: `begin` before the answer, `first`/`next`/`value` in the
 * list (before its first element, after an element, after a comma), `key`/`colon`/`member`/`after`
 * in a wrapping object, `end` after the answer.
 */
type State = 'begin' | 'first' | 'next' | 'value' | 'objFirst' | 'key' | 'colon' | 'member' | 'after' | 'end';

type Capture = {
  kind: 'nested' | 'string' | 'scalar';
  depth: number;
  inString: boolean;
  escape: boolean;
  parts: Uint8Array[];
  size: number;
  /** What the value is: an element of the list, a key of the wrapping object, or another member. */
  role: 'element' | 'key' | 'member';
};

export class ListSplitter {
  private state: State = 'begin';
  private wrapped = false;
  private found = false;
  private key = '';
  private capture: Capture | undefined;
  private index = 0;
  private position = 0;
  /** The offset in the answer of the byte being scanned, for messages. */
  private cursor = 0;

  constructor(
    private readonly listKey: string,
    private readonly onElement: (value: unknown, index: number) => void,
    private readonly maxRecordBytes: number,
  ) {}

  /** The elements delivered so far. */
  get count(): number {
    return this.index;
  }

  write(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.capture) {
        i = this.scanCapture(chunk, i);
        continue;
      }
      const b = chunk[i] as number;
      if (isSpace(b)) {
        i += 1;
        continue;
      }
      this.cursor = this.position + i;
      this.structural(b);
      // A value starts at this byte: the capture takes it from here.
      if (!this.capture) i += 1;
    }
    this.position += chunk.length;
  }

  /** The answer has ended: anything unfinished is a broken answer. */
  end(): void {
    if (this.state !== 'end' || this.capture) throw new ListSyntaxError('the answer ended early');
    if (this.wrapped && !this.found) throw new NotAList();
  }

  private syntax(): never {
    throw new ListSyntaxError(`unexpected character at byte ${this.cursor}`);
  }

  private structural(b: number): void {
    switch (this.state) {
      case 'begin':
        if (b === OPEN_ARRAY) this.state = 'first';
        else if (b === OPEN_OBJECT) {
          this.wrapped = true;
          this.state = 'objFirst';
        } else if (b === QUOTE || b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x74 || b === 0x66 || b === 0x6e) {
          throw new NotAList();
        } else this.syntax();
        return;
      case 'first':
        if (b === CLOSE_ARRAY) this.closeList();
        else this.startValue(b, 'element');
        return;
      case 'value':
        this.startValue(b, 'element');
        return;
      case 'next':
        if (b === COMMA) this.state = 'value';
        else if (b === CLOSE_ARRAY) this.closeList();
        else this.syntax();
        return;
      case 'objFirst':
        if (b === CLOSE_OBJECT) this.state = 'end';
        else if (b === QUOTE) this.startValue(b, 'key');
        else this.syntax();
        return;
      case 'key':
        if (b === QUOTE) this.startValue(b, 'key');
        else this.syntax();
        return;
      case 'colon':
        if (b === COLON) this.state = 'member';
        else this.syntax();
        return;
      case 'member':
        if (this.key === this.listKey) {
          if (b !== OPEN_ARRAY || this.found) throw new NotAList();
          this.found = true;
          this.state = 'first';
          return;
        }
        this.startValue(b, 'member');
        return;
      case 'after':
        if (b === COMMA) this.state = 'key';
        else if (b === CLOSE_OBJECT) this.state = 'end';
        else this.syntax();
        return;
      case 'end':
        this.syntax();
    }
  }

  private closeList(): void {
    this.state = this.wrapped ? 'after' : 'end';
  }

  private startValue(b: number, role: Capture['role']): void {
    const kind = b === OPEN_ARRAY || b === OPEN_OBJECT ? 'nested' : b === QUOTE ? 'string' : 'scalar';
    if (kind === 'scalar' && (b === CLOSE_ARRAY || b === CLOSE_OBJECT || b === COMMA || b === COLON)) this.syntax();
    this.capture = { kind, depth: 0, inString: false, escape: false, parts: [], size: 0, role };
  }

  /** Scans a value from `start`; returns where the scan stopped (the value's end, or the chunk's). */
  private scanCapture(chunk: Uint8Array, start: number): number {
    const c = this.capture as Capture;
    let i = start;
    let done = false;
    for (; i < chunk.length; i += 1) {
      const b = chunk[i] as number;
      if (c.inString) {
        if (c.escape) c.escape = false;
        else if (b === BACKSLASH) c.escape = true;
        else if (b === QUOTE) {
          c.inString = false;
          if (c.kind === 'string') {
            i += 1;
            done = true;
            break;
          }
        }
        continue;
      }
      if (c.kind === 'scalar') {
        if (isSpace(b) || b === COMMA || b === CLOSE_ARRAY || b === CLOSE_OBJECT || b === COLON) {
          done = true;
          break;
        }
        continue;
      }
      if (b === QUOTE) c.inString = true;
      else if (c.kind === 'nested') {
        if (b === OPEN_ARRAY || b === OPEN_OBJECT) c.depth += 1;
        else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
          c.depth -= 1;
          if (c.depth === 0) {
            i += 1;
            done = true;
            break;
          }
        }
      }
    }
    if (i > start) {
      c.parts.push(chunk.subarray(start, i));
      c.size += i - start;
      if (c.size > this.maxRecordBytes) throw new RecordTooLarge(this.index);
    }
    this.cursor = this.position + i;
    if (done) this.finishCapture();
    return i;
  }

  private finishCapture(): void {
    const c = this.capture as Capture;
    this.capture = undefined;
    const text = Buffer.concat(c.parts, c.size).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ListSyntaxError(`a value that is not JSON, ending at byte ${this.cursor}`);
    }
    if (c.role === 'key') {
      this.key = value as string;
      this.state = 'colon';
    } else if (c.role === 'member') {
      this.state = 'after';
    } else {
      const index = this.index;
      this.index += 1;
      this.state = 'next';
      this.onElement(value, index);
    }
  }
}
