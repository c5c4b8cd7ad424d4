import { STATUS_CODES } from 'node:http';
import type { ResourceAction } from '../routing/resource-table';
import type { RouteDoc } from '../routing/route-doc';
import type { JsonSchema } from './json-schema';

/** What a response needs that the route does not say: where the shared error schemas are. */
export interface ResponseSchemas {
  /** The schema of the class the route answers with, when it names one. */
  readonly output: JsonSchema | undefined;
  readonly error: JsonSchema;
  readonly validationError: JsonSchema;
  /** The media type error answers have in the application's error shape. */
  readonly errorMediaType: string;
}

/** What can answer an operation besides its handler and its parameters. */
export interface AnswerSources {
  /** A guard states how it authenticates (`@Authenticates`): 401 without valid credentials. */
  readonly authenticates: boolean;
  /** A guard is declared on the route: any guard's `false` is 403. */
  readonly isGuarded: boolean;
  /** The application has a database or sheds load, and the route is not a health route: 503. */
  readonly mayBeUnavailable: boolean;
  /** The route has a `@RateLimit`: 429 with `Retry-After` and the `RateLimit` headers. */
  readonly isRateLimited: boolean;
  /** A policy's record is loaded before the handler (`@Can(..., { from })`): 404 when there is none. */
  readonly mayBeMissing?: boolean;
  /** The status the handler's returned value answers with (`answerStatus`): 201 for POST, its `@HttpCode`. */
  readonly answerStatus?: number;
  /** The route says its status with `@HttpCode`: it replaces a resource action's conventional success. */
  readonly isStatusDeclared?: boolean;
}

// The resource convention's own answers, action by action: JSON for API resources, pages for the others.
const API_STATUSES: Readonly<Record<ResourceAction, readonly number[]>> = {
  index: [200],
  create: [200],
  store: [201],
  show: [200, 404],
  edit: [200, 404],
  update: [200, 404],
  destroy: [204, 404],
};
const PAGE_STATUSES: Readonly<Record<ResourceAction, readonly number[]>> = {
  index: [200],
  create: [200],
  store: [303],
  show: [200, 404],
  edit: [200, 404],
  update: [303, 404],
  destroy: [303, 404],
};
// What keel answers for a body before the handler has it: malformed, too large, of an unknown type, invalid.
const BODY_STATUSES = [400, 413, 415, 422];

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created; Location names the new resource',
  204: 'Done; no content',
  303: 'Done; Location names the page to see',
  400: 'Malformed JSON body, or a parameter its pipe refused',
  401: 'Missing or wrong credentials',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Body over the size limit',
  415: 'Unsupported content type: send JSON or a form',
  422: 'Validation failed; fields lists the messages by field',
  429: 'Too many requests: the budget of this client is spent until Retry-After',
  503: 'The database cannot be reached, or the server is overloaded; Retry-After says when to ask again',
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
const RETRY_AFTER = { 'Retry-After': { schema: { type: 'string' } } };
const HTML = { 'text/html': { schema: { type: 'string' } } };
const EVENT_STREAM = {
  description: 'A stream of Server-Sent Events',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

/**
 * The responses an operation documents: the resource convention's statuses for a resource action
 * (its success replaced by a `@HttpCode`), else the status a returned value answers with; 400, 413, 415 and 422 where the route binds a body; 422 where it binds its query into a
 * class; 400 where a pipe reads a parameter; 401 and 403 where guards protect it; 503 where the
 * database or load shedding may refuse it; 429 with `Retry-After` where the route is rate limited;
 * and the answers the route states itself.
 *
 * @example
 * operationResponses({ action: 'show', isApi: true }, schemas, { authenticates: false, isGuarded: false, mayBeUnavailable: false, isRateLimited: false }); // { 200, 404 }
 */
export function operationResponses(
  doc: RouteDoc,
  schemas: ResponseSchemas,
  sources: AnswerSources,
): Record<string, JsonSchema> {
  const isPage = doc.action !== undefined && doc.isApi !== true;
  const statuses = new Set(successStatuses(doc, isPage, sources));
  if (doc.body || doc.bodySchema) for (const status of BODY_STATUSES) statuses.add(status);
  if (doc.queryClass || doc.querySchema || doc.params?.some((param) => param.schema)) statuses.add(422);
  if (doc.params?.length || doc.query?.some((query) => query.pipes?.length)) statuses.add(400);
  if (sources.authenticates) statuses.add(401);
  if (sources.isGuarded) statuses.add(403);
  if (sources.mayBeMissing) statuses.add(404);
  if (sources.mayBeUnavailable) statuses.add(503);
  if (sources.isRateLimited) statuses.add(429);
  const stated = doc.answers ?? {};
  for (const status of Object.keys(stated)) statuses.add(Number(status));
  const responses: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const own = stated[status];
    responses[String(status)] = own
      ? { description: own.description, ...(own.schema ? json(own.schema) : {}) }
      : status === 200 && doc.isEventStream
        ? EVENT_STREAM
        : { description: describe(status, doc), ...answer(status, isPage, doc, schemas) };
  }
  return responses;
}

function successStatuses(doc: RouteDoc, isPage: boolean, sources: AnswerSources): readonly number[] {
  const answered = sources.answerStatus ?? 200;
  if (!doc.action) return [answered];
  const conventional = (isPage ? PAGE_STATUSES : API_STATUSES)[doc.action];
  return sources.isStatusDeclared
    ? [answered, ...conventional.filter((status) => status >= 400)]
    : conventional;
}

// Only a resource's store names the new resource in Location; any other POST just says it created.
function describe(status: number, doc: RouteDoc): string | undefined {
  return status === 201 && doc.action !== 'store'
    ? 'Created'
    : (DESCRIPTIONS[status] ?? STATUS_CODES[status]);
}

function answer(status: number, isPage: boolean, doc: RouteDoc, schemas: ResponseSchemas): JsonSchema {
  if (status === 204) return {};
  if (status === 303) return { headers: LOCATION };
  if (status === 429) return { headers: TOO_MANY_HEADERS, ...errorBody(schemas, schemas.error) };
  if (status === 503) return { headers: RETRY_AFTER, ...errorBody(schemas, schemas.error) };
  // A page resource answers its successes, a missing item and an invalid form with pages.
  if (isPage && (status < 300 || status === 404 || status === 422)) return { content: HTML };
  if (status === 422) return errorBody(schemas, schemas.validationError);
  if (status >= 400) return errorBody(schemas, schemas.error);
  const success = schemas.output ? json(schemas.output) : {};
  return status === 201 && doc.action === 'store' ? { headers: LOCATION, ...success } : success;
}

function json(schema: JsonSchema): JsonSchema {
  return { content: { 'application/json': { schema } } };
}

function errorBody({ errorMediaType }: ResponseSchemas, schema: JsonSchema): JsonSchema {
  return { content: { [errorMediaType]: { schema } } };
}
