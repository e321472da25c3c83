import { createServer, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An email as an SMTP server received it: the envelope, the headers and the plain-text part, decoded. */
export interface ReceivedEmail {
  envelopeTo: string[];
  headers: Map<string, string>;
  text: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  url: string;
  received: ReceivedEmail[];
  /** The emails received for `address`. */
  to(address: string): ReceivedEmail[];
  /** From now on, answers 550 (no such user) to `address`. */
  refuse(address: string): void;
  close(): Promise<void>;
}

/** A real SMTP server in the test process (no TLS, no login), keeping every email it accepts. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedEmail[] = [];
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address)) return callback();
      return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          ...parse(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = (server.server.address() as { port: number }).port;
  return {
    port: address,
    url: `smtp://127.0.0.1:${address}`,
    received,
    to: (who) => received.filter((e) => e.envelopeTo.includes(who)),
    refuse: (who) => refused.add(who),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that takes connections and never says a word: a send to it hangs until it lets go. */
export async function startSilentServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function parse(raw: string): { headers: Map<string, string>; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = headerMap(head);
  const body = rest.join('\r\n\r\n');
  // Lines as the sender wrote them: SMTP carries them with CRLF.
  return { headers, text: plainPart(headers, body).replace(/\r\n/g, '\n') };
}

function headerMap(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** The text/plain part of a (possibly multipart) body, with its transfer encoding undone. */
function plainPart(headers: Map<string, string>, body: string): string {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const part of body.split(`--${boundary}`)) {
      const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const partHeaders = headerMap(head);
      if ((partHeaders.get('content-type') ?? '').toLowerCase().startsWith('text/plain')) {
        return decode(partHeaders.get('content-transfer-encoding'), rest.join('\r\n\r\n'));
      }
    }
    return '';
  }
  return decode(headers.get('content-transfer-encoding'), body);
}

function decode(encoding: string | undefined, body: string): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}
