import type { DynamicModule } from '../container/module-definition';
import { Container } from '../container/container';
import { InjectionToken } from '../container/token';
import { DatabaseConnector } from '../database/database-connector';
import { APP_GUARD } from '../hooks/hook-tokens';
import type { OnModuleInit } from '../lifecycle/lifecycle-hooks';
import { LoadMonitor } from '../http/load-monitor';
import { ERROR_SHAPE } from '../http/error-shape';
import { Inject, Injectable } from '../decorators/injectable';
import { Module } from '../decorators/module';
import { APP_ROUTES, type RouteRegistrar } from '../routing/app-routes';
import type { RouteDefinition } from '../routing/route';
import type { Router } from '../routing/router';
import { OpenApiErrors } from '../errors/openapi-errors';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';
import { resolveOpenApiOptions, type OpenApiOptions, type OpenApiSettings } from './openapi-options';
import { OPENAPI_DOCUMENT, type OpenApiDocumentSource } from './openapi-token';
import { swaggerUiRoutes } from './swagger-ui';
import { ROUTE_SECURITY, type RouteSecurity } from './route-security';

const OPENAPI_SETTINGS = new InjectionToken<OpenApiSettings>('OpenAPI settings');

/** Serves the document and its Swagger UI page, built from the router's routes when first asked for. */
@Injectable()
class OpenApiPublisher implements OpenApiDocumentSource, RouteRegistrar, OnModuleInit {
  readonly #settings: OpenApiSettings;
  #router: Router | undefined;
  // The document of every version (key ''), and each version's own (`?version=2`).
  readonly #documents = new Map<string, OpenApiDocument>();
  #routeCount = -1;

  readonly #container: Container;

  constructor(@Inject(OPENAPI_SETTINGS) settings: OpenApiSettings, container: Container) {
    this.#settings = settings;
    this.#container = container;
  }

  register(router: Router): void {
    const { path, docsPath, info } = this.#settings;
    this.#router = router;
    router.add(
      {
        method: 'GET',
        path,
        handler: (ctx) => ctx.json(200, this.document(versionAsked(ctx.query('version')))),
        name: 'openapi.document',
        source: 'OpenApiModule (document)',
        doc: { hidden: true },
      },
      ...swaggerUiRoutes({ title: info.title, docsPath, documentPath: path }),
    );
  }

  // Built once at boot, when every route is in: a document that cannot be made stops the boot. At
  // onModuleInit, which keel calls once the routes are compiled, so that `createApplication` rejects
  // (onApplicationBootstrap would wait for the application to serve).
  onModuleInit(): void {
    this.document();
  }

  // A database that cannot be reached, or a passed load limit, is 503 on every route but the health ones.
  #unavailability(): (route: RouteDefinition) => boolean {
    const load = this.#container.get(LoadMonitor);
    const mayRefuse = load.isShedding || this.#container.has(DatabaseConnector);
    return (route) => mayRefuse && !load.isExempt(route.path);
  }

  // Authentication states how each route is opened, where the application has it.
  #securityOf(): ((route: RouteDefinition) => RouteSecurity | undefined) | undefined {
    if (!this.#container.has(ROUTE_SECURITY)) return undefined;
    const source = this.#container.get(ROUTE_SECURITY);
    return (route) => source.securityOf(route);
  }

  /**
   * The document of every route, or of `version`'s and the unversioned ones only; a version no route
   * serves is 404. Built again only when routes were added since: `app.router` takes routes after
   * boot too. @example publisher.document('2')
   */
  document(version?: string): OpenApiDocument {
    const routes = this.#router?.routes() ?? [];
    if (routes.length !== this.#routeCount) {
      this.#documents.clear();
      this.#routeCount = routes.length;
    }
    const key = version ?? '';
    const known = this.#documents.get(key);
    if (known) return known;
    if (version !== undefined && !routes.some((route) => route.version === version))
      throw OpenApiErrors.unknownApiVersion(version);
    const chosen = routes.filter(
      (route) =>
        this.#settings.include(route) &&
        (version === undefined || route.version === undefined || route.version === version),
    );
    const versioning = this.#router?.versioning;
    const document = buildOpenApiDocument(chosen, this.#settings.info, {
      globalGuards: this.#container.getAll(APP_GUARD),
      mayBeUnavailable: this.#unavailability(),
      securityOf: this.#securityOf(),
      errors: this.#container.has(ERROR_SHAPE) ? this.#container.get(ERROR_SHAPE) : undefined,
      versioning: versioning && {
        type: versioning.type,
        name: versioning.name,
        defaultVersion: versioning.defaultVersion,
      },
    });
    this.#documents.set(key, document);
    return document;
  }
}

// `?version=` once, as text: any other shape asks for the whole document.
function versionAsked(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The application's OpenAPI 3.1 document at `GET /openapi.json` and Swagger UI at `GET /docs`,
 * derived from its routes with no annotations; `node dist/main.js openapi` prints the document.
 *
 * @example
 * @Module({ imports: [OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0' })] })
 * export class AppModule {}
 */
@Module({})
export class OpenApiModule {
  /** The document's routes with `options` (title and version required; `path`, `docsPath`, `include`). @example OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0', docsPath: '/api-docs' }) */
  static forRoot(options: OpenApiOptions): DynamicModule {
    return {
      module: OpenApiModule,
      providers: [
        { provide: OPENAPI_SETTINGS, useValue: resolveOpenApiOptions(options) },
        OpenApiPublisher,
        { provide: OPENAPI_DOCUMENT, useExisting: OpenApiPublisher },
        { provide: APP_ROUTES, useExisting: OpenApiPublisher },
      ],
      exports: [OPENAPI_DOCUMENT],
    };
  }
}
