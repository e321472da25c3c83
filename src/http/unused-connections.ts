import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A closing server ends the connections that have not sent a request yet. Node.js, when a server
 * closes, ends the keep-alive connections that sit idle between two requests, but not one that
 * connected and has sent nothing (a browser's preconnect, a client that opened a socket and then
 * dropped the request it meant to send): the server then waits for the client to close it, four
 * seconds later for Node's own `fetch`, and the shutdown with it. They are ended as the close
 * begins, just after the app's other preClose hooks have started; one that connects in the moment
 * before the server stops accepting is waited for as before.
 */
export function endUnusedConnectionsOnClose(app: FastifyInstance): void {
  const server: Server = app.server;
  const unused = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  server.on('request', (request) => unused.delete(request.socket));
  app.addHook('preClose', (done) => {
    // After the current turn, so that a connection accepted meanwhile is ended too; Fastify stops
    // accepting once the last preClose hook (the event streams' ends them first) is done.
    setImmediate(() => {
      for (const socket of unused) socket.destroy();
      unused.clear();
    });
    done();
  });
}
