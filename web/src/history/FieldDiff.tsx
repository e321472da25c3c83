import { diffArrays, diffWords } from 'diff';
import { type Change, fieldName, htmlToText, pluralForms, valueText } from './describe';

/** Words added and removed between two texts: removed words struck through, added ones marked. */
export function WordDiff({ before, after }: { before: string; after: string }) {
  if (before === after) return <span className="word-diff">{after}</span>;
  return (
    <span className="word-diff">
      {diffWords(before, after).map((part, index) => {
        const key = `${index}:${part.value}`;
        if (part.added)
          return (
            <ins key={key}>
              <span className="visually-hidden">added: </span>
              {part.value}
            </ins>
          );
        if (part.removed)
          return (
            <del key={key}>
              <span className="visually-hidden">removed: </span>
              {part.value}
            </del>
          );
        return <span key={key}>{part.value}</span>;
      })}
    </span>
  );
}

const asText = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : valueText(value));
const WORD_FIELDS = new Set(['text', 'notes', 'name', 'description']);

/** Every field of one change, each as a writer reads it. */
export function ChangeFields({ change, names }: { change: Change; names: ReadonlyMap<string, string> }) {
  const fields = Object.entries(change.fields).filter(
    // The words of a rich text are its `text`: its markup shows only when nothing else changed.
    ([field]) => !(field === 'richText' && 'text' in change.fields),
  );
  if (fields.length === 0) return null;
  return (
    <dl className="change-fields">
      {fields.map(([field, { before, after }]) => (
        <div key={field}>
          <dt>{fieldName(field)}</dt>
          <dd>
            <FieldValue field={field} before={before} after={after} action={change.action} names={names} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function FieldValue({
  field,
  before,
  after,
  action,
  names,
}: {
  field: string;
  before: unknown;
  after: unknown;
  action: string;
  names: ReadonlyMap<string, string>;
}) {
  if (WORD_FIELDS.has(field) || field === 'richText') {
    const read = (v: unknown) => (field === 'richText' && typeof v === 'string' ? htmlToText(v) : asText(v));
    const [was, now] = [read(before), read(after)];
    if (action === 'created') return <span>{now || 'none'}</span>;
    if (action === 'deleted') return was ? <del>{was}</del> : <span>none</span>;
    if (field === 'richText' && was === now) return <span>{now} (formatting changed)</span>;
    return <WordDiff before={was} after={now} />;
  }
  if (field === 'plurals') {
    const [was, now] = [pluralForms(before), pluralForms(after)];
    const forms = [...new Set([...was.keys(), ...now.keys()])];
    if (forms.length === 0) return <span>none</span>;
    return (
      <ul className="plain">
        {forms.map((form) => (
          <li key={form}>
            <span className="muted">{form}: </span>
            {!was.has(form) ? (
              <ins>{now.get(form)}</ins>
            ) : !now.has(form) ? (
              <del>{was.get(form)}</del>
            ) : (
              <WordDiff before={was.get(form) ?? ''} after={now.get(form) ?? ''} />
            )}
          </li>
        ))}
      </ul>
    );
  }
  if ((Array.isArray(before) || before == null) && (Array.isArray(after) || after == null)) {
    const [was, now] = [(before as unknown[] | null) ?? [], (after as unknown[] | null) ?? []];
    if (was.every((v) => typeof v !== 'object') && now.every((v) => typeof v !== 'object')) {
      const parts = diffArrays(was.map(String), now.map(String));
      const added = parts.filter((p) => p.added).flatMap((p) => p.value);
      const removed = parts.filter((p) => p.removed).flatMap((p) => p.value);
      if (added.length + removed.length === 0) return <span>{valueText(now, names)}</span>;
      return (
        <span>
          {added.length > 0 && <span>added {added.map((v) => names.get(v) ?? v).join(', ')}</span>}
          {added.length > 0 && removed.length > 0 && '; '}
          {removed.length > 0 && <span>removed {removed.map((v) => names.get(v) ?? v).join(', ')}</span>}
        </span>
      );
    }
  }
  if (action === 'created') return <span>{valueText(after, names)}</span>;
  if (action === 'deleted') return <span>{valueText(before, names)}</span>;
  return (
    <span>
      {valueText(before, names)} → {valueText(after, names)}
    </span>
  );
}
