/** XML text helpers shared by the plist and Android resource writers. */

/**
 * Escapes element text. A carriage return is a character reference because XML parsers turn a
 * literal one into a newline; C0 controls that XML 1.0 cannot carry at all become U+FFFD.
 */
export function xmlText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  return text.replace(/[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (char) => {
    if (char === '&') return '&amp;';
    if (char === '<') return '&lt;';
    if (char === '>') return '&gt;';
    if (char === '\r') return '&#13;';
    return '\ufffd';
  });
}

/** Escapes an attribute value written in double quotes; whitespace is kept by references. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/["\n\t]/g, (char) => (char === '"' ? '&quot;' : char === '\n' ? '&#10;' : '&#9;'));
}

/**
 * An XML comment. `--` may not appear inside one and it may not end in `-`, so a space is put
 * between such hyphens and before a final one.
 */
export function xmlComment(text: string): string {
  const safe = xmlText(text).replace(/-(?=-)/g, '- ');
  return `<!-- ${safe.endsWith('-') ? `${safe} ` : safe} -->`;
}
