import { InjectionToken } from '../container/token';
import type { OpenApiDocument } from './openapi-document';

/** What the `openapi` command asks the application for. */
export interface OpenApiDocumentSource {
  /** The document of the application's routes as they are now. */
  document(): OpenApiDocument;
}

/**
 * The token `OpenApiModule` provides the application's document under.
 *
 * @example
 * app.get(OPENAPI_DOCUMENT).document().paths;
 */
export const OPENAPI_DOCUMENT = new InjectionToken<OpenApiDocumentSource>('OpenAPI document');
