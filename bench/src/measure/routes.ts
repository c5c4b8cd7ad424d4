import { shownOrder, storedOrder } from '../servers/create-order';
import { orderList } from '../servers/order-list';
import { seededOrder } from '../servers/order-record';

/** A route every server implements, and the request that loads it. */
export interface BenchRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Headers the request carries (an `Authorization`, an `Accept-Encoding`). */
  headers?: Record<string, string>;
  /** Headers the answer must carry, each matching its pattern, checked before any load. */
  answerHeaders?: Record<string, RegExp>;
  /** Headers the answer must not carry (a default turned off), checked likewise. */
  absentHeaders?: readonly string[];
  /** The status a healthy server answers. */
  status: number;
  /** The JSON every server must answer, checked before any load: a server that differs stops the run. */
  answer?: unknown;
  /** A body every server must refuse (400 or 422, each framework's own choice), checked likewise. */
  refusedBody?: string;
  /** The fields a 422 refusal of `refusedBody` must name, whatever validated them. */
  refusedFields?: readonly string[];
}

const ORDER_INPUT = { item: 'tea', quantity: 2, email: 'ada@example.com' };
// Every field of it breaks a rule, so that each validator has all three to report.
const INVALID_ORDER = { item: '', quantity: 0, email: 'not an address' };
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
    refusedBody: JSON.stringify(INVALID_ORDER),
    refusedFields: Object.keys(INVALID_ORDER),
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

/**
 * The same order validated by zod: only keel (`@Body(schema)`, through the Standard Schema
 * interface) and Fastify (fastify-type-provider-zod) serve it, so it is measured apart from `ROUTES`.
 */
export const ZOD_ORDER_ROUTE: BenchRoute = {
  ...benchRoute('POST /api/orders'),
  name: 'POST /api/orders/zod',
  path: '/api/orders/zod',
};

/** The validated POST through each validator keel and Fastify users reach for, side by side. */
export const VALIDATION_ROUTES: readonly BenchRoute[] = [benchRoute('POST /api/orders'), ZOD_ORDER_ROUTE];

/** Every route some part measures, in the order the tables show them. */
export const MEASURED_ROUTES: readonly BenchRoute[] = [...ROUTES, ZOD_ORDER_ROUTE];

/** The routes measured with every peer in its production configuration. */
export const PRODUCTION_ROUTES: readonly BenchRoute[] = [
  benchRoute('GET /orders/:id'),
  benchRoute('POST /api/orders'),
  benchRoute('GET /api/orders/:id'),
];

/** About 4 KiB of JSON: what keel's configuration table measures compression on, and without it. */
export const ORDER_LIST_ROUTE: BenchRoute = {
  name: 'GET /orders',
  method: 'GET',
  path: '/orders',
  status: 200,
  answer: orderList(),
};
