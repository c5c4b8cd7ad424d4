import nodeModule from 'node:module';

/**
 * Turns on Node's compile cache (Node 22.1 and later; Node 20 has none) before the rest of keel
 * loads: the code V8 compiles for each module is kept on disk and read back by the next process
 * that loads the same file, unchanged, on the same Node. A keel application loads some 300 of
 * keel's modules and as many of its libraries' (TypeORM, class-validator) before it answers; with
 * their code cached it answers its first request about a quarter sooner, which is what a replica
 * started by an orchestrator waits for.
 *
 * The cache lives where `NODE_COMPILE_CACHE` says, in the temporary directory otherwise; an image
 * that runs its application once at build time ships it warm. `NODE_DISABLE_COMPILE_CACHE=1` turns
 * it off. Node makes this a quiet optimisation: a directory it cannot write leaves the cache off and
 * the process as it was, with no error. Modules loaded before keel (the entry file itself) are
 * compiled as before. A process whose V8 coverage is collected (`NODE_V8_COVERAGE`: c8, `node --test
 * --experimental-test-coverage`) is left without it, since code read from the cache is covered less
 * precisely.
 *
 * @example
 * import './compile-cache'; // first, in every entry point of the package
 */
function enableCompileCache(): void {
  if (process.env.NODE_V8_COVERAGE !== undefined) return;
  const { enableCompileCache: enable } = nodeModule as { enableCompileCache?: () => unknown };
  enable?.();
}

enableCompileCache();
