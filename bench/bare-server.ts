// A bare Fastify route that returns fixed bytes: the ceiling our routes are measured against.
import Fastify from 'fastify';

const [port, body, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
const bytes = Buffer.from(body ?? '[]');
const app = Fastify({ logger: false });
app.get('/*', (_request, reply) => reply.header('content-type', contentType).send(bytes));
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
