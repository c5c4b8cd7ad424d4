import 'reflect-metadata';

export type { TestDatabaseOptions } from './test-database';
export { TestingApplication, type InjectOptions, type InjectResponse } from './testing-application';
export {
  createTestingApplication,
  TestingApplicationBuilder,
  type ProviderOverride,
} from './testing-builder';
