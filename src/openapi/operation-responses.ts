import type { ResourceAction } from '../routing/resource-table';
import type { RouteDoc } from '../routing/route-doc';
import type { JsonSchema } from './json-schema';

/** What a response needs that the route does not say: where the shared error schemas are. */
export interface ResponseSchemas {
  /** The schema of the class the route answers with, when it names one. */
  readonly output: JsonSchema | undefined;
  readonly error: JsonSchema;
  readonly validationError: JsonSchema;
}

// The resource convention's answers, action by action: JSON for API resources, pages for the others.
const API_STATUSES: Readonly<Record<ResourceAction, readonly number[]>> = {
  index: [200],
  create: [200],
  store: [201, 400, 415, 422],
  show: [200, 404],
  edit: [200, 404],
  update: [200, 400, 404, 415, 422],
  destroy: [204, 404],
};
const PAGE_STATUSES: Readonly<Record<ResourceAction, readonly number[]>> = {
  index: [200],
  create: [200],
  store: [303, 400, 415, 422],
  show: [200, 404],
  edit: [200, 404],
  update: [303, 400, 404, 415, 422],
  destroy: [303, 404],
};
const BODY_STATUSES = new Set([400, 415, 422]);

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created; Location names the new resource',
  204: 'Done; no content',
  303: 'Done; Location names the page to see',
  400: 'Malformed JSON body',
  404: 'Not found',
  415: 'Unsupported content type: send JSON or a form',
  422: 'Validation failed; fields lists the messages by field',
};

const LOCATION = { Location: { schema: { type: 'string' } } };
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: '<limit>;w=<window in seconds>', schema: { type: 'string' } },
  RateLimit: { description: 'limit=<n>, remaining=<n>, reset=<seconds>', schema: { type: 'string' } },
};
const TOO_MANY_HEADERS = {
  'Retry-After': {
    description: 'Seconds until the budget has room again',
    schema: { type: 'integer', minimum: 1 },
  },
  ...RATE_LIMIT_HEADERS,
};
const HTML = { 'text/html': { schema: { type: 'string' } } };

/**
 * The responses an operation documents: the resource convention's statuses for a resource action,
 * else 200; 400, 415 and 422 only where the route binds a body; 429 with `Retry-After` where the
 * route is rate limited.
 *
 * @example
 * operationResponses({ action: 'show', isApi: true }, schemas, { isRateLimited: false }); // { 200: ..., 404: ... }
 */
export function operationResponses(
  doc: RouteDoc,
  schemas: ResponseSchemas,
  { isRateLimited }: { readonly isRateLimited: boolean },
): Record<string, JsonSchema> {
  const isPage = doc.action !== undefined && doc.isApi !== true;
  const statuses = doc.action ? (isPage ? PAGE_STATUSES : API_STATUSES)[doc.action] : [200, 400, 415, 422];
  const responses: Record<string, JsonSchema> = {};
  for (const status of statuses) {
    if (BODY_STATUSES.has(status) && !doc.body) continue;
    responses[String(status)] = { description: DESCRIPTIONS[status], ...answer(status, isPage, schemas) };
  }
  if (isRateLimited) {
    responses['429'] = {
      description: 'Too many requests: the budget of this client is spent until Retry-After',
      headers: TOO_MANY_HEADERS,
      ...json(schemas.error),
    };
  }
  return responses;
}

function answer(status: number, isPage: boolean, schemas: ResponseSchemas): JsonSchema {
  if (status === 204) return {};
  if (status === 303) return { headers: LOCATION };
  if (status === 400 || status === 415) return json(schemas.error);
  if (isPage) return { content: HTML };
  if (status === 404) return json(schemas.error);
  if (status === 422) return json(schemas.validationError);
  const success = schemas.output ? json(schemas.output) : {};
  return status === 201 ? { headers: LOCATION, ...success } : success;
}

function json(schema: JsonSchema): JsonSchema {
  return { content: { 'application/json': { schema } } };
}
