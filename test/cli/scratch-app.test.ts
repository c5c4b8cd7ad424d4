import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  REPO_ROOT,
  SCRATCH_APP,
  removeScratchProjects,
  runFramework,
  runNode,
  scratchProject,
} from '../factories/cli';
import { logged, startChild, type ChildApp } from '../factories/child-app';

// A user's application, made by the generator and compiled by the repository's own tsc: the generated
// files must type-check under the application's tsconfig, and the module edit must be all it takes.
const TSC = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc');

let root: string;
let typecheck: { code: number; output: string };
let server: ChildApp | undefined;
let url: string;

beforeAll(async () => {
  root = scratchProject(SCRATCH_APP);
  for (const args of [['Order'], ['Invoice', '--api'], ['Report', '--plain']]) {
    const run = await runFramework(['make:controller', ...args, '--root', root]);
    if (run.code !== 0)
      throw new Error(`make:controller ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  }
  typecheck = await promisify(execFile)(TSC, ['-p', root], { cwd: root }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  if (typecheck.code === 0) {
    server = await startChild({
      args: ['dist/main.js'],
      cwd: root,
      env: { PORT: '0' },
      urlFrom: (lines) => logged(lines, 'listening')[0]?.url as string | undefined,
    });
    url = server.url;
  }
}, 60_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  removeScratchProjects();
});

const HTML = 'text/html; charset=utf-8';

// The page at `route`, with its status and type.
async function page(route: string): Promise<{ status: number; type: string | null; html: string }> {
  const res = await fetch(`${url}${route}`);
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
}

// The JSON body; for a redirect, where it leads.
async function send(method: string, route: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${route}`, { method, redirect: 'manual' });
  const text = await res.text();
  const location = res.headers.get('location');
  if (location !== null) return { status: res.status, body: `to ${location}` };
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('a generated controller in a scratch application', () => {
  test('the three kinds type-check with tsc under the application tsconfig', () => {
    expect(typecheck).toEqual({ code: 0, output: '' });
  });

  test('the module edit is all it takes: the application boots and serves the new routes', async () => {
    expect(readFileSync(path.join(root, 'src', 'app.module.ts'), 'utf8')).toContain(
      'controllers: [OrderController, InvoiceController, ReportController]',
    );
    expect(await send('GET', '/orders')).toEqual({ status: 200, body: { orders: [] } });
  });

  test('GET /orders reaches index and GET /orders/create reaches create, not show', async () => {
    expect(await send('GET', '/orders')).toEqual({ status: 200, body: { orders: [] } });
    expect((await page('/orders/create')).html).toContain('<h1>New order</h1>');
    expect(await send('GET', '/orders/7')).toEqual({ status: 200, body: { order: { id: '7' } } });
  });

  test('each action of the resource has a working body', async () => {
    expect(await send('POST', '/orders')).toEqual({ status: 303, body: 'to /orders' });
    expect(await send('PUT', '/orders/7')).toEqual({ status: 303, body: 'to /orders/7' });
    expect(await send('DELETE', '/orders/7')).toEqual({ status: 303, body: 'to /orders' });
  });

  test('create answers the form page generated with it, posting to store', async () => {
    const create = await page('/orders/create');
    expect({ status: create.status, type: create.type }).toEqual({ status: 200, type: HTML });
    expect(create.html).toContain('<form method="post" action="/orders">');
    expect(create.html).toContain('<a href="/orders">Back</a>');
  });

  test('edit answers the form page generated with it, posting to update as PUT through _method', async () => {
    const edit = await page('/orders/7/edit');
    expect({ status: edit.status, type: edit.type }).toEqual({ status: 200, type: HTML });
    expect(edit.html).toContain('<h1>Edit order 7</h1>');
    expect(edit.html).toContain('<form method="post" action="/orders/7">');
    expect(edit.html).toContain('<input type="hidden" name="_method" value="PUT" />');
    const update = await fetch(`${url}/orders/7`, {
      method: 'POST',
      body: new URLSearchParams({ _method: 'PUT' }),
      redirect: 'manual',
    });
    expect({ status: update.status, location: update.headers.get('location') }).toEqual({
      status: 303,
      location: '/orders/7',
    });
  });

  test('the page of an id that needs escaping is escaped', async () => {
    const edit = await page(`/orders/${encodeURIComponent('<b>')}/edit`);
    expect(edit.html).toContain('<h1>Edit order &lt;b&gt;</h1>');
    expect(edit.html).toContain('action="/orders/%3Cb%3E"');
  });

  test('the API resource and the plain controller serve their routes', async () => {
    expect(await send('GET', '/invoices')).toEqual({ status: 200, body: { invoices: [] } });
    expect(await send('POST', '/invoices')).toEqual({ status: 201, body: { invoice: {} } });
    expect(await send('PATCH', '/invoices/3')).toEqual({ status: 200, body: { invoice: { id: '3' } } });
    expect(await send('DELETE', '/invoices/3')).toEqual({ status: 204, body: undefined });
    expect(await send('GET', '/reports')).toEqual({ status: 200, body: { reports: [] } });
  });

  test('routes, through the entry point, prints the route table in registration order', async () => {
    const run = await runNode('dist/main.js', ['routes'], { cwd: root });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'GET     /orders           OrderController.index      orders.index',
        'GET     /orders/create    OrderController.create     orders.create',
        'POST    /orders           OrderController.store      orders.store',
        'GET     /orders/:id       OrderController.show       orders.show',
        'GET     /orders/:id/edit  OrderController.edit       orders.edit',
        'PUT     /orders/:id       OrderController.update     orders.update',
        'PATCH   /orders/:id       OrderController.update     orders.update',
        'DELETE  /orders/:id       OrderController.destroy    orders.destroy',
        'GET     /invoices         InvoiceController.index    invoices.index',
        'POST    /invoices         InvoiceController.store    invoices.store',
        'GET     /invoices/:id     InvoiceController.show     invoices.show',
        'PUT     /invoices/:id     InvoiceController.update   invoices.update',
        'PATCH   /invoices/:id     InvoiceController.update   invoices.update',
        'DELETE  /invoices/:id     InvoiceController.destroy  invoices.destroy',
        'GET     /reports          ReportController.index     ReportController.index',
        '',
      ].join('\n'),
    );
  });

  test('make:controller runs through the entry point too', async () => {
    const run = await runNode('dist/main.js', ['make:controller', 'Payment', '--dry-run'], { cwd: root });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toContain('would write src/http/controllers/payment.ts:');
    expect(run.stdout).toContain(
      '+  controllers: [OrderController, InvoiceController, ReportController, PaymentController],',
    );
  });

  test('a usage mistake through the entry point exits 2 instead of serving', async () => {
    const run = await runNode('dist/main.js', ['make:controller', '9lives'], { cwd: root });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot name a controller');
  });
});
