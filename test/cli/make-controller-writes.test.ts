import { existsSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  appModuleProject,
  appModuleSource,
  removeScratchProjects,
  runFramework,
  scratchProject,
} from '../factories/cli';

// Writes that fail halfway (here: past a file size limit, as a full disk would) leave every file
// whole: as it was, or not there at all.
afterAll(removeScratchProjects);

const CONTROLLER = path.join('src', 'http', 'controllers', 'order.ts');
// 512-byte blocks: one is less than a generated resource controller, four more than it.
const SMALLER_THAN_A_CONTROLLER = 1;
const LARGER_THAN_A_CONTROLLER = 4;

function read(root: string, file: string): Buffer {
  return readFileSync(path.join(root, file));
}

describe('framework make:controller when a write fails halfway', () => {
  test('a module edit that cannot be written leaves the module whole and prints the lines to add', async () => {
    const padding = '// a long comment line that makes this module larger than the limit\n'.repeat(40);
    const module = appModuleSource().replace('\n\n@Module', `\n\n${padding}@Module`);
    const root = scratchProject({ 'src/app.module.ts': module });
    const run = await runFramework(['make:controller', 'Order', '--root', root], {
      fileSizeLimit: LARGER_THAN_A_CONTROLLER,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('could not edit src/app.module.ts');
    expect(run.stderr).toContain(
      "import { OrderController } from './http/controllers/order';\ncontrollers: [OrderController],",
    );
    expect(read(root, 'src/app.module.ts').toString()).toBe(module);
    expect(readdirSync(path.join(root, 'src')).sort()).toEqual(['app.module.ts', 'http']);
    expect(read(root, CONTROLLER).toString()).toContain('export class OrderController {');
  });

  test('a controller that cannot be written whole is not left behind', async () => {
    const root = appModuleProject();
    const run = await runFramework(['make:controller', 'Order', '--root', root], {
      fileSizeLimit: SMALLER_THAN_A_CONTROLLER,
    });
    expect(run.code).toBe(1);
    expect(existsSync(path.join(root, CONTROLLER))).toBe(false);
    expect(readdirSync(path.join(root, 'src', 'http', 'controllers'))).toEqual([]);
    expect(read(root, 'src/app.module.ts').toString()).toBe(appModuleSource());
  });

  test('--force that cannot write the new controller whole keeps the old one', async () => {
    const root = appModuleProject();
    expect((await runFramework(['make:controller', 'Order', '--root', root])).code).toBe(0);
    const mine = Buffer.from('// my own work\n');
    writeFileSync(path.join(root, CONTROLLER), mine);
    const run = await runFramework(['make:controller', 'Order', '--force', '--root', root], {
      fileSizeLimit: SMALLER_THAN_A_CONTROLLER,
    });
    expect(run.code).toBe(1);
    expect(read(root, CONTROLLER)).toEqual(mine);
    expect(readdirSync(path.join(root, 'src', 'http', 'controllers'))).toEqual(['order.ts']);
  });

  test('a module file that is a link stays a link, and its target gets the edit', async () => {
    const root = scratchProject({ 'src/core/root.module.ts': appModuleSource() });
    symlinkSync(path.join(root, 'src', 'core', 'root.module.ts'), path.join(root, 'src', 'app.module.ts'));
    expect((await runFramework(['make:controller', 'Order', '--root', root])).code).toBe(0);
    expect(lstatSync(path.join(root, 'src', 'app.module.ts')).isSymbolicLink()).toBe(true);
    expect(read(root, 'src/core/root.module.ts').toString()).toContain('controllers: [OrderController]');
  });
});
