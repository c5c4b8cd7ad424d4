import { defineErrors } from './error-entry';

/**
 * The errors of the OpenAPI document: one entry per code, so each message is written once.
 *
 * @example
 * OpenApiErrors.noOpenApiModule.code; // 'E_NO_OPENAPI_MODULE'
 */
export const OpenApiErrors = defineErrors({
  noOpenApiModule: {
    code: 'E_NO_OPENAPI_MODULE',
    exitCode: 1,
    message: () =>
      `openapi needs the application to import OpenApiModule, which gives the document its title and version.\n` +
      `Fix: add OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0' }) to the root module's imports.`,
  },

  undocumentedSchemas: {
    code: 'E_UNDOCUMENTED_SCHEMAS',
    exitCode: 1,
    message: (gaps: readonly string[]) =>
      `the document shows ${gaps.length} schema${gaps.length === 1 ? '' : 's'} as {} (any value):\n` +
      gaps.map((gap) => `  ${gap}\n`).join('') +
      `Fix: use a schema whose library states it as JSON Schema (zod 4's do; wrap a valibot schema in toStandardJsonSchema from @valibot/to-json-schema), or leave out what it cannot state (a transform, a custom check).`,
  },

  unknownApiVersion: {
    code: 'E_UNKNOWN_API_VERSION',
    status: 404,
    message: (version: string) => `no route serves API version ${version}`,
  },

  conflictingSecurityScheme: {
    code: 'E_INVALID_OPENAPI',
    message: (name: string, first: string, second: string) =>
      `two guards state different security schemes under the name '${name}' (on ${first} and on ${second}).\n` +
      `Fix: give each scheme a name of its own in @Authenticates(name, scheme), or state the same scheme under one name.`,
  },
});
