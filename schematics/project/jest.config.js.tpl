// Jest runs TypeScript through SWC, which keeps keel's decorators and their metadata; `npm test`
// type-checks with tsc first, since SWC only strips the types.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': '@swc/jest' },
};
