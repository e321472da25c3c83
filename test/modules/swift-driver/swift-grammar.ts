import Parser from 'tree-sitter';
import Swift from 'tree-sitter-swift';

/**
 * `Ditto.swift` read with a real Swift grammar (tree-sitter-swift through the tree-sitter Node
 * bindings): syntax problems, and the accessors as the tree shows them. String literals are
 * decoded here from Swift's escape rules, independently of the generator's encoder.
 */

const parser = new Parser();
parser.setLanguage(Swift as unknown as Parser.Language);

export interface GrammarProblem {
  kind: 'ERROR' | 'MISSING';
  row: number;
  column: number;
  text: string;
}

export function parseSwift(source: string): Parser.Tree {
  return parser.parse(source);
}

/** Every ERROR and MISSING node of the tree, where it is and what it covers. */
export function grammarProblems(source: string): GrammarProblem[] {
  const problems: GrammarProblem[] = [];
  const visit = (node: Parser.SyntaxNode) => {
    if (node.type === 'ERROR' || node.isMissing) {
      problems.push({
        kind: node.isMissing ? 'MISSING' : 'ERROR',
        row: node.startPosition.row + 1,
        column: node.startPosition.column + 1,
        text: node.text.slice(0, 80) || node.type,
      });
    }
    for (const child of node.children) visit(child);
  };
  visit(parseSwift(source).rootNode);
  return problems;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  '\\': '\\',
  t: '\t',
  n: '\n',
  r: '\r',
  '"': '"',
  "'": "'",
};

/**
 * The value of a single-line string literal (quotes included), by Swift's rules: the escapes
 * `\0 \\ \t \n \r \" \'` and `\u{1-8 hex}`; a raw line break, an interpolation `\(` or any other
 * escape is an error.
 */
export function decodeSwiftString(literal: string): string {
  if (!literal.startsWith('"') || !literal.endsWith('"') || literal.length < 2) {
    throw new Error(`not a string literal: ${literal}`);
  }
  const body = literal.slice(1, -1);
  if (/[\n\r]/.test(body)) throw new Error(`raw line break in ${literal}`);
  return body.replace(/\\(u\{([0-9A-Fa-f]{1,8})\}|.)/gsu, (_match, sequence: string, hex?: string) => {
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    const value = ESCAPES[sequence];
    if (value === undefined) throw new Error(`invalid escape \\${sequence} in ${literal}`);
    return value;
  });
}

export interface SwiftParameter {
  /** The argument label (`_` for none). */
  label: string;
  name: string;
  type: string;
  /** The default value's source text, or null. */
  defaultValue: string | null;
}

export interface SwiftAccessor {
  name: string;
  parameters: SwiftParameter[];
  returnType: string;
  /** The `NSLocalizedString` call's key, table and comment, decoded. */
  key: string;
  table: string;
  comment: string;
  /** The identifiers passed to `String.localizedStringWithFormat` after the format, or null when it is not called. */
  formatArguments: string[] | null;
  /** The `///` lines above the declaration. */
  doc: string[];
}

/** The arguments of a call, once: each read of a node's children builds their objects again. */
function argumentsOf(call: Parser.SyntaxNode): Parser.SyntaxNode[] {
  return call.descendantsOfType('value_arguments')[0]?.namedChildren ?? [];
}

function literalArgument(call: Parser.SyntaxNode, args: Parser.SyntaxNode[], label: string | null): string {
  const arg = args.find((a) => (a.childForFieldName('name')?.text ?? null) === label);
  const value = arg?.childForFieldName('value');
  if (value?.type !== 'line_string_literal') throw new Error(`no literal ${label} in ${call.text}`);
  if (value.descendantsOfType('interpolated_expression').length > 0) throw new Error(`interpolation in ${value.text}`);
  return decodeSwiftString(value.text);
}

function docAbove(node: Parser.SyntaxNode): string[] {
  const lines: string[] = [];
  for (let prev = node.previousSibling; prev?.type === 'comment' && prev.text.startsWith('///'); ) {
    lines.unshift(prev.text.replace(/^\/\/\/ ?/, ''));
    prev = prev.previousSibling;
  }
  return lines;
}

/**
 * The functions of `struct Ditto` that return a `String`, each with its children. A node's
 * `children` and `namedChildren` build new objects for every child at each read (the tree lives
 * in the native addon): each is read once per node here.
 */
function stringFunctions(root: Parser.SyntaxNode): { fn: Parser.SyntaxNode; children: Parser.SyntaxNode[] }[] {
  const ditto = root.namedChildren.find(
    (n) => n.type === 'class_declaration' && n.childForFieldName('name')?.text === 'Ditto',
  );
  if (!ditto) throw new Error('no struct Ditto');
  return ditto
    .descendantsOfType('function_declaration')
    .map((fn) => ({ fn, children: fn.children }))
    .filter(({ children }) => children.some((c) => c.type === '->') && children.at(-2)?.text === 'String');
}

/**
 * The accessors' names alone, in order, for a driver too large to decode whole in a test (tens
 * of thousands of accessors): the same grammar and the same functions as `accessorsOf`, and the
 * whole tree free of syntax errors.
 */
export function accessorNamesOf(source: string): string[] {
  const root = parseSwift(source).rootNode;
  if (root.hasError) throw new Error('the driver has syntax errors');
  return stringFunctions(root).map(({ fn }) => fn.childForFieldName('name')?.text ?? '');
}

/** The static functions of `struct Ditto` that return a `String`: the accessors. */
export function accessorsOf(source: string): SwiftAccessor[] {
  return stringFunctions(parseSwift(source).rootNode).map(({ fn, children }) => {
    const parameters: SwiftParameter[] = [];
    children.forEach((child, i) => {
      if (child.type !== 'parameter') return;
      const named = child.namedChildren;
      const names = named.filter((c) => c.type === 'simple_identifier').map((c) => c.text);
      const type = named.at(-1)?.text ?? '';
      const next = children[i + 1];
      const defaultValue = next?.type === '=' ? (children[i + 2]?.text ?? null) : null;
      parameters.push({ label: names[0] ?? '', name: names.at(-1) ?? '', type, defaultValue });
    });
    const body = fn.childForFieldName('body');
    const lookup = body?.descendantsOfType('call_expression').find((c) => c.child(0)?.text === 'NSLocalizedString');
    if (!lookup) throw new Error(`no NSLocalizedString in ${fn.text}`);
    const outer = lookup.parent?.parent?.parent?.parent;
    const formatArguments =
      outer?.type === 'call_expression' && outer.child(0)?.text === 'String.localizedStringWithFormat'
        ? argumentsOf(outer)
            .slice(1)
            .map((a) => a.text)
        : null;
    const args = argumentsOf(lookup);
    return {
      name: fn.childForFieldName('name')?.text ?? '',
      parameters,
      returnType: 'String',
      key: literalArgument(lookup, args, null),
      table: literalArgument(lookup, args, 'tableName'),
      comment: literalArgument(lookup, args, 'comment'),
      formatArguments,
      doc: docAbove(fn),
    };
  });
}
