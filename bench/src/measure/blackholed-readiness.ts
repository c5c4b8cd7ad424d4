import type { PostgresProxy } from '../../../test/factories/postgres-proxy';
import type { LoadResult } from '../load/load-request';
import { waitForStatus } from '../../../test/factories/http-status';
import type { ServerProcess } from '../processes/server-process';
import type { BenchSettings } from '../settings';
import { READINESS_ROUTE } from './routes';
import { loadRoute } from './throughput';

/** Readiness under load while the database accepts connections and never answers. */
export interface BlackholedReadiness {
  server: string;
  load: LoadResult;
  /** Whether readiness answered 200 again once the database came back. */
  hasRecovered: boolean;
}

const RECOVERY_TIMEOUT_MS = 30_000;

/** Blackholes the database for each server in turn, loads readiness, then lets traffic through again. */
export async function measureBlackholedReadiness(
  servers: ServerProcess[],
  proxy: PostgresProxy,
  settings: BenchSettings,
  loadCore: number | undefined,
): Promise<BlackholedReadiness[]> {
  const results: BlackholedReadiness[] = [];
  for (const server of servers) {
    const url = server.baseUrl + READINESS_ROUTE.path;
    await proxy.setMode('blackhole');
    // autocannon, whose timeouts count requests left unanswered: wrk only counts socket timeouts.
    const load = await loadRoute(
      server,
      READINESS_ROUTE,
      'autocannon',
      settings.blackholeSeconds,
      settings,
      loadCore,
    );
    await proxy.setMode('forward');
    const hasRecovered = await waitForStatus(url, 200, RECOVERY_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    results.push({ server: server.kind.name, load, hasRecovered });
  }
  return results;
}
