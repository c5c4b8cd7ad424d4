import 'reflect-metadata';

export type { TestDatabaseOptions } from './test-database';
export type { InjectOptions, InjectResponse, TestingApplication } from './testing-application';
export {
  createTestingApplication,
  type ProviderOverride,
  type TestingApplicationBuilder,
} from './testing-builder';
