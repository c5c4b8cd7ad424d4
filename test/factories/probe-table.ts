import { readFileSync } from 'node:fs';
import path from 'node:path';

const SAMPLE_README = path.join(__dirname, '..', '..', 'sample', 'README.md');

/** One row of sample/README.md's table of the probe settings shipped with the sample. */
export interface DocumentedProbe {
  /** The request: `GET /health on 127.0.0.1:8080`, `HTTP GET /health, port 8080`. */
  readonly target: string;
  readonly path: string;
  readonly port: number;
  /** `interval` → `30s`, `initialDelaySeconds` → `5`: each `name value` pair of the settings column. */
  readonly settings: Readonly<Record<string, string>>;
}

/**
 * The row of sample/README.md's probe table whose first column is `probe` (`orchestrator liveness`), so that
 * the tests hold the image and the manifests to what the documentation promises.
 */
export function documentedProbe(probe: string): DocumentedProbe {
  const row = readFileSync(SAMPLE_README, 'utf8')
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.replaceAll('`', '').trim()))
    .find((cells) => cells[0] === '' && cells[1] === probe);
  if (!row) throw new Error(`sample/README.md has no probe table row "${probe}"`);
  const [, , target, settings] = row;
  const [, probePath = '', port = ''] = /GET (\/\S*?),? (?:on 127\.0\.0\.1:|port )(\d+)/.exec(target) ?? [];
  return {
    target,
    path: probePath,
    port: Number(port),
    settings: Object.fromEntries(
      [...settings.matchAll(/(\w+(?: period)?) (\d+s?)\b/g)].map(([, name, value]) => [name, value]),
    ),
  };
}
