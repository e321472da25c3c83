/**
 * android: a `res/values/strings.xml` resource file with `<string>` and `<plurals>` (rules and
 * choices in docs/formats/android.md).
 */
import { normalize } from '../richtext/normalize.js';
import { tokenize } from '../richtext/tokenize.js';
import { splitTemplate } from '../text/placeholders.js';
import { androidValue, plainAndroidValue, type ValuePiece, xliffArgument } from './shared/android-value.js';
import { pluralForms } from './shared/plurals.js';
import { placeholderNames, usesKnown } from './shared/template.js';
import { orderVariables, variableExample } from './shared/variables.js';
import { variantCommentTexts } from './shared/variant-comments.js';
import { xmlAttribute, xmlComment } from './shared/xml.js';
import { type DocumentHeader, type ExportVariable, type FileFormat, wholeFile } from './types.js';

interface Argument {
  spec: string;
  example: string;
}

export const androidFormat: FileFormat = {
  contentType: 'text/xml; charset=utf-8',
  writer(document) {
    const taken = new Set<string>();
    const args = argumentMaps(document);
    const rich = document.options.richText !== null;
    return {
      head: () =>
        lines([
          '<?xml version="1.0" encoding="utf-8"?>',
          ...variantCommentTexts(document).map(xmlComment),
          '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">',
        ]),
      entry(entry) {
        // Two IDs that sanitise to the same name: the later one is renamed (`_2`, `_3`, ...).
        const name = resourceName(sanitisedName(entry.id), taken);
        const names = `name="${name}" ditto_api_id="${xmlAttribute(entry.id)}"`;
        let out = entry.notes === '' ? '' : `  ${xmlComment(entry.notes)}\n`;
        // A plural record keeps its primary text as a <string> of the same name (as the original
        // does, so `R.string.<name>` still resolves); it is numbered like any other string.
        const own = args.of(entry.variables, entry.text);
        const primaryRich = rich ? entry.richText : null;
        let value: string;
        let formatted: boolean;
        if (primaryRich === null) {
          // Plain text (the usual case): written straight from the text, without pieces.
          formatted = usesKnown(entry.text, own.known);
          value = plainAndroidValue(entry.text, own.known, own.xliff, formatted);
        } else {
          const primary = piecesOf(entry.text, primaryRich, own);
          formatted = primary.some((piece) => piece.kind === 'variable');
          value = androidValue(primary, formatted);
        }
        const attributes = !formatted && hasTwoPercents(entry.text) ? `${names} formatted="false"` : names;
        out += `  <string ${attributes}>${value}</string>\n`;
        if (entry.plurals.length === 0) return out;
        const all = args.of(entry.variables, null);
        const cases = pluralForms(entry, document.locale);
        out += `  <plurals ${names}>\n`;
        if (!rich || cases.every((form) => form.richText === null)) {
          // `getQuantityString(id, n, args)` formats every item once the record has arguments.
          const pluralFormatted = cases.some((form) => usesKnown(form.text, all.known));
          for (const form of cases) {
            out += `    <item quantity="${form.form}">${plainAndroidValue(form.text, all.known, all.xliff, pluralFormatted)}</item>\n`;
          }
          return `${out}  </plurals>\n`;
        }
        const forms = cases.map((form) => ({
          form: form.form,
          pieces: piecesOf(form.text, rich ? form.richText : null, all),
        }));
        const pluralFormatted = forms.some((form) => form.pieces.some((piece) => piece.kind === 'variable'));
        for (const form of forms) {
          out += `    <item quantity="${form.form}">${androidValue(form.pieces, pluralFormatted)}</item>\n`;
        }
        return `${out}  </plurals>\n`;
      },
      tail: () => '</resources>\n',
    };
  },
};

export const android = wholeFile(androidFormat);

const lines = (list: readonly string[]) => `${list.join('\n')}\n`;

/** Whether the text holds `%` twice or more (a string without arguments then says `formatted="false"`). */
function hasTwoPercents(text: string): boolean {
  const first = text.indexOf('%');
  return first >= 0 && text.indexOf('%', first + 1) >= 0;
}

/** The developer ID with every character outside `[A-Za-z0-9_.]` replaced by `_`. */
const sanitisedName = (id: string) => id.replace(/[^A-Za-z0-9_.]/g, '_');

/**
 * The resource name of an ID, given its sanitised form `base`, taken: the sanitised ID. Two IDs
 * that map to the same name (`a-b`, `a_b`) would break the build, so later ones get `_2`, `_3`, ...
 */
function resourceName(base: string, taken: Set<string>): string {
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
  taken.add(name);
  return name;
}

/** The arguments of a string, with the names they cover (a `Set`, for `splitTemplate`). */
interface Arguments {
  byName: Map<string, Argument>;
  known: Set<string>;
  /** The `<xliff:g>` of each argument, written once per file. */
  xliff: (name: string) => string;
}

const NO_ARGUMENTS: Arguments = { byName: new Map(), known: new Set(), xliff: () => '' };

/**
 * Variables numbered from 1 in `variableOrder`, every one a string argument (`%1$s`), numbers
 * included, as the original writes them. With a text, only the variables it uses, so a string
 * never skips a position; the quantity of a plural is passed separately on Android. Most entries
 * of a file use the same few sets of variables, so each set's arguments are made once per file.
 */
function argumentMaps(document: DocumentHeader) {
  const made = new Map<string, Arguments>();
  const make = (ordered: readonly ExportVariable[]): Arguments => {
    const key = namesKey(ordered);
    let found = made.get(key);
    if (found === undefined) {
      const byName = new Map(
        ordered.map((variable, index) => [
          variable.name,
          { spec: `%${index + 1}$s`, example: variableExample(variable) },
        ]),
      );
      const written = new Map(
        [...byName].map(([name, argument]) => [name, xliffArgument(name, argument.example, argument.spec)]),
      );
      found = { byName, known: new Set(byName.keys()), xliff: (name) => written.get(name) as string };
      made.set(key, found);
    }
    return found;
  };
  // The entries' variables in `variableOrder`, by their names as listed: the same few lists recur.
  const orderedLists = new Map<string, ExportVariable[]>();
  const inOrder = (variables: readonly ExportVariable[]): ExportVariable[] => {
    const key = namesKey(variables);
    let ordered = orderedLists.get(key);
    if (ordered === undefined) {
      ordered = orderVariables(variables, document.options.variableOrder);
      orderedLists.set(key, ordered);
    }
    return ordered;
  };
  return {
    of(variables: readonly ExportVariable[], text: string | null): Arguments {
      if (variables.length === 0) return NO_ARGUMENTS;
      const ordered = inOrder(variables);
      if (text === null) return make(ordered);
      const used = new Set<string>();
      placeholderNames(text, used);
      if (used.size === 0) return NO_ARGUMENTS;
      const usedOrdered = ordered.filter((variable) => used.has(variable.name));
      return usedOrdered.length === 0 ? NO_ARGUMENTS : make(usedOrdered);
    },
  };
}

const namesKey = (variables: readonly ExportVariable[]) => {
  let key = '';
  for (const variable of variables) key += `${variable.name},`;
  return key;
};

/** Plain text, or stored markup read into runs when rich text is exported. */
function piecesOf(text: string, richText: string | null, args: Arguments): ValuePiece[] {
  const { known, byName } = args;
  const runs =
    richText === null
      ? [{ text, marks: 0 }]
      : normalize(tokenize(richText, true), { dropWholeBold: false }).map((run) =>
          run.kind === 'br' ? { text: '\n', marks: null } : run,
        );
  const textMarks = (from: number, step: number): number => {
    for (let index = from; index >= 0 && index < runs.length; index += step) {
      const marks = runs[index]!.marks;
      if (marks !== null) return marks;
    }
    return 0;
  };
  const pieces: ValuePiece[] = [];
  runs.forEach((run, index) => {
    // A line break keeps the formatting its neighbours share, so tags do not close around it.
    const marks = run.marks ?? textMarks(index - 1, -1) & textMarks(index + 1, 1);
    for (const part of splitTemplate(run.text, known)) {
      if (part.kind === 'text') pieces.push({ kind: 'text', text: part.value, marks });
      else pieces.push({ kind: 'variable', name: part.name, ...byName.get(part.name)!, marks });
    }
  });
  return pieces;
}
