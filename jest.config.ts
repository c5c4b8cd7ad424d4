/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': '@swc/jest',
    // pg-boss, serialize-error (with non-error) and jose ship ES modules only, which Jest on Node 20 cannot require.
    '/node_modules/(pg-boss|serialize-error|non-error|jose)/.+\\.js$': [
      '@swc/jest',
      { module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(pg-boss|serialize-error|non-error|jose)/)'],
  moduleNameMapper: {
    '^keel$': '<rootDir>/src/index.ts',
    '^keel/testing$': '<rootDir>/src/testing/index.ts',
  },
  setupFiles: ['reflect-metadata'],
  // Child-process tests run the compiled framework: build it first, so they never see a stale dist/.
  // It also picks the databases (starting an embedded one when the machine has none).
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};

export default config;
