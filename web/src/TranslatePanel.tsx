import { useEffect, useState } from 'react';
import { api, messageOf } from './api';
import { type Provider, providerLabel, type TranslationResult } from './machineTranslation';
import type { Text } from './model';
import type { WorkspaceData } from './useWorkspaceData';
import './translate.css';

/** A result as the person reads it: rich text without its markup, line breaks kept. */
const plain = (text: string | null, rich: boolean) =>
  text === null ? '' : rich ? text.replace(/<br\s*\/?>/g, '\n').replace(/<[^>]+>/g, '') : text;

/**
 * "Translate" for the open text: into each variant shown beside it, through a provider an admin
 * configured, landing as a suggestion or as the variant's In Progress text (replacing a text the
 * variant has only when the person ticks that they mean it). The result is shown with its
 * character-limit flag. Editors only; nothing shows when no provider is configured.
 */
export function TranslatePanel({
  text,
  data,
  variants,
  canEdit,
  onSaved,
  onSuggested,
}: {
  text: Text;
  data: WorkspaceData;
  /** The variants shown beside the base text. */
  variants: readonly string[];
  canEdit: boolean;
  onSaved: () => Promise<void>;
  onSuggested: () => void;
}) {
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [providerId, setProviderId] = useState('');
  const [landAs, setLandAs] = useState<'suggestion' | 'wip'>('suggestion');
  const [replace, setReplace] = useState<Record<string, boolean>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<{ variantId: string; result: TranslationResult } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api
      .get<Provider[]>('machineTranslation/providers')
      .then((list) => {
        setProviders(list);
        setProviderId((current) => current || list[0]?.id || '');
      })
      .catch(() => setProviders([]));
  }, []);

  // A linked instance shows its component's values: the component is what is translated.
  const instance = text.kind === 'textItem' && text.componentId !== null;
  if (!canEdit || instance || !providers || providers.length === 0 || variants.length === 0) return null;

  const translate = async (variantId: string) => {
    setBusy(variantId);
    setError(null);
    setResult(null);
    try {
      const answer = await api.post<TranslationResult>('machineTranslation/translate', {
        providerId,
        [text.kind === 'textItem' ? 'textItemId' : 'componentId']: text.developerId,
        variantId,
        landAs,
        ...(landAs === 'wip' && replace[variantId] && { overwrite: true }),
      });
      setResult({ variantId, result: answer });
      if (answer.landedAs === 'wip') await onSaved();
      else onSuggested();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };

  const nameOf = (id: string) => data.variants.find((v) => v.id === id)?.name ?? id;

  return (
    <section className="translate-panel" aria-labelledby="translate-title">
      <h2 id="translate-title">Machine translation</h2>
      <div className="translate-options">
        {providers.length > 1 && (
          <label>
            Provider{' '}
            <select value={providerId} onChange={(e) => setProviderId(e.target.value)}>
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {providerLabel(p)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Result as{' '}
          <select value={landAs} onChange={(e) => setLandAs(e.target.value as 'suggestion' | 'wip')}>
            <option value="suggestion">a suggestion to review</option>
            <option value="wip">the variant's text, In Progress</option>
          </select>
        </label>
      </div>
      <ul className="translate-variants">
        {variants.map((variantId) => {
          const has = (text.variants.get(variantId)?.text ?? '') !== '';
          const locale = data.variants.find((v) => v.id === variantId)?.localeCode;
          return (
            <li key={variantId}>
              <button
                type="button"
                disabled={busy !== null || !locale || (landAs === 'wip' && has && !replace[variantId])}
                onClick={() => void translate(variantId)}
              >
                {busy === variantId ? 'Translating…' : `Translate into ${nameOf(variantId)}`}
              </button>
              {!locale && <span className="muted"> (set the variant's locale code first)</span>}
              {landAs === 'wip' && has && (
                <label>
                  <input
                    type="checkbox"
                    checked={replace[variantId] ?? false}
                    onChange={(e) => setReplace({ ...replace, [variantId]: e.target.checked })}
                  />{' '}
                  Replace {nameOf(variantId)}'s current text
                </label>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {result && (
        <div role="status" className="translate-result">
          <p>
            {result.result.landedAs === 'wip'
              ? `Saved as ${nameOf(result.variantId)}'s text, In Progress:`
              : `Suggested for ${nameOf(result.variantId)}:`}
          </p>
          {result.result.plurals ? (
            <dl>
              {result.result.plurals.map((p) => (
                <div key={p.form}>
                  <dt>{p.form}</dt>
                  <dd>{plain(p.text, result.result.richText)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <blockquote>{plain(result.result.text, result.result.richText)}</blockquote>
          )}
          {result.result.overLimit && (
            <p className="warning">
              Longer than the character limit: {result.result.characters} of {result.result.characterLimit} characters.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
