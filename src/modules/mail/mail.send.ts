import nodemailer from 'nodemailer';

/** One SMTP client per worker: a pool of up to `connections` connections, reused across emails. */
export interface Sender {
  send(message: Message): Promise<SendResult>;
  close(): void;
}

/** What an email says and to whom: as queued, as claimed, as sent. */
export interface EmailContent {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  messageId: string;
  unsubscribeUrl: string | null;
}

export interface Message extends EmailContent {
  from: string;
}

export type SendResult = { ok: true } | { ok: false; permanent: boolean; error: string };

// Each well inside the claim's lease (mail.retry.ts), so that a send that hangs fails before
// another worker may take its email.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpSender(url: string, connections: number): Sender {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: connections,
    maxMessages: Number.POSITIVE_INFINITY,
    ...TIMEOUTS,
  });
  return {
    async send(message) {
      const headers: Record<string, string> = { 'Auto-Submitted': 'auto-generated' };
      if (message.unsubscribeUrl) {
        // RFC 8058: a mail client may unsubscribe with one POST, without opening the link.
        headers['List-Unsubscribe'] = `<${message.unsubscribeUrl}>`;
        headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
      }
      try {
        await transport.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === null ? {} : { html: message.html }),
          messageId: message.messageId,
          headers,
        });
        return { ok: true };
      } catch (error) {
        return { ok: false, permanent: isPermanent(error), error: describe(error) };
      }
    },
    close() {
      transport.close();
    },
  };
}

/**
 * A 5xx answer to the recipient or the message is final: that email will never be taken. Every
 * other failure (no connection, a timeout, a 4xx, a refused login or sender, which an
 * administrator can fix) is tried again.
 */
function isPermanent(error: unknown): boolean {
  const e = error as { responseCode?: number; command?: string; code?: string };
  if (typeof e.responseCode !== 'number' || e.responseCode < 500) return false;
  return e.code === 'EENVELOPE' || e.command === 'RCPT TO' || e.command === 'DATA';
}

function describe(error: unknown): string {
  const e = error as { message?: string; code?: string };
  const text = `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`;
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
