// Jest runs TypeScript through SWC, which keeps keel's decorators and their metadata; `npm test`
// type-checks with tsc first, since SWC only strips the types. The tests run as CommonJS (SWC
// compiles them so, per .swcrc): Jest's own ES module support is still experimental. The `.js` of
// an import names the `.ts` file beside it, as TypeScript's nodenext resolution reads it.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': '@swc/jest' },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
