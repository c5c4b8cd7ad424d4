import { shownOrder, storedOrder } from '../servers/create-order';
import { seededOrder } from '../servers/order-record';

/** A route every server implements, and the request that loads it. */
export interface BenchRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Headers the request carries (an `Authorization`). */
  headers?: Record<string, string>;
  /** The status a healthy server answers. */
  status: number;
  /** The JSON every server must answer, checked before any load: a server that differs stops the run. */
  answer?: unknown;
  /** A body every server must refuse (400 or 422, each framework's own choice), checked likewise. */
  refusedBody?: string;
}

const ORDER_INPUT = { item: 'tea', quantity: 2, email: 'ada@example.com' };
const RECORD_ID = 42;

/** The routes, in the order the tables show them. */
export const ROUTES: readonly BenchRoute[] = [
  { name: 'GET /health', method: 'GET', path: '/health', status: 200, answer: { status: 'ok' } },
  { name: 'GET /health/ready', method: 'GET', path: '/health/ready', status: 200 },
  {
    name: 'GET /orders/:id',
    method: 'GET',
    path: '/orders/42',
    status: 200,
    answer: shownOrder('42'),
  },
  {
    name: 'POST /api/orders',
    method: 'POST',
    path: '/api/orders',
    body: JSON.stringify(ORDER_INPUT),
    status: 201,
    answer: storedOrder(ORDER_INPUT),
    refusedBody: JSON.stringify({ item: '', quantity: 0, email: 'not an address' }),
  },
  {
    name: 'GET /api/orders/:id',
    method: 'GET',
    path: `/api/orders/${RECORD_ID}`,
    status: 200,
    answer: seededOrder(RECORD_ID),
  },
];

/** The route of `ROUTES` named `name`. */
export const benchRoute = (name: string): BenchRoute =>
  ROUTES.find((candidate) => candidate.name === name) as BenchRoute;

export const READINESS_ROUTE = benchRoute('GET /health/ready');

/** The routes measured with every peer in its production configuration. */
export const PRODUCTION_ROUTES: readonly BenchRoute[] = [
  benchRoute('GET /orders/:id'),
  benchRoute('POST /api/orders'),
  benchRoute('GET /api/orders/:id'),
];
