import { expect, test } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bootApp, moduleWith } from '../factories/app';

// An Application serves requests through listen() or keel/testing's inject, which hand it node:http's
// own objects; it offers no method that takes a request object of any other kind (an http2 one
// crashed the process through such a method).
test('an application has no public method that takes a request and a response', async () => {
  const app = await bootApp(moduleWith({}));
  expect('handleRequest' in app).toBe(false);
  const declarations = await readFile(
    path.join(__dirname, '..', '..', 'dist', 'application', 'application.d.ts'),
    'utf8',
  );
  expect(declarations).toContain('class Application');
  expect(declarations).not.toMatch(/handleRequest|IncomingMessage/);
});
