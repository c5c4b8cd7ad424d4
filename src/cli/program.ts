import { Command, CommanderError, Option } from 'commander';
import path from 'node:path';
import { isatty } from 'node:tty';
import { CliErrors } from '../errors/cli-errors';
import { FrameworkError } from '../errors';
import { CliError } from '../errors';
import type { CliHost, CommandSpec } from './command-spec';
import { CONTROLLER_KINDS, type ControllerKind } from './controller-kinds';
import { makeController } from './make-controller';
import { runDevServer } from './dev-server';
import { JOBS_COMMANDS } from './jobs-commands';
import { MIGRATION_COMMANDS } from './migration-commands';
import { createProject } from './new-project';
import { keelVersion } from './package-version';
import { askForController } from './prompt';
import { formatRouteTable } from './route-listing';
import { OpenApiErrors } from '../errors/openapi-errors';
import { undocumentedSchemas } from '../openapi/schema-documents';

interface MakeControllerFlags {
  readonly api?: boolean;
  readonly plain?: boolean;
  readonly force?: boolean;
  readonly dryRun?: boolean;
  readonly root: string;
  readonly module?: string;
}

const COMMANDS: readonly CommandSpec[] = [
  { name: 'make:controller', define: defineMakeController },
  { name: 'routes', define: defineRoutes },
  { name: 'new', define: defineNew },
  { name: 'dev', define: defineDev },
  { name: 'openapi', define: defineOpenApi },
  ...MIGRATION_COMMANDS,
  ...JOBS_COMMANDS,
];

const USAGE_EXIT_CODE = 2;
// What shells report for a program stopped with Ctrl+C.
const INTERRUPTED_EXIT_CODE = 130;

/**
 * Runs the command `args` names (the arguments after the script) and resolves with the exit code:
 * 0 done, 1 refused or failed, 2 a usage mistake (unknown command or option, invalid name, no name
 * and no terminal). Messages go to stderr, results to stdout.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { name: 'framework' });
 */
export async function runCli(args: readonly string[], host: CliHost): Promise<number> {
  const program = new Command(host.name)
    .description('keel: generate code and inspect the application')
    .version(keelVersion())
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  for (const { name, define } of COMMANDS) define(program.command(name), host);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    return report(error);
  }
}

function defineNew(command: Command): void {
  command
    .description('write a new project into a directory: keel, TypeScript, Jest, Docker, Kubernetes')
    .argument(
      '<dir>',
      'where to write it, such as my-app or apps/billing-api; its last segment names the project',
    )
    .option('--keel <spec>', 'the keel dependency: a version, a range or a tarball path', keelVersion())
    .option('--esm', 'an ES module project ("type": "module"); without it, CommonJS')
    .action((directory: string, flags: { keel: string; esm?: boolean }) => {
      const summary = createProject({ directory, keel: flags.keel, cwd: process.cwd(), esm: flags.esm });
      process.stdout.write(`${summary}\n`);
    });
}

function defineDev(command: Command): void {
  command
    .description(
      'serve the project while it is edited: compile src/ with SWC, run node dist/main.js, recompile and restart on each change (types are left to npm test)',
    )
    .option('--root <dir>', 'the project directory', '.')
    .action((flags: { readonly root: string }) =>
      runDevServer(path.resolve(flags.root), (line) => process.stderr.write(`[dev] ${line}\n`)),
    );
}

function defineMakeController(command: Command, host: CliHost): void {
  command
    .description('write a controller from the schematics and register it in the root module')
    .argument('[name]', 'the controller, such as Order or OrderItem (asked for on a terminal when left out)')
    .addOption(new Option('--api', CONTROLLER_KINDS.api).conflicts('plain'))
    .addOption(new Option('--plain', CONTROLLER_KINDS.plain).conflicts('api'))
    .option('--force', 'overwrite the file if it exists')
    .option('--dry-run', 'print the file and the module edit, and write nothing')
    .option('--root <dir>', 'the project directory', '.')
    .option('--module <file>', 'the root module, relative to --root (default: <source root>/app.module.ts)')
    .action(async (name: string | undefined, flags: MakeControllerFlags) => {
      const flagKind: ControllerKind | undefined = flags.api ? 'api' : flags.plain ? 'plain' : undefined;
      const usage = `${host.name} make:controller ${command.usage()}`;
      // Checked on the descriptor, never through process.stdin: nothing may start reading a pipe.
      if (name === undefined && !isatty(0)) throw CliErrors.nameRequired(usage);
      const answers = name === undefined ? await askForController(flagKind) : { name, kind: flagKind };
      const summary = makeController({
        name: answers.name,
        kind: answers.kind ?? 'resource',
        root: flags.root,
        module: flags.module,
        force: flags.force === true,
        dryRun: flags.dryRun === true,
      });
      process.stdout.write(`${summary}\n`);
    });
}

function defineRoutes(command: Command, host: CliHost): void {
  command.description("print the application's routes: method, path, handler, name").action(() => {
    if (!host.routes) throw CliErrors.needsApplication('routes');
    const table = formatRouteTable(host.routes());
    process.stdout.write(table === '' ? 'no routes\n' : `${table}\n`);
  });
}

function defineOpenApi(command: Command, host: CliHost): void {
  command
    .description("print the application's OpenAPI 3.1 document (JSON)")
    .option('--check', 'print nothing, and fail listing the schemas the document can only show as {}')
    .action((flags: { readonly check?: boolean }) => {
      if (!host.openapi) throw CliErrors.needsApplication('openapi');
      const document = host.openapi();
      if (!flags.check) return void process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      const gaps = undocumentedSchemas(document as object);
      if (gaps.length > 0) throw OpenApiErrors.undocumentedSchemas(gaps);
      process.stdout.write('every schema is documented\n');
    });
}

function report(error: unknown): number {
  // Commander has printed its own message (or the help) already.
  if (error instanceof CommanderError) {
    if (error.code === 'commander.unknownCommand') {
      process.stderr.write(`commands: ${[...COMMANDS.map(({ name }) => name), 'help'].join(', ')}\n`);
    }
    return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    process.stderr.write('cancelled\n');
    return INTERRUPTED_EXIT_CODE;
  }
  if (error instanceof FrameworkError) {
    process.stderr.write(`${error.message}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
  // A file system refusal (a broken link, a file where a directory should be) is the user's to fix,
  // and its message names the path; a stack trace is for the framework's own bugs.
  const isSystemError =
    error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
  process.stderr.write(
    `${error instanceof Error ? ((isSystemError ? undefined : error.stack) ?? error.message) : String(error)}\n`,
  );
  return 1;
}
