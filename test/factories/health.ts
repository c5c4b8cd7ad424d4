import http from 'node:http';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { registerHealthRoutes, type Application, type ApplicationOptions, type HealthOptions } from 'keel';
import type { DataSourceResolver } from '../../src/health/readiness-check';
import { get, type Answer } from './http-client';
import { bootApp, moduleWith } from './app';

/** An application serving only the health routes, listening on a free port. */
export interface HealthApp {
  readonly app: Application;
  readonly url: string;
  /** GET `path` (default: readiness), parsed; on a connection of its own unless `agent` is given. */
  probe(path?: string, agent?: http.Agent): Promise<Probe>;
}

/** One probe's answer, and how long it took from the client's side. */
export interface Probe extends Answer {
  readonly json: unknown;
  readonly cacheControl: string | undefined;
  readonly elapsedMs: number;
}

const opened: DataSource[] = [];
const started: Application[] = [];

/** Boots an app with `registerHealthRoutes(router, resolve, health)` and listens on 127.0.0.1:0. */
export async function startHealthApp(
  resolve: DataSourceResolver,
  health: HealthOptions = {},
  options: ApplicationOptions = {},
): Promise<HealthApp> {
  const app = await bootApp(moduleWith({}), { handleSignals: false, ...options });
  registerHealthRoutes(app.router, resolve, health);
  return serve(app, health.path ?? '/health');
}

/** Listens on a free port and wraps `app` for probing. */
export async function serve(app: Application, healthPath = '/health'): Promise<HealthApp> {
  started.push(app);
  const { url } = await app.listen(0, '127.0.0.1');
  return { app, url, probe: (path = `${healthPath}/ready`, agent) => probe(`${url}${path}`, agent) };
}

/** GETs `url` (on a connection of its own unless `agent` is given) and times it. */
export async function probe(url: string, agent: http.Agent | false = false): Promise<Probe> {
  const startedAt = performance.now();
  const answer = await get(url, agent);
  const elapsedMs = performance.now() - startedAt;
  return {
    ...answer,
    json: JSON.parse(answer.body) as unknown,
    cacheControl: answer.cacheControl,
    elapsedMs,
  };
}

/** A TypeORM DataSource for `url` (not initialised), closed by {@link closeAll}. */
export function dataSourceFor(url: string, extra: Partial<DataSourceOptions> = {}): DataSource {
  const type = url.startsWith('mysql') ? 'mariadb' : 'postgres';
  const dataSource = new DataSource({
    type,
    url,
    connectTimeoutMS: 2000,
    connectTimeout: 2000,
    ...extra,
  } as DataSourceOptions);
  opened.push(dataSource);
  return dataSource;
}

/** Closes every app and DataSource the tests of this file opened. */
export async function closeAll(): Promise<void> {
  await Promise.allSettled(started.splice(0).map((app) => app.close()));
  await Promise.allSettled(
    opened.splice(0).map((dataSource) => (dataSource.isInitialized ? dataSource.destroy() : undefined)),
  );
}
