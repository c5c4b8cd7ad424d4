import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { SAMPLE_DOCKERFILE, finalStage, readHealthcheck, readInstructions } from '../factories/dockerfile';
import { PROJECT_NAME, generateProject } from '../factories/new-project';
import { documentedProbe } from '../factories/probe-table';

// The image definitions of the sample and of a project `framework new` writes, read as text (this
// machine may have no Docker engine): the settings sample/README.md documents, and the properties the
// deployment depends on.

const project = generateProject();
afterAll(() => project.remove());

const IMAGES = [
  { image: 'the sample', file: SAMPLE_DOCKERFILE, main: 'sample/dist/main.js' },
  { image: 'a new project', file: path.join(project.dir, 'Dockerfile'), main: 'dist/main.js' },
];

describe.each(IMAGES)('$image', ({ file, main }) => {
  const image = finalStage(readInstructions(file));

  function argsOf(keyword: string): string[] {
    return image
      .filter((instruction) => instruction.keyword === keyword)
      .map((instruction) => instruction.args);
  }

  test('the HEALTHCHECK runs every 30 s, allows 5 s, and starts counting after 5 s, as sample/README.md documents', () => {
    const { settings } = documentedProbe('container image HEALTHCHECK');
    expect(settings).toEqual({ interval: '30s', timeout: '5s', 'start period': '5s' });
    expect(readHealthcheck(image).options).toEqual({
      interval: settings.interval,
      timeout: settings.timeout,
      'start-period': settings['start period'],
    });
  });

  test('the HEALTHCHECK asks GET /health on 127.0.0.1, port 8080 unless PORT says otherwise, with Node itself', () => {
    const documented = documentedProbe('container image HEALTHCHECK');
    const [program, ...args] = readHealthcheck(image).command;
    expect(program).toBe('node');
    const script = args.join(' ');
    expect(script).toContain(
      `'http://127.0.0.1:' + (process.env.PORT || ${documented.port}) + '${documented.path}'`,
    );
    expect(script).toContain('AbortSignal.timeout(');
  });

  test('the image listens on 8080 and serves its metrics on 9464, says so, and runs in production mode', () => {
    expect(argsOf('EXPOSE')).toEqual(['8080 9464']);
    expect(argsOf('ENV').join(' ')).toMatch(/\bPORT=8080\b/);
    expect(argsOf('ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
  });

  test('the application runs as a user that is not root', () => {
    const users = argsOf('USER');
    expect(users).toHaveLength(1);
    expect(users[0].split(':')[0]).not.toMatch(/^(root|0)$/);
  });

  test('node is PID 1 (exec-form CMD), so SIGTERM reaches the application and starts its graceful shutdown', () => {
    const [command] = argsOf('CMD');
    expect(JSON.parse(command)).toEqual(['node', main]);
    expect(argsOf('ENTRYPOINT')).toEqual([]);
    expect(argsOf('STOPSIGNAL').every((signal) => signal === 'SIGTERM')).toBe(true);
  });

  test('the runtime stage builds nothing: it copies compiled code and installed packages from earlier stages', () => {
    expect(readInstructions(file).filter((instruction) => instruction.keyword === 'FROM')).toHaveLength(3);
    expect(argsOf('RUN')).toEqual([]);
  });

  test('every stage runs on Node 24 LTS, in its slim Debian image', () => {
    const stages = readInstructions(file).filter((instruction) => instruction.keyword === 'FROM');
    expect(stages.map(({ args }) => args.split(/\s+/)[0])).toEqual(Array(3).fill('node:24-bookworm-slim'));
  });
});

test('typeorm, pg and pg-boss are installed at the versions the lock file pins, never at versions written by hand', () => {
  const text = readFileSync(SAMPLE_DOCKERFILE, 'utf8');
  expect(text).toContain("packages['node_modules/' + name].version");
  // keel lists pg-boss as an optional peer, which --omit=peer leaves out: the sample's jobs need it named.
  expect(text).toMatch(/for \(const name of \[[^\]]*'pg-boss'[^\]]*\]\)/);
  expect(text).not.toMatch(/(typeorm|pg|pg-boss)@\d/);
});

test('a comment says the build context is the repository root', () => {
  expect(readFileSync(SAMPLE_DOCKERFILE, 'utf8')).toContain('docker build -f sample/Dockerfile');
});

test('a comment in the new project says how to build its image from its own directory', () => {
  expect(readFileSync(path.join(project.dir, 'Dockerfile'), 'utf8')).toContain(
    `docker build -t ${PROJECT_NAME} .`,
  );
});
