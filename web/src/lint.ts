import { useEffect, useState } from 'react';
import { api } from './api';
import type { LintMark } from './editorMarks';

/** A style-guide finding of one of a pane's texts (`field`: `text` or `plural:<form>`). */
export interface Finding extends LintMark {
  field: string;
  kind: string;
  suggestion: string | null;
}

interface LintResult {
  id: string | null;
  text: string;
  findings: { kind: string; message: string; start: number; end: number; suggestion: string | null }[];
}

/**
 * Style-guide findings of a pane's texts as the writer types, asked for in one request once
 * typing pauses. Each keeps the words it is about, so a mark whose words were edited away goes.
 */
export function useLint(
  texts: readonly { field: string; text: string }[],
  variantId: string | null,
  characterLimit: number | null,
): Finding[] {
  const [findings, setFindings] = useState<Finding[]>([]);
  const key = JSON.stringify([texts, variantId, characterLimit]);
  useEffect(() => {
    const [items, variant, limit] = JSON.parse(key) as [typeof texts, string | null, number | null];
    const asked = items.filter((t) => t.text.trim() !== '');
    if (asked.length === 0) {
      setFindings([]);
      return;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      api
        .post<LintResult[]>('styleguides/lint', {
          texts: asked.map((t) => ({
            id: t.field,
            text: t.text,
            ...(variant ? { variantId: variant } : {}),
            ...(limit ? { characterLimit: limit } : {}),
          })),
        })
        .then((results) => {
          if (!current) return;
          setFindings(
            results.flatMap((r) =>
              r.findings.map((f) => ({
                field: r.id ?? 'text',
                kind: f.kind,
                message: f.message,
                start: f.start,
                end: f.end,
                suggestion: f.suggestion,
                words: r.text.slice(f.start, f.end),
              })),
            ),
          );
        })
        .catch(() => current && setFindings([]));
    }, 400);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [key]);
  return findings;
}
