import { readFileSync } from 'node:fs';
import path from 'node:path';

// The same from src/cli (tests) and dist/cli (the program): both sit two levels below the package.
const ESM_TEMPLATES = path.join(__dirname, '..', '..', 'schematics', 'project-esm');

// `from './config'` → `from './config.js'`: Node's ES module loader resolves no extension.
const RELATIVE_SPECIFIER =
  /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*?)(?<!\.js|\.json)\2/g;

/**
 * A file of the CommonJS project as the ES module project has it: `package.json` says
 * `"type": "module"`, TypeScript imports name their `.js` files, and a file `schematics/project-esm/`
 * holds (a template path, as `jest.config.js.tpl`) replaces the CommonJS one.
 *
 * @example
 * esmVariant('src/main.ts.tpl', "import { AppModule } from './app.module';"); // "… from './app.module.js';"
 */
export function esmVariant(template: string, text: string, render: (text: string) => string): string {
  const own = readOwn(template);
  if (own !== undefined) return render(own);
  if (template === 'package.json.tpl') return text.replace('"type": "commonjs"', '"type": "module"');
  if (template.endsWith('.ts.tpl')) return text.replace(RELATIVE_SPECIFIER, '$1$2$3.js$2');
  return text;
}

function readOwn(template: string): string | undefined {
  try {
    return readFileSync(path.join(ESM_TEMPLATES, template), 'utf8');
  } catch {
    return undefined;
  }
}
