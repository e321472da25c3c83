import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { codeForStatus } from './errors.js';

interface ClientError extends Error {
  code?: string;
  /** The bytes the parser failed on (Node sets a Buffer for parse errors). */
  rawPacket?: unknown;
}

/** What Node keeps on a socket while a request on it is in flight. */
interface SocketWithRequest extends Socket {
  _httpMessage?: { _headerSent?: boolean; req?: { method?: string } } | null;
}

const REQUEST_LINE = /^([A-Z]{3,10}) /;

function statusOf(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request did not arrive in time (headers and body have a time limit)' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request headers are larger than the limit' };
    default:
      return { status: 400, message: 'The request is not valid HTTP' };
  }
}

/**
 * Errors Node's HTTP parser or its request timers raise before any route runs, answered on the
 * raw socket (Fastify's own answer writes a JSON body even to a HEAD request). The method is
 * known when a request is in flight or the failing bytes start with its request line; a HEAD, or
 * a method we cannot tell, gets no body. A response already started is never interrupted.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as SocketWithRequest)._httpMessage;
  if (socket.writable && !inFlight?._headerSent) {
    const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1', 0, 12) : '';
    const method = inFlight?.req?.method ?? REQUEST_LINE.exec(packet)?.[1];
    const { status, message } = statusOf(error.code);
    const body =
      method === undefined || method === 'HEAD' ? '' : JSON.stringify({ message, code: codeForStatus(status) });
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Connection: close',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...(body ? ['Content-Type: application/json; charset=utf-8'] : []),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
