import { ZOD_ORDER_ROUTE, benchRoute } from '../measure/routes';
import { renderTable } from './markdown-table';
import { formatNumber, ratio } from './statistics';
import type { BenchSummary, RouteFigures } from './summary';

const USUAL_ROUTE = benchRoute('POST /api/orders').name;
const ZOD_ROUTE = ZOD_ORDER_ROUTE.name;

/** One throughput over another, each a server on a route; the columns of the validation table. */
const COLUMNS = [
  {
    heading: 'keel class-validator / Fastify JSON schema',
    over: ['keel', USUAL_ROUTE],
    under: ['fastify', USUAL_ROUTE],
  },
  { heading: 'keel zod / Fastify zod', over: ['keel', ZOD_ROUTE], under: ['fastify', ZOD_ROUTE] },
  { heading: 'keel zod / keel class-validator', over: ['keel', ZOD_ROUTE], under: ['keel', USUAL_ROUTE] },
  {
    heading: 'Fastify zod / Fastify JSON schema',
    over: ['fastify', ZOD_ROUTE],
    under: ['fastify', USUAL_ROUTE],
  },
] as const;

/**
 * keel against Fastify with each one's usual validator and with zod, and what zod costs each against
 * its usual one: ratios of the median req/s, per generator. The four run in one phase, interleaved,
 * so unlike the main table's `POST /api/orders` they share the machine's drift.
 */
export function renderValidationRatioTable(summary: BenchSummary): string {
  const { figures } = summary.validation;
  const of = ([server, route]: readonly [string, string], generator: string): number =>
    figures.find(
      (row: RouteFigures) => row.server === server && row.route === route && row.generator === generator,
    )?.requestsPerSecond ?? Number.NaN;
  const generators = summary.generators.filter((generator) =>
    figures.some((row) => row.generator === generator),
  );
  return renderTable(
    ['generator', ...COLUMNS.map(({ heading }) => heading)],
    generators.map((generator) => [
      generator,
      ...COLUMNS.map(({ over, under }) => formatNumber(ratio(of(over, generator), of(under, generator)), 2)),
    ]),
  );
}
