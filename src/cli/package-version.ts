import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The version of the keel that is running, from its package.json.
 *
 * @example
 * keelVersion(); // '0.1.0'
 */
export function keelVersion(): string {
  // From src/cli and dist/cli alike, the package.json is two levels up.
  const manifest = readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}
