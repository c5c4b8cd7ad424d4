import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { DataSource } from 'typeorm';
import { shownOrder, storeOrder } from './create-order';
import { ORDER_NOT_FOUND, OrderRecord, orderRecordId } from './order-record';
import { readiness } from './readiness';
import { readServerEnvironment } from './server-environment';

const { port, databaseUrl } = readServerEnvironment();
const ORDER_PATH = /^\/orders\/([^/]+)$/;
const ORDER_RECORD_PATH = /^\/api\/orders\/([^/]+)$/;

function send(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

// The limit: the same answers written by hand on Node's own server, no framework at all.
async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl, entities: [OrderRecord] });
  await dataSource.initialize();
  const orders = dataSource.getRepository(OrderRecord);

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url === '/health') return send(res, 200, { status: 'ok' });
    if (req.method === 'GET' && url === '/health/ready') {
      void readiness(dataSource).then(({ status, body }) => send(res, status, body));
      return;
    }
    const order = req.method === 'GET' ? ORDER_PATH.exec(url) : null;
    if (order) return send(res, 200, shownOrder(decodeURIComponent(order[1] as string)));
    const record = req.method === 'GET' ? ORDER_RECORD_PATH.exec(url) : null;
    if (record) {
      const id = orderRecordId(decodeURIComponent(record[1] as string));
      void (id === undefined ? Promise.resolve(null) : orders.findOneBy({ id })).then(
        (found) => (found ? send(res, 200, found) : send(res, 404, ORDER_NOT_FOUND)),
        () => send(res, 500, { error: 'internal server error' }),
      );
      return;
    }
    if (req.method === 'POST' && url === '/api/orders') {
      readJson(req)
        .then(storeOrder)
        .then(
          ({ status, body }) => send(res, status, body),
          () => send(res, 400, { error: 'invalid JSON' }),
        );
      return;
    }
    send(res, 404, { error: 'not found' });
  };
  // REQUEST_SCOPE=1 (never set by the runner): each request served inside an AsyncLocalStorage, the
  // mechanism of keel's request scope, to measure what that scope costs Node itself.
  const scope = process.env.REQUEST_SCOPE === '1' ? new AsyncLocalStorage<http.IncomingMessage>() : undefined;
  const server = http.createServer(scope ? (req, res) => scope.run(req, handle, req, res) : handle);
  server.listen(port, '127.0.0.1');
}

void main();
