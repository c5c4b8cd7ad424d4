import type { Class } from '../container/token';
import type { CanActivate, HookEntry } from '../hooks/hook-types';
import { pathParameters } from '../routing/path';
import type { HttpMethod, RouteDefinition } from '../routing/route';
import type { RouteDoc } from '../routing/route-doc';
import { securitySchemeOf, type NamedSecurityScheme, type SecurityScheme } from './authenticates';
import type { RouteSecurity } from './route-security';
import { ClassSchemas } from './class-schemas';
import { mergeOperations, versionOperation, type DocumentedVersioning } from './versioned-operations';
import type { JsonSchema } from './json-schema';
import type { StandardSchemaV1 } from '../binding/standard-schema';
import { OpenApiErrors } from '../errors/openapi-errors';
import { KEEL_ERRORS } from '../http/error-shape';
import { operationResponses } from './operation-responses';
import { answerStatus, declaredStatus } from '../http/answer-status';
import { rateLimitOf } from '../ratelimit/rate-limits';
import { parameterSchema } from './pipe-schemas';
import { rememberGaps, SchemaDocuments } from './schema-documents';

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
  readonly components: {
    readonly schemas: Record<string, JsonSchema>;
    readonly securitySchemes?: Record<string, SecurityScheme>;
  };
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

/** What the document states of error answers: their media type, and the schemas of `Error` and `ValidationError`. */
export interface DocumentedErrors {
  readonly mediaType: string;
  readonly schemas: { readonly error: JsonSchema; readonly validationError: JsonSchema };
}

/** What the document needs to know of the application beyond its routes. */
export interface ApplicationFacts {
  /** The `APP_GUARD`s, which guard every route. */
  readonly globalGuards: readonly HookEntry<CanActivate>[];
  /** Whether a route may answer 503: the application has a database or sheds load, and the route is no health route. */
  readonly mayBeUnavailable: (route: RouteDefinition) => boolean;
  /** How a route is authenticated and authorized (`AuthModule`); undefined or none: by its guards alone. */
  readonly securityOf?: (route: RouteDefinition) => RouteSecurity | undefined;
  /** How requests name an API version, where the application versions its routes. */
  readonly versioning?: DocumentedVersioning | undefined;
  /** The application's error shape. Default: keel's, `{"error": message}`. */
  readonly errors?: DocumentedErrors;
}

const NO_FACTS: ApplicationFacts = { globalGuards: [], mayBeUnavailable: () => false };

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
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[],
  info: OpenApiInfo,
  application: ApplicationFacts = NO_FACTS,
): OpenApiDocument {
  const { globalGuards, mayBeUnavailable, securityOf, versioning, errors = KEEL_ERRORS } = application;
  const schemas = new ClassSchemas();
  const schemaDocs = new SchemaDocuments();
  const security = new SecuritySchemes();
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
    const declaredGuards = route.hooks?.guards ?? [];
    const requirement = security.requirementOf([...globalGuards, ...declaredGuards], route.source);
    const where = `${method.toUpperCase()} ${route.path}`;
    const opened = securityOf?.(route);
    const requirements = security.alternativesOf(opened, requirement, route.source);
    const operation = {
      operationId,
      ...(doc.tag ? { tags: [doc.tag] } : {}),
      ...parametersOf(route.path, doc, schemas, schemaOf(schemaDocs, where)),
      ...(doc.body ? { requestBody: requestBody(doc.body, schemas) } : {}),
      ...(doc.bodySchema ? { requestBody: schemaBody(schemaDocs.of(doc.bodySchema, `${where} body`)) } : {}),
      ...(requirements.length > 0 ? { security: requirements } : {}),
      responses: operationResponses(
        doc,
        {
          output: doc.outputSchema
            ? schemaDocs.of(doc.outputSchema, `${where} answer`)
            : doc.output && schemas.outputRef(doc.output),
          error: { $ref: '#/components/schemas/Error' },
          validationError: { $ref: '#/components/schemas/ValidationError' },
          errorMediaType: errors.mediaType,
        },
        {
          authenticates: requirements.length > 0,
          isGuarded: declaredGuards.length > 0 || opened?.isAuthorized === true,
          mayBeMissing: opened?.loadsRecord === true,
          mayBeUnavailable: mayBeUnavailable(route),
          isRateLimited: rateLimitOf({ metadata: route.hooks?.metadata }) !== undefined,
          answerStatus: answerStatus(route.method, route.hooks?.metadata),
          isStatusDeclared: declaredStatus(route.hooks?.metadata) !== undefined,
        },
      ),
    };
    // Two versions on one path and method (header or media versioning) are one operation.
    const versioned =
      route.version === undefined || versioning === undefined
        ? operation
        : versionOperation(operation, route.version, versioning);
    const known = path[method];
    path[method] = known === undefined ? versioned : mergeOperations(known, versioned);
  }
  const securitySchemes = security.all();
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { ...info },
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: errors.schemas.error,
        ValidationError: errors.schemas.validationError,
        ...schemas.all(),
      },
      ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    },
  };
  rememberGaps(document, schemaDocs.gaps());
  return document;
}

// The schemes the guards state, each name once: two guards naming different schemes alike is an error.
class SecuritySchemes {
  readonly #schemes = new Map<string, { scheme: SecurityScheme; source: string }>();

  // Every guard must let the request through, so an operation requires all of their schemes at once.
  requirementOf(guards: readonly HookEntry<CanActivate>[], source: string): Record<string, []> | undefined {
    const requirement: Record<string, []> = {};
    for (const guard of guards) {
      const stated = securitySchemeOf(guard);
      if (!stated) continue;
      this.#add(stated, source);
      requirement[stated.name] = [];
    }
    return Object.keys(requirement).length > 0 ? requirement : undefined;
  }

  // Any one of the strategies that open a route will do (alternatives), each besides what its guards require.
  alternativesOf(
    opened: RouteSecurity | undefined,
    guarded: Record<string, []> | undefined,
    source: string,
  ): Record<string, []>[] {
    const names = Object.entries(opened?.schemes ?? {}).map(([name, scheme]) => {
      this.#add({ name, scheme }, source);
      return name;
    });
    if (names.length === 0) return guarded ? [guarded] : [];
    return names.map((name) => ({ ...guarded, [name]: [] }));
  }

  #add(stated: NamedSecurityScheme, source: string): void {
    const known = this.#schemes.get(stated.name);
    if (known && JSON.stringify(known.scheme) !== JSON.stringify(stated.scheme))
      throw OpenApiErrors.conflictingSecurityScheme(stated.name, known.source, source);
    if (!known) this.#schemes.set(stated.name, { scheme: stated.scheme, source });
  }

  all(): Record<string, SecurityScheme> {
    return Object.fromEntries([...this.#schemes].map(([name, { scheme }]) => [name, scheme]));
  }
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

type SchemaOf = (schema: StandardSchemaV1, part: string) => JsonSchema;

function schemaOf(docs: SchemaDocuments, where: string): SchemaOf {
  return (schema, part) => docs.of(schema, `${where} ${part}`);
}

function parametersOf(
  path: string,
  doc: RouteDoc,
  schemas: ClassSchemas,
  documentSchema: SchemaOf,
): { parameters?: JsonSchema[] } {
  const queryClass = doc.queryClass
    ? schemas.objectOf(doc.queryClass)
    : doc.querySchema && objectParts(documentSchema(doc.querySchema, 'query'));
  const piped = new Map((doc.params ?? []).map((param) => [param.name, param]));
  const parameters: JsonSchema[] = [
    ...[...pathParameters(path)].map((name) => {
      const param = piped.get(name);
      return {
        name,
        in: 'path',
        required: true,
        schema: param?.schema
          ? documentSchema(param.schema, `parameter ${name}`)
          : parameterSchema(param?.pipes),
      };
    }),
    ...(doc.query ?? []).map(({ name, fallback, pipes }) => ({
      name,
      in: 'query',
      required: false,
      schema: parameterSchema(pipes, fallback),
    })),
    ...(['header', 'cookie'] as const).flatMap((where) =>
      ((where === 'header' ? doc.headers : doc.cookies) ?? []).map(({ name, fallback, pipes }) => ({
        name,
        in: where,
        required: false,
        schema: parameterSchema(pipes, fallback),
      })),
    ),
    ...Object.entries(queryClass?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: queryClass?.required.includes(name) ?? false,
      schema,
    })),
  ];
  return parameters.length > 0 ? { parameters } : {};
}

// A query schema's properties are the query's parameters; one that states no object has none.
function objectParts(schema: JsonSchema): {
  properties: Record<string, JsonSchema>;
  required: readonly string[];
} {
  const { properties, required } = schema as { properties?: Record<string, JsonSchema>; required?: string[] };
  return { properties: properties ?? {}, required: required ?? [] };
}

// A schema's body is required unless it accepts nothing at all: a bodiless request binds `{}`.
function schemaBody(schema: JsonSchema): JsonSchema {
  const required = (schema as { required?: unknown[] }).required;
  return {
    required: Array.isArray(required) && required.length > 0,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

// A body whose class requires nothing (a PATCH's `PartialType`) may be left out altogether.
function requestBody(type: Class, schemas: ClassSchemas): JsonSchema {
  const schema = schemas.ref(type);
  return {
    required: schemas.objectOf(type).required.length > 0,
    content: {
      'application/json': { schema },
      'application/x-www-form-urlencoded': { schema },
    },
  };
}
