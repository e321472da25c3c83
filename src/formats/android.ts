/**
 * android: a `res/values/strings.xml` resource file with `<string>` and `<plurals>` (rules and
 * choices in docs/formats/android.md).
 */
import { normalize } from '../richtext/normalize.js';
import { tokenize } from '../richtext/tokenize.js';
import { splitTemplate, usedVariables } from '../text/placeholders.js';
import { androidValue, type ValuePiece } from './shared/android-value.js';
import { pluralForms } from './shared/plurals.js';
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
        const primary = piecesOf(entry.text, rich ? entry.richText : null, own);
        const formatted = primary.some((piece) => piece.kind === 'variable');
        const attributes = !formatted && hasTwoPercents(entry.text) ? `${names} formatted="false"` : names;
        out += `  <string ${attributes}>${androidValue(primary, formatted)}</string>\n`;
        if (entry.plurals.length === 0) return out;
        const all = args.of(entry.variables, null);
        const forms = pluralForms(entry, document.locale).map((form) => ({
          form: form.form,
          pieces: piecesOf(form.text, rich ? form.richText : null, all),
        }));
        // `getQuantityString(id, n, args)` formats every item once the record has arguments.
        const pluralFormatted = forms.some((form) => form.pieces.some((piece) => piece.kind === 'variable'));
        out += `  <plurals ${names}>\n`;
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
}

const NO_ARGUMENTS: Arguments = { byName: new Map(), known: new Set() };

/**
 * Variables numbered from 1 in `variableOrder`, every one a string argument (`%1$s`), numbers
 * included, as the original writes them. With a text, only the variables it uses, so a string
 * never skips a position; the quantity of a plural is passed separately on Android. Most entries
 * of a file use the same few sets of variables, so each set's arguments are made once per file.
 */
function argumentMaps(document: DocumentHeader) {
  const made = new Map<string, Arguments>();
  const make = (ordered: readonly ExportVariable[]): Arguments => {
    const key = ordered.map((variable) => variable.name).join(',');
    let found = made.get(key);
    if (found === undefined) {
      const byName = new Map(
        ordered.map((variable, index) => [
          variable.name,
          { spec: `%${index + 1}$s`, example: variableExample(variable) },
        ]),
      );
      found = { byName, known: new Set(byName.keys()) };
      made.set(key, found);
    }
    return found;
  };
  return {
    of(variables: readonly ExportVariable[], text: string | null): Arguments {
      if (variables.length === 0) return NO_ARGUMENTS;
      const ordered = orderVariables(variables, document.options.variableOrder);
      if (text === null) return make(ordered);
      const used = new Set(
        usedVariables(
          [text],
          ordered.map((variable) => variable.name),
        ),
      );
      return used.size === 0 ? NO_ARGUMENTS : make(ordered.filter((variable) => used.has(variable.name)));
    },
  };
}

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
