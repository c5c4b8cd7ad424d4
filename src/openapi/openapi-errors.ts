import { CliError } from '../cli/cli-errors';

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
};
