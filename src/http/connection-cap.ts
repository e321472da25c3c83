import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * At most `max` open connections from one address. A client that opens more (slow bodies, idle
 * sockets) has the extra ones closed at once, before a byte is read, so one address cannot use up
 * the process's file descriptors and lock every other client out. Addresses for which `exempt`
 * is true (trusted proxies, through which every client arrives) are not counted.
 */
export function capConnectionsPerAddress(server: Server, max: number, exempt: (address: string) => boolean): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || exempt(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
