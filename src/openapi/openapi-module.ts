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
  #document: OpenApiDocument | undefined;
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
        handler: (ctx) => ctx.json(200, this.document()),
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

  // Built again only when routes were added since: `app.router` takes routes after boot too.
  document(): OpenApiDocument {
    const routes = this.#router?.routes() ?? [];
    if (!this.#document || routes.length !== this.#routeCount) {
      this.#document = buildOpenApiDocument(routes.filter(this.#settings.include), this.#settings.info, {
        globalGuards: this.#container.getAll(APP_GUARD),
        mayBeUnavailable: this.#unavailability(),
        securityOf: this.#securityOf(),
        errors: this.#container.has(ERROR_SHAPE) ? this.#container.get(ERROR_SHAPE) : undefined,
      });
      this.#routeCount = routes.length;
    }
    return this.#document;
  }
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
