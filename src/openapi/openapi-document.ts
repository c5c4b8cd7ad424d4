import { pathParameters } from '../routing/path';
import type { HttpMethod, RouteDefinition } from '../routing/route';
import type { RouteDoc } from '../routing/route-doc';
import { ClassSchemas } from './class-schemas';
import type { JsonSchema } from './json-schema';
import { operationResponses } from './operation-responses';
import { rateLimitOf } from '../ratelimit/rate-limits';

/** The document's `info`: what the API is called and which version of it this is. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

/** An OpenAPI 3.1 document, as `GET /openapi.json` serves it. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: OpenApiInfo;
  readonly tags: readonly { readonly name: string }[];
  readonly paths: Record<string, Record<string, JsonSchema>>;
  readonly components: { readonly schemas: Record<string, JsonSchema> };
}

const OPERATION_METHODS: Readonly<Record<HttpMethod, readonly string[]>> = {
  GET: ['get'],
  POST: ['post'],
  PUT: ['put'],
  PATCH: ['patch'],
  DELETE: ['delete'],
  HEAD: ['head'],
  OPTIONS: ['options'],
  ALL: ['get', 'post', 'put', 'patch', 'delete'],
};

const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    properties: { error: { type: 'string' } },
    required: ['error'],
  },
  ValidationError: {
    type: 'object',
    properties: {
      error: { const: 'validation failed' },
      fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['error', 'fields'],
  },
};

interface Operation {
  readonly route: RouteDefinition;
  readonly method: string;
}

/**
 * The OpenAPI 3.1 document of `routes`, in their order: each route's method and path, its path
 * and `@Query` parameters, its body and answer classes as JSON Schema, the resource convention's
 * statuses, `operationId` from the route's name and tags from its controller. Hidden routes are
 * left out.
 *
 * @example
 * buildOpenApiDocument(app.router.routes(), { title: 'Orders', version: '1.0.0' });
 */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], info: OpenApiInfo): OpenApiDocument {
  const schemas = new ClassSchemas();
  const operations: Operation[] = routes
    .filter((route) => route.doc?.hidden !== true)
    .flatMap((route) => OPERATION_METHODS[route.method].map((method) => ({ route, method })));
  const nameCounts = new Map<string, number>();
  for (const { route } of operations) nameCounts.set(route.name, (nameCounts.get(route.name) ?? 0) + 1);

  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags = new Set<string>();
  for (const { route, method } of operations) {
    const doc: RouteDoc = route.doc ?? {};
    if (doc.tag) tags.add(doc.tag);
    // PUT and PATCH of one resource action share its name; operation ids must not.
    const operationId = nameCounts.get(route.name) === 1 ? route.name : `${route.name}.${method}`;
    const path = (paths[openApiPath(route.path)] ??= {});
    path[method] = {
      operationId,
      ...(doc.tag ? { tags: [doc.tag] } : {}),
      ...parametersOf(route.path, doc, schemas),
      ...(doc.body ? { requestBody: requestBody(schemas.ref(doc.body)) } : {}),
      responses: operationResponses(
        doc,
        {
          output: doc.output && schemas.ref(doc.output),
          error: { $ref: '#/components/schemas/Error' },
          validationError: { $ref: '#/components/schemas/ValidationError' },
        },
        { isRateLimited: rateLimitOf({ metadata: route.hooks?.metadata }) !== undefined },
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: { ...info },
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: { schemas: { ...ERROR_SCHEMAS, ...schemas.all() } },
  };
}

// keel's `:id`, `:"id"`, `*rest` and trailing `{/:page}` become OpenAPI's `{id}`.
function openApiPath(path: string): string {
  return path
    .replace(/\{\/:([A-Za-z_$][\w$]*)\}$/, '/{$1}')
    .replace(
      /[:*]("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)/g,
      (_whole, name: string) => `{${name.replace(/^"|"$/g, '')}}`,
    );
}

function parametersOf(path: string, doc: RouteDoc, schemas: ClassSchemas): { parameters?: JsonSchema[] } {
  const queryClass = doc.queryClass && schemas.objectOf(doc.queryClass);
  const parameters: JsonSchema[] = [
    ...[...pathParameters(path)].map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...(doc.query ?? []).map(({ name, fallback }) => ({
      name,
      in: 'query',
      required: false,
      schema: fallback === undefined ? { type: 'string' } : { type: 'string', default: fallback },
    })),
    ...Object.entries(queryClass?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: queryClass?.required.includes(name) ?? false,
      schema,
    })),
  ];
  return parameters.length > 0 ? { parameters } : {};
}

function requestBody(schema: JsonSchema): JsonSchema {
  return {
    required: true,
    content: {
      'application/json': { schema },
      'application/x-www-form-urlencoded': { schema },
    },
  };
}
