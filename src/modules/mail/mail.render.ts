/**
 * The body of an email: the caller's text, its link, and a footer with the unsubscribe link; the
 * HTML part says the same, escaped, when the caller gives none of its own.
 */
export interface Content {
  text: string;
  html?: string;
  link?: { url: string; label: string };
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

interface Footer {
  publicUrl: string;
  unsubscribeUrl: string | null;
}

/** The text and its link: what an email says, and what a digest shows of it. */
export function renderItem(content: Content): string {
  const parts = [content.text.trimEnd()];
  if (content.link) parts.push(`${content.link.label}:\n${content.link.url}`);
  return parts.join('\n\n');
}

function textFooter(footer: Footer): string {
  const lines = [`Sent by copydesk at ${footer.publicUrl}.`];
  if (footer.unsubscribeUrl) lines.push(`To get no more email from it: ${footer.unsubscribeUrl}`);
  return `-- \n${lines.join('\n')}\n`;
}

function htmlFooter(footer: Footer): string {
  const unsubscribe = footer.unsubscribeUrl
    ? ` <a href="${escapeHtml(footer.unsubscribeUrl)}">Get no more email from it</a>.`
    : '';
  return `<hr><p style="color:#666;font-size:small">Sent by copydesk at ${escapeHtml(footer.publicUrl)}.${unsubscribe}</p>\n`;
}

const paragraphs = (text: string) =>
  text
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');

export function renderText(content: Content, footer: Footer): string {
  return `${renderItem(content)}\n\n${textFooter(footer)}`;
}

/** A digest: each held email's subject and what it said, oldest first. */
export function renderDigestText(items: readonly { subject: string; text: string }[], footer: Footer): string {
  const body = items.map((item) => `## ${item.subject}\n\n${item.text.trimEnd()}`).join('\n\n');
  return `What happened since your last digest:\n\n${body}\n\n${textFooter(footer)}`;
}

export function renderDigestHtml(items: readonly { subject: string; text: string }[], footer: Footer): string {
  const body = items.map((item) => `<h2>${escapeHtml(item.subject)}</h2>\n${paragraphs(item.text)}`).join('\n');
  return `<!doctype html>\n<html><body>\n<p>What happened since your last digest:</p>\n${body}\n${htmlFooter(footer)}</body></html>\n`;
}

export function renderHtml(content: Content, footer: Footer): string {
  const body = content.html ?? paragraphs(content.text);
  const link = content.link
    ? `\n<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.label)}</a></p>`
    : '';
  return `<!doctype html>\n<html><body>\n${body}${link}\n${htmlFooter(footer)}</body></html>\n`;
}
