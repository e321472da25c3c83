import { useEffect, useState } from 'react';
import { api } from './api';

/**
 * Beside a variant's pane: the workspace's own translations of texts like this one (the
 * translation memory, GET /v2/translationMemory), each usable in one click as an unsaved edit of
 * the pane, and the wordlist terms that apply to the variant's locale (GET /v2/glossary).
 * docs/translation-memory.md.
 */

interface MemoryMatch {
  score: number;
  exact: boolean;
  source: string;
  text: string;
  variantId: string;
  kind: 'textItem' | 'component';
  id: string;
  name: string | null;
  projectId: string | null;
  folderId: string | null;
}

interface GlossaryTerm {
  styleguideId: string;
  termId: string;
  preferred: string;
  replaces: string[];
  note: string;
  inVariantText: 'preferred' | 'forbidden' | null;
}

export function TranslationHelp({
  kind,
  developerId,
  variantId,
  variantName,
  baseText,
  variantText,
  canUse,
  onUse,
}: {
  kind: 'textItem' | 'component';
  developerId: string;
  variantId: string;
  /** The pane's name (the variant's): landmarks of several panes must be told apart. */
  variantName: string;
  baseText: string;
  variantText: string;
  canUse: boolean;
  onUse: (text: string) => void;
}) {
  const [matches, setMatches] = useState<MemoryMatch[] | null>(null);
  const [terms, setTerms] = useState<GlossaryTerm[]>([]);

  // The stored base text is what the memory matches: asked again when it changes.
  useEffect(() => {
    if (baseText.trim() === '') {
      setMatches([]);
      return;
    }
    let current = true;
    const record = kind === 'textItem' ? 'textItemId' : 'componentId';
    const query = `${record}=${encodeURIComponent(developerId)}&variantId=${encodeURIComponent(variantId)}&limit=5`;
    api
      .get<{ matches: MemoryMatch[] }>(`translationMemory?${query}`)
      .then((body) => current && body && setMatches(body.matches))
      .catch(() => current && setMatches([]));
    return () => {
      current = false;
    };
  }, [kind, developerId, variantId, baseText]);

  // The glossary follows the translation as it is typed, once typing pauses.
  useEffect(() => {
    let current = true;
    const timer = window.setTimeout(() => {
      const query = new URLSearchParams({
        variantId,
        text: baseText.slice(0, 5000),
        variantText: variantText.slice(0, 5000),
      });
      api
        .get<{ terms: GlossaryTerm[] }>(`glossary?${query}`)
        .then((body) => current && body && setTerms(body.terms))
        .catch(() => current && setTerms([]));
    }, 400);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [variantId, baseText, variantText]);

  const from = (m: MemoryMatch) =>
    m.kind === 'component' ? `component ${m.name ?? m.id}` : `${m.projectId ?? 'project'} / ${m.id}`;

  return (
    <aside className="translation-help" aria-label={`Translation help: ${variantName}`}>
      <section aria-label={`Translation memory: ${variantName}`}>
        <h4>Translation memory</h4>
        {matches === null && <p className="muted">Looking for similar texts…</p>}
        {matches?.length === 0 && <p className="muted">No similar text is translated yet.</p>}
        {matches && matches.length > 0 && (
          <ul className="memory-matches">
            {matches.map((m) => (
              <li key={`${m.kind}:${m.id}:${m.variantId}`}>
                <span className={`score${m.exact ? ' exact' : ''}`} title="Match with this text">
                  {m.score}%
                </span>
                <span className="match-text">{m.text}</span>
                <span className="muted match-source">
                  “{m.source}” · {from(m)}
                  {m.variantId !== variantId ? ` · ${m.variantId}` : ''}
                </span>
                {canUse && (
                  <button type="button" onClick={() => onUse(m.text)} aria-label={`Use ${m.score}% match: ${m.text}`}>
                    Use
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {terms.length > 0 && (
        <section aria-label={`Glossary: ${variantName}`}>
          <h4>Glossary</h4>
          <ul className="glossary-terms">
            {terms.map((t) => (
              <li key={`${t.styleguideId}:${t.termId}`} className={t.inVariantText === 'forbidden' ? 'forbidden' : ''}>
                <strong>{t.preferred}</strong>
                {t.replaces.length > 0 && <span className="muted"> not {t.replaces.join(', ')}</span>}
                {t.inVariantText === 'forbidden' && <span className="warning"> (used here)</span>}
                {t.note && <span className="muted"> · {t.note}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}
