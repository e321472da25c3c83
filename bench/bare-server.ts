// A bare Fastify route that returns fixed bytes: the ceiling our routes are measured against.
// The body is the second argument, or `@<path>` to read it from a file (bodies too large for argv).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, body, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
const bytes = body?.startsWith('@') ? readFileSync(body.slice(1)) : Buffer.from(body ?? '[]');
const app = Fastify({ logger: false });
app.get('/*', (_request, reply) => reply.header('content-type', contentType).send(bytes));
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
