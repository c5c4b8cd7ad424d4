import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FRAMEWORK, appModuleSource, removeScratchProjects, scratchProject } from '../factories/cli';
import { describeNeeding } from '../factories/requirements';

// util-linux `script` runs the program on a pseudo-terminal, as a person at a terminal would.
const hasScript = spawnSync('script', ['--version']).status === 0;
const noTerminal = hasScript
  ? undefined
  : 'util-linux `script` is not installed (Debian: apt-get install bsdutils)';
const describeOnTerminal = (title: string, body: () => void): void =>
  describeNeeding(noTerminal, title, body);

const DOWN = '\u001b[B';
const BACKSPACE = '\u007f';
const ENTER = '\r';

/** What to wait for on the screen, then the keys to type. */
type Step = readonly [screen: string, keys: string];

interface Session {
  readonly code: number | null;
  readonly screen: string;
}

// Types each step's keys once its text is on the screen; ends with the program (or after 15 s).
function converse(root: string, steps: readonly Step[]): Promise<Session> {
  const command = `${process.execPath} ${FRAMEWORK} make:controller --root ${root}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: { ...process.env, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let next = 0;
  const onOutput = (chunk: string) => {
    screen += chunk;
    const step = steps[next];
    if (step && screen.includes(step[0])) {
      next += 1;
      child.stdin.write(step[1]);
    }
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, screen });
    });
  });
}

afterAll(removeScratchProjects);

describeOnTerminal('make:controller with no name, on a terminal', () => {
  test('asks for the name, then the kind, and writes that controller', async () => {
    const root = scratchProject({ 'src/app.module.ts': appModuleSource() });
    const session = await converse(root, [
      ['Controller name', `OrderItem${ENTER}`],
      ['Kind of controller', `${DOWN}`],
      ['the five actions of a JSON API', ENTER],
    ]);
    expect(session).toMatchObject({ code: 0 });
    expect(session.screen).toContain('wrote src/http/controllers/order-item.ts');
    const golden = readFileSync(path.join(__dirname, 'golden', 'order-item.api.ts.golden'), 'utf8');
    expect(readFileSync(path.join(root, 'src', 'http', 'controllers', 'order-item.ts'), 'utf8')).toBe(golden);
    expect(readFileSync(path.join(root, 'src', 'app.module.ts'), 'utf8')).toContain(
      'controllers: [OrderItemController]',
    );
  }, 20_000);

  test('refuses an invalid name with what a valid one looks like, and asks again', async () => {
    const root = scratchProject({ 'src/app.module.ts': appModuleSource() });
    const session = await converse(root, [
      ['Controller name', `9lives${ENTER}`],
      ['does not start with a letter', `${BACKSPACE.repeat(6)}Order${ENTER}`],
      ['Kind of controller', ENTER],
    ]);
    expect(session).toMatchObject({ code: 0 });
    expect(session.screen).toContain(
      'it does not start with a letter; try a name such as Order or OrderItem',
    );
    expect(readFileSync(path.join(root, 'src', 'http', 'controllers', 'order.ts'), 'utf8')).toContain(
      "@Resource('orders')",
    );
  }, 20_000);

  test('Ctrl+C at the prompt exits 130 and writes nothing', async () => {
    const root = scratchProject({ 'src/app.module.ts': appModuleSource() });
    const session = await converse(root, [['Controller name', '\u0003']]);
    expect(session).toMatchObject({ code: 130 });
    expect(session.screen).toContain('cancelled');
    expect(readFileSync(path.join(root, 'src', 'app.module.ts'), 'utf8')).toBe(appModuleSource());
  }, 20_000);
});
