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
import {
  type DocumentHeader,
  type EntryFragment,
  type ExportVariable,
  type FileFormat,
  fileWriter,
  type SpanEntry,
  spanBody,
  wholeFile,
} from './types.js';

interface Argument {
  spec: string;
  example: string;
}

export const androidFormat: FileFormat = {
  contentType: 'text/xml; charset=utf-8',
  writer(document) {
    const taken = new Set<string>();
    const rich = document.options.richText !== null;
    return fileWriter({
      head: () =>
        lines([
          '<?xml version="1.0" encoding="utf-8"?>',
          ...variantCommentTexts(document).map(xmlComment),
          '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">',
        ]),
      // The fragment names its resources after the sanitised ID; `place` renames them when an
      // earlier ID of the file took that name.
      fragment(entry) {
        const out: string[] = [];
        const name = sanitisedName(entry.id);
        const names = `name="${name}" ditto_api_id="${xmlAttribute(entry.id)}"`;
        /** The lines that name the resource (a `<string>`, then a `<plurals>`). */
        const named: number[] = [];
        if (entry.notes !== '') out.push(`  ${xmlComment(entry.notes)}`);
        // A plural record keeps its primary text as a <string> of the same name (as the original
        // does, so `R.string.<name>` still resolves); it is numbered like any other string.
        const own = argumentsOf(entry.variables, [entry.text], document);
        const primary = piecesOf(entry.text, rich ? entry.richText : null, own);
        const formatted = primary.some((piece) => piece.kind === 'variable');
        const percents = entry.text.split('%').length - 1;
        const attributes = !formatted && percents >= 2 ? `${names} formatted="false"` : names;
        named.push(out.length);
        out.push(`  <string ${attributes}>${androidValue(primary, formatted)}</string>`);
        if (entry.plurals.length === 0) return fragmentOf(out, named, STRING_NAME_AT);
        const args = argumentsOf(entry.variables, null, document);
        const forms = pluralForms(entry, document.locale).map((form) => ({
          form: form.form,
          pieces: piecesOf(form.text, rich ? form.richText : null, args),
        }));
        // `getQuantityString(id, n, args)` formats every item once the record has arguments.
        const pluralFormatted = forms.some((form) => form.pieces.some((piece) => piece.kind === 'variable'));
        named.push(out.length);
        out.push(`  <plurals ${names}>`);
        for (const form of forms) {
          out.push(`    <item quantity="${form.form}">${androidValue(form.pieces, pluralFormatted)}</item>`);
        }
        out.push('  </plurals>');
        return fragmentOf(out, named, STRING_NAME_AT, PLURALS_NAME_AT);
      },
      place(fragment, id) {
        const original = sanitisedName(id);
        const name = resourceName(original, taken);
        if (name === original || !fragment.nameAt) return fragment.body;
        let out = '';
        let from = 0;
        for (const at of fragment.nameAt) {
          out += fragment.body.slice(from, at) + name;
          from = at + original.length;
        }
        return out + fragment.body.slice(from);
      },
      // Every name is taken in turn; the span is copied only where one of them is renamed.
      placeSpan(source, entries) {
        const body = spanBody(source, entries);
        const renamed = takeNames(entries, taken);
        const start = entries.find((entry) => entry.length >= 0)?.at ?? 0;
        return renamed ? rename(body, start, renamed) : body;
      },
      placeRun(run) {
        const renamed = takeNames(run.entries(), taken);
        return renamed && ((body) => rename(body, 0, renamed));
      },
      tail: () => '</resources>\n',
    });
  },
};

export const android = wholeFile(androidFormat);

const lines = (list: readonly string[]) => `${list.join('\n')}\n`;

/** Where the name starts in a `<string>` line and in a `<plurals>` line. */
const STRING_NAME_AT = '  <string name="'.length;
const PLURALS_NAME_AT = '  <plurals name="'.length;

/** The lines as a fragment, with the offsets of the names in the lines `named` (their name offset in order). */
function fragmentOf(out: readonly string[], named: readonly number[], ...offsets: number[]): EntryFragment {
  const nameAt: number[] = [];
  let at = 0;
  for (const [index, line] of out.entries()) {
    const position = named.indexOf(index);
    if (position >= 0) nameAt.push(at + (offsets[position] as number));
    at += line.length + 1;
  }
  return { body: lines(out), variables: [], nameAt };
}

/** An entry whose resources get another name than its sanitised ID. */
interface Renamed {
  entry: SpanEntry;
  original: string;
  name: string;
}

/** Takes the entries' names in turn: those renamed because an earlier ID took their name, or null. */
function takeNames(entries: readonly SpanEntry[], taken: Set<string>): Renamed[] | null {
  let renamed: Renamed[] | null = null;
  for (const entry of entries) {
    if (entry.length < 0) continue;
    const original = sanitisedName(entry.id);
    const name = resourceName(original, taken);
    if (!entry.nameAt || name === original) continue;
    renamed ??= [];
    renamed.push({ entry, original, name });
  }
  return renamed;
}

/** A span's bytes (its first entry's bytes at `start` of the source) with the renamed entries' names replaced. */
function rename(body: string, start: number, renamed: readonly Renamed[]): string {
  let out = '';
  let from = 0;
  for (const { entry, original, name } of renamed) {
    for (const at of entry.nameAt ?? []) {
      out += body.slice(from, entry.at - start + at) + name;
      from = entry.at - start + at + original.length;
    }
  }
  return out + body.slice(from);
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
