// node .ci/params.mjs [--list]: `npm run check:params`. Lists every function in src/ that takes
// more than MAX positional parameters, and exits 1 if one of them is not in the baseline
// (.ci/params-baseline.txt), or if the baseline names a function that no longer has that many (the
// list only shrinks: take the name out). Five arguments in a row are read by position alone, and
// two of the same type swap silently; one input object names each of them at the call.
// --list prints every such function, baseline or not, with its count.
// A function is named `path#name`: its declared name, else the variable, property or class member
// it is assigned to (`createX.list` for a method of an object or class), else `<anonymous>`.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const MAX = 4;
const root = join(import.meta.dirname, '..');
const ts = createRequire(join(root, 'package.json'))('typescript');
const baselineFile = join(import.meta.dirname, 'params-baseline.txt');

function sources(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const file of sources(path)) out.push(file);
    else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function nameOf(node) {
  const own = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  if (ts.isConstructorDeclaration(node)) return `${nameOf(node.parent)}.constructor`;
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) return own ?? '<class>';
  const parent = node.parent;
  if (own && (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node))) return own;
  if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) {
    const holder = parent && (ts.isClassLike(parent) ? nameOf(parent) : ownerOf(parent));
    return holder ? `${holder}.${own ?? '<method>'}` : (own ?? '<method>');
  }
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) {
    const holder = ownerOf(parent.parent);
    return holder ? `${holder}.${parent.name.text}` : parent.name.text;
  }
  if (parent && ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return `${nameOf(parent.parent)}.${parent.name.text}`;
  }
  return own ?? '<anonymous>';
}

/** The name of the function or variable an object literal belongs to, if any. */
function ownerOf(node) {
  for (let n = node; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) return n.name.text;
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) return n.name.text;
    if (ts.isSourceFile(n)) return undefined;
  }
  return undefined;
}

const found = [];
for (const file of sources(join(root, 'src'))) {
  const path = relative(root, file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    // Only functions with a body: signatures (overloads, interface members, function types) are
    // checked at their implementation.
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      // `this:` declares the receiver's type: no argument is passed for it.
      const count = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this')).length;
      if (count > MAX) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push({ id: `${path}#${nameOf(node)}`, count, at: `${path}:${line + 1}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const baseline = new Set(
  readFileSync(baselineFile, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#\s.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#')),
);

if (process.argv.includes('--list')) {
  for (const f of found.sort((a, b) => b.count - a.count || a.id.localeCompare(b.id))) {
    console.log(`${String(f.count).padStart(2)}  ${f.id}  (${f.at})${baseline.has(f.id) ? '  [baseline]' : ''}`);
  }
  console.log(`${found.length} functions with more than ${MAX} positional parameters`);
  process.exit(0);
}

let failed = 0;
const seen = new Set();
for (const f of found) {
  seen.add(f.id);
  if (baseline.has(f.id)) continue;
  failed += 1;
  console.error(`${f.at}: ${f.id} takes ${f.count} positional parameters (at most ${MAX}): take one input object`);
}
for (const id of baseline) {
  if (seen.has(id)) continue;
  failed += 1;
  console.error(`${relative(root, baselineFile)}: ${id} no longer takes more than ${MAX} parameters (or is gone): remove it from the list`);
}
console.log(
  `params: ${found.length} functions with more than ${MAX} positional parameters, ${baseline.size} in the baseline`,
);
if (failed > 0) process.exit(1);
