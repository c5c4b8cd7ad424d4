import { startBalancer, type Balancer } from './haproxy';
import { issueToken, scratchDatabase, startSample, waitUntilReady, type RunningSample } from './sample';
import { closedPort, postgresUrl } from './test-databases';

/** Sample replicas on one database of their own, behind a real HAProxy, as a deployment runs them. */
export interface SampleReplicas {
  readonly balancer: Balancer;
  /** The URL of their database, dropped by stop(). */
  readonly databaseUrl: string;
  /** The operator's API token: kept in the database, so every replica, old or new, knows it. */
  readonly authorization: { readonly authorization: string };
  /** The replica running as `name` now. */
  replica(name: string): RunningSample;
  /** `http://127.0.0.1:<port>`: the address of `name`, which each replica of that name keeps. */
  urlOf(name: string): string;
  /**
   * Sends `name` SIGTERM and, once it has exited, starts its successor on the same port; resolves
   * with the stopped one's exit code once HAProxy has every replica UP again.
   */
  replace(name: string): Promise<number | null>;
  /** Stops HAProxy and every replica (SIGTERM, each finishing its drain), then drops the database. */
  stop(): Promise<void>;
}

// A replica that starts or an HAProxy that sees it up takes a while on a loaded machine.
const UP_WITHIN_MS = 30_000;

/**
 * Starts one compiled sample per name in `names`, each on a port of its own with `env` (beside the
 * operator's settings `startSample` gives), on a new database on the PostgreSQL server, waits until
 * each is ready, issues the operator's API token and puts HAProxy in front of them (the settings of
 * sample/README.md).
 *
 * @example
 * const replicas = await startSampleReplicas(['r0', 'r1', 'r2'], { SHUTDOWN_DELAY_MS: '1500' });
 * const exit = await replicas.replace('r0');
 */
export async function startSampleReplicas(
  names: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<SampleReplicas> {
  const database = await scratchDatabase(postgresUrl());
  const ports = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await closedPort()] as const)),
  );
  const running: Record<string, RunningSample> = {};
  let balancer: Balancer | undefined;
  const start = async (name: string) =>
    (running[name] = await startSample(
      { url: database.url },
      { env: { ...env, PORT: String(ports[name]) } },
    ));
  const stop = async (): Promise<void> => {
    await balancer?.stop();
    await Promise.all(Object.values(running).map((replica) => replica.stop()));
    await database.drop();
  };
  try {
    // Started together: the migration lock lets one of them make the tables.
    await Promise.all(names.map(start));
    await Promise.all(Object.values(running).map((replica) => waitUntilReady(replica.url)));
    const authorization = await issueToken((running[names[0] ?? ''] as RunningSample).url);
    const started = await startBalancer(ports);
    balancer = started;
    await started.waitUntilUp(names, UP_WITHIN_MS);
    return {
      balancer: started,
      databaseUrl: database.url,
      authorization,
      replica: (name) => running[name] as RunningSample,
      urlOf: (name) => `http://127.0.0.1:${ports[name]}`,
      async replace(name) {
        const old = running[name] as RunningSample;
        old.child.kill('SIGTERM');
        const { code } = await old.exited;
        await start(name);
        await started.waitUntilUp(names, UP_WITHIN_MS);
        return code;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
