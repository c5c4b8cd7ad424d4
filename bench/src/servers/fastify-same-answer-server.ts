import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { shownOrder } from './create-order';
import { readServerEnvironment } from './server-environment';

const { port } = readServerEnvironment();

// keel's weak ETag, computed as keel computes it (two 32-bit multiplicative hashes of the body).
function weakTag(body: string): string {
  let first = 0x811c9dc5;
  let second = 0x9747b28c;
  for (let index = 0; index < body.length; index++) {
    const unit = body.charCodeAt(index);
    first = Math.imul(first ^ unit, 0x01000193);
    second = Math.imul(second ^ unit, 0x5bd1e995);
    second ^= second >>> 15;
  }
  const digits = (word: number): string => ((word >>> 3) | 0x20000000).toString(36);
  return `W/"${digits(first)}${digits(second)}"`;
}

// Request ids as keel makes them: a random prefix per process and a count.
const PREFIX = randomBytes(8).toString('hex');
let issued = 0;

/**
 * Fastify answering `GET /health` and `GET /orders/:id` with what keel's defaults put on the same
 * answers: `X-Request-Id`, `X-Content-Type-Options`, `Cross-Origin-Resource-Policy` and a weak
 * `ETag`, set in hooks as a Fastify user sets them by hand. For instruction counts only
 * (`bench/instructions.sh fastify-same-answer-server.js`): the same bytes out, Fastify's own work.
 */
async function main(): Promise<void> {
  const app = Fastify({ logger: false, genReqId: () => `${PREFIX}-${++issued}` });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cross-origin-resource-policy', 'same-origin');
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'GET' && reply.statusCode === 200 && typeof payload === 'string')
      reply.header('etag', weakTag(payload));
    done(null, payload);
  });
  app.get('/health', async () => ({ status: 'ok' }));
  app.get<{ Params: { id: string } }>('/orders/:id', async (request) => shownOrder(request.params.id));
  await app.listen({ port, host: '127.0.0.1' });
}

void main();
