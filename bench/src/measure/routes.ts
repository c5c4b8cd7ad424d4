/** A route every server implements, and the request that loads it. */
export interface BenchRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The status a healthy server answers. */
  status: number;
}

/** The routes, in the order the tables show them. */
export const ROUTES: readonly BenchRoute[] = [
  { name: 'GET /health', method: 'GET', path: '/health', status: 200 },
  { name: 'GET /health/ready', method: 'GET', path: '/health/ready', status: 200 },
  { name: 'GET /orders/:id', method: 'GET', path: '/orders/42', status: 200 },
  {
    name: 'POST /api/orders',
    method: 'POST',
    path: '/api/orders',
    body: JSON.stringify({ item: 'tea', quantity: 2, email: 'ada@example.com' }),
    status: 201,
  },
];

export const READINESS_ROUTE = ROUTES[1] as BenchRoute;
