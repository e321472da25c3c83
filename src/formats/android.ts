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
    const rich = document.options.richText !== null;
    return {
      head: () =>
        lines([
          '<?xml version="1.0" encoding="utf-8"?>',
          ...variantCommentTexts(document).map(xmlComment),
          '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">',
        ]),
      entry(entry) {
        const out: string[] = [];
        const names = `name="${resourceName(entry.id, taken)}" ditto_api_id="${xmlAttribute(entry.id)}"`;
        if (entry.notes !== '') out.push(`  ${xmlComment(entry.notes)}`);
        // A plural record keeps its primary text as a <string> of the same name (as the original
        // does, so `R.string.<name>` still resolves); it is numbered like any other string.
        const own = argumentsOf(entry.variables, [entry.text], document);
        const primary = piecesOf(entry.text, rich ? entry.richText : null, own);
        const formatted = primary.some((piece) => piece.kind === 'variable');
        const percents = entry.text.split('%').length - 1;
        const attributes = !formatted && percents >= 2 ? `${names} formatted="false"` : names;
        out.push(`  <string ${attributes}>${androidValue(primary, formatted)}</string>`);
        if (entry.plurals.length === 0) return lines(out);
        const args = argumentsOf(entry.variables, null, document);
        const forms = pluralForms(entry, document.locale).map((form) => ({
          form: form.form,
          pieces: piecesOf(form.text, rich ? form.richText : null, args),
        }));
        // `getQuantityString(id, n, args)` formats every item once the record has arguments.
        const pluralFormatted = forms.some((form) => form.pieces.some((piece) => piece.kind === 'variable'));
        out.push(`  <plurals ${names}>`);
        for (const form of forms) {
          out.push(`    <item quantity="${form.form}">${androidValue(form.pieces, pluralFormatted)}</item>`);
        }
        out.push('  </plurals>');
        return lines(out);
      },
      tail: () => '</resources>\n',
    };
  },
};

export const android = wholeFile(androidFormat);

const lines = (list: readonly string[]) => `${list.join('\n')}\n`;

/**
 * The developer ID with every character outside `[A-Za-z0-9_.]` replaced by `_`. Two IDs that
 * map to the same name (`a-b`, `a_b`) would break the build, so later ones get `_2`, `_3`, ...
 */
function resourceName(id: string, taken: Set<string>): string {
  const base = id.replace(/[^A-Za-z0-9_.]/g, '_');
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
  taken.add(name);
  return name;
}

/**
 * Variables numbered from 1 in `variableOrder`, every one a string argument (`%1$s`), numbers
 * included, as the original writes them. `texts` limits them to the variables those texts use,
 * so a string never skips a position; the quantity of a plural is passed separately on Android.
 */
function argumentsOf(
  variables: readonly ExportVariable[],
  texts: readonly string[] | null,
  document: DocumentHeader,
): Map<string, Argument> {
  let ordered = orderVariables(variables, document.options.variableOrder);
  if (texts !== null) {
    const names = ordered.map((variable) => variable.name);
    const used = new Set(usedVariables(texts, names));
    ordered = ordered.filter((variable) => used.has(variable.name));
  }
  return new Map(
    ordered.map((variable, index) => [variable.name, { spec: `%${index + 1}$s`, example: variableExample(variable) }]),
  );
}

/** Plain text, or stored markup read into runs when rich text is exported. */
function piecesOf(text: string, richText: string | null, args: Map<string, Argument>): ValuePiece[] {
  const known = new Set(args.keys());
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
      else pieces.push({ kind: 'variable', name: part.name, ...args.get(part.name)!, marks });
    }
  });
  return pieces;
}
