/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': '@swc/jest' },
  moduleNameMapper: { '^keel$': '<rootDir>/src/index.ts' },
  setupFiles: ['reflect-metadata'],
};

export default config;
