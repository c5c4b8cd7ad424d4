import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './eventually';
import { closedPort } from './test-databases';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';

/** Why the Prometheus tests cannot run here, or undefined when Debian's `prometheus` (with promtool) is installed. */
export function prometheusMissing(): string | undefined {
  const runs = (binary: string) => spawnSync(binary, ['--version']).status === 0;
  return runs(PROMETHEUS) && runs(PROMTOOL)
    ? undefined
    : 'Prometheus is not installed (Debian: apt-get install prometheus, which brings promtool)';
}

/** What `promtool check metrics` says of `text`: its exit status and what it printed. */
export function checkMetrics(text: string): { status: number | null; output: string } {
  const result = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A real Prometheus server scraping targets every second, and its query API. */
export interface PrometheusServer {
  /** The result vector of an instant query. */
  query(expression: string): Promise<PrometheusSample[]>;
  /** Queries until the result has a sample; rejects with the last result after `timeoutMs`. */
  queryUntilFound(expression: string, timeoutMs?: number): Promise<PrometheusSample[]>;
  stop(): Promise<void>;
}

/** One sample of an instant query's result. */
export interface PrometheusSample {
  readonly metric: Readonly<Record<string, string>>;
  readonly value: readonly [number, string];
}

/**
 * Starts `prometheus` on a free port of 127.0.0.1 with a generated configuration that scrapes
 * `target` (`http://host:port/path`) as `job` every second, its storage in a temporary directory.
 */
export async function startPrometheus(job: string, target: string): Promise<PrometheusServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'keel-prometheus-'));
  const port = await closedPort();
  const { host, pathname } = new URL(target);
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  scrape_timeout: 1s',
    'scrape_configs:',
    `  - job_name: ${job}`,
    `    metrics_path: ${pathname}`,
    '    static_configs:',
    `      - targets: ['${host}']`,
    '',
  ].join('\n');
  const file = path.join(dir, 'prometheus.yml');
  await writeFile(file, config);
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${file}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const api = `http://127.0.0.1:${port}`;

  const query = async (expression: string): Promise<PrometheusSample[]> => {
    const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expression)}`);
    const body = (await res.json()) as {
      status: string;
      data?: { result: PrometheusSample[] };
      error?: string;
    };
    if (body.status !== 'success') throw new Error(`query ${expression} failed: ${body.error}`);
    return body.data?.result ?? [];
  };

  return {
    query,
    async queryUntilFound(expression, timeoutMs = 30_000) {
      // A prometheus that has exited will never answer: the wait ends at once, and says why.
      const found = await eventually(
        async () => {
          if (child.exitCode !== null) return 'exited';
          // Until its web server is up, the query fails to connect: asked again.
          const samples = await query(expression);
          if (samples.length > 0) return samples;
          throw new Error('the result is empty');
        },
        { within: timeoutMs, every: 250, what: `a sample of ${expression}` },
      );
      if (found === 'exited') throw new Error(`prometheus exited: ${stderr}`);
      return found;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
