import { CliError } from '../cli/cli-errors';
import { FrameworkError } from '../framework-error';

/** The errors of the OpenAPI document: one builder per code, so each message is written once. */
export const OpenApiErrors = {
  noOpenApiModule() {
    return new CliError(
      'E_NO_OPENAPI_MODULE',
      1,
      `openapi needs the application to import OpenApiModule, which gives the document its title and version.\n` +
        `Fix: add OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0' }) to the root module's imports.`,
    );
  },
  conflictingSecurityScheme(name: string, first: string, second: string) {
    return new FrameworkError(
      'E_INVALID_OPENAPI',
      `two guards state different security schemes under the name '${name}' (on ${first} and on ${second}).\n` +
        `Fix: give each scheme a name of its own in @Authenticates(name, scheme), or state the same scheme under one name.`,
    );
  },
};
