import type { JsonSchema } from './json-schema';

/** How the application's requests name a version, as the document states it. */
export interface DocumentedVersioning {
  readonly type: 'uri' | 'header' | 'media';
  /** The header (`header`) or the media type's parameter (`media`). */
  readonly name: string;
  /** The version of a request that names none; the header is then optional. */
  readonly defaultVersion: string | undefined;
}

type Operation = Record<string, unknown>;
type Content = Record<string, { schema?: JsonSchema }>;

// The schemas a merge joined under `oneOf`, told apart from a route's own `oneOf`.
const JOINED = new WeakSet<object>();

/**
 * States which version `operation` serves where the path cannot say it: header versioning adds the
 * version header as a parameter (`enum` of the versions), media versioning names its successful
 * answers' JSON types with the version (`application/json;v=2`), which is how a client asks for them.
 *
 * @example versionOperation(operation, '2', { type: 'header', name: 'Accept-Version', defaultVersion: undefined })
 */
export function versionOperation(
  operation: Operation,
  version: string,
  versioning: DocumentedVersioning,
): Operation {
  if (versioning.type === 'uri') return operation;
  if (versioning.type === 'header') {
    const parameter = {
      name: versioning.name,
      in: 'header',
      required: versioning.defaultVersion === undefined,
      description: 'The API version this operation serves.',
      schema: { type: 'string', enum: [version] },
    };
    return {
      ...operation,
      parameters: [...((operation.parameters as JsonSchema[] | undefined) ?? []), parameter],
    };
  }
  const responses = operation.responses as Record<string, { content?: Content }>;
  const versioned = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if (!status.startsWith('2') || response.content === undefined) return [status, response];
      const content = Object.fromEntries(
        Object.entries(response.content).map(([type, body]) => [
          type.startsWith('application/json') ? `${type};${versioning.name}=${version}` : type,
          body,
        ]),
      );
      return [status, { ...response, content }];
    }),
  );
  return { ...operation, responses: versioned };
}

/**
 * One operation for two versions that share a path and a method (header and media versioning),
 * which OpenAPI cannot hold as two: the first's id and description, every parameter once (the
 * version header's `enum` listing both versions), and for each body or answer the types of both,
 * a type whose schemas differ holding them under `oneOf`.
 *
 * @example paths['/orders'].get = mergeOperations(paths['/orders'].get, secondVersion)
 */
export function mergeOperations(first: Operation, second: Operation): Operation {
  const merged: Operation = { ...first };
  const tags = [...new Set([...asList(first.tags), ...asList(second.tags)])];
  if (tags.length > 0) merged.tags = tags;
  const parameters = mergeParameters(
    asList<Parameter>(first.parameters),
    asList<Parameter>(second.parameters),
  );
  if (parameters.length > 0) merged.parameters = parameters;
  const body = mergeBodies(
    first.requestBody as { content?: Content } | undefined,
    second.requestBody as never,
  );
  if (body !== undefined) merged.requestBody = body;
  const responses = { ...(first.responses as Record<string, { content?: Content }>) };
  for (const [status, response] of Object.entries(second.responses as Record<string, { content?: Content }>))
    responses[status] = mergeBodies(responses[status], response) ?? response;
  merged.responses = responses;
  return merged;
}

interface Parameter {
  readonly name?: unknown;
  readonly in?: unknown;
  schema?: { readonly enum?: readonly unknown[] };
}

function mergeParameters(first: Parameter[], second: Parameter[]): Parameter[] {
  const merged = first.map((parameter) => ({ ...parameter }));
  for (const parameter of second) {
    const same = merged.find((known) => known.name === parameter.name && known.in === parameter.in);
    if (same === undefined) merged.push(parameter);
    else if (same.schema?.enum !== undefined && parameter.schema?.enum !== undefined) {
      same.schema = { ...same.schema, enum: [...new Set([...same.schema.enum, ...parameter.schema.enum])] };
    }
  }
  return merged;
}

function mergeBodies<T extends { content?: Content }>(
  first: T | undefined,
  second: T | undefined,
): T | undefined {
  if (first?.content === undefined || second?.content === undefined) return first ?? second;
  const content: Content = { ...first.content };
  for (const [type, body] of Object.entries(second.content)) {
    const known = content[type];
    if (known === undefined || known.schema === undefined || body.schema === undefined)
      content[type] = known ?? body;
    else if (JSON.stringify(known.schema) !== JSON.stringify(body.schema))
      content[type] = { ...known, schema: joined(known.schema, body.schema) };
  }
  return { ...first, content };
}

function joined(first: JsonSchema, second: JsonSchema): JsonSchema {
  const schemas = JOINED.has(first) ? [...(first.oneOf as JsonSchema[]), second] : [first, second];
  const schema = { oneOf: schemas };
  JOINED.add(schema);
  return schema;
}

function asList<T = JsonSchema>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}
