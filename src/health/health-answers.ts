import type { RouteAnswer } from '../routing/route-doc';

// Every key besides `status` is a dependency's state ("connected", or why not), or the load passed.
const REPORT = (status: string) => ({
  type: 'object',
  properties: { status: { const: status }, db: { type: 'string' } },
  required: ['status', 'db'],
  additionalProperties: { type: 'string' },
});

/** What the OpenAPI document says `GET /health` answers. */
export const LIVENESS_ANSWERS: Readonly<Record<number, RouteAnswer>> = {
  200: {
    description: 'The process runs',
    schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] },
  },
};

/** What the OpenAPI document says `GET /health/ready` answers. */
export const READINESS_ANSWERS: Readonly<Record<number, RouteAnswer>> = {
  200: { description: 'Ready: the database and every required check answered', schema: REPORT('ready') },
  503: {
    description:
      'Not ready: the database or a required check failed, the process is overloaded or shutting down',
    schema: REPORT('error'),
  },
};
