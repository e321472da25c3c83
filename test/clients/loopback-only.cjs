// Preloaded into the real clients (`node --require`): any socket to a host other than the loopback
// address fails at once, so a client under test can never reach the hosted service or a
// telemetry endpoint, whatever its configuration says.
const net = require('node:net');

const ALLOWED = new Set(['127.0.0.1', '::1', 'localhost']);
const connect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function connectToLoopbackOnly(...args) {
  let first = args[0];
  if (Array.isArray(first)) first = first[0];
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  const host = typeof options.host === 'string' ? options.host : 'localhost';
  if (typeof options.path !== 'string' && !ALLOWED.has(host)) {
    // Fail the socket the way a refused connection does, so the client reports an ordinary error.
    process.nextTick(() => this.destroy(new Error(`loopback-only: refused a connection to ${host}:${options.port}`)));
    return this;
  }
  return connect.apply(this, args);
};
