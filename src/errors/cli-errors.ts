import { defineErrors } from './error-entry';

// Usage mistakes exit 2, as commander's own do; a refusal (to overwrite, to edit) exits 1.
const USAGE = 2;
const REFUSED = 1;

/**
 * The errors of the command-line program: one entry per code, so each message is written once.
 *
 * @example
 * CliErrors.invalidName.code; // 'E_INVALID_NAME'
 */
export const CliErrors = defineErrors({
  invalidName: {
    code: 'E_INVALID_NAME',
    exitCode: USAGE,
    message: (name: string, problem: string, hint: string, what = 'a controller') =>
      `${JSON.stringify(name)} cannot name ${what}: ${problem}.\nFix: ${hint}.`,
  },

  invalidProjectName: {
    code: 'E_INVALID_PROJECT_NAME',
    exitCode: USAGE,
    message: (name: string, problem: string) =>
      `${JSON.stringify(name)} cannot name a project: ${problem}; nothing was written.\n` +
      'Fix: a project name is lower-case letters and digits, its words joined by -, starts with a letter ' +
      'and has at most 63 characters (my-app); a path names the project by its last segment (apps/my-app).',
  },

  keelTarballMissing: {
    code: 'E_KEEL_TARBALL_MISSING',
    exitCode: USAGE,
    message: (spec: string) =>
      `--keel ${spec} names no file; nothing was written.\n` +
      'Fix: run `npm pack` in a keel checkout and pass the path of the .tgz it writes (--keel ./keel-0.1.0.tgz).',
  },

  directoryNotEmpty: {
    code: 'E_DIRECTORY_NOT_EMPTY',
    exitCode: REFUSED,
    message: (directory: string) =>
      `${directory} exists and is not an empty directory; nothing was written.\n` +
      'Fix: choose another name, or move what is there out of the way.',
  },

  nameRequired: {
    code: 'E_NAME_REQUIRED',
    exitCode: USAGE,
    message: (usage: string) =>
      `make:controller needs a name, and there is no terminal to ask for one on.\nUsage: ${usage}`,
  },

  fileExists: {
    code: 'E_FILE_EXISTS',
    exitCode: REFUSED,
    message: (file: string) =>
      `${file} already exists; it was left as it is.\nFix: choose another name, or pass --force to overwrite it.`,
  },

  moduleNotFound: {
    code: 'E_MODULE_NOT_FOUND',
    exitCode: USAGE,
    message: (file: string) =>
      `the module file ${file} given with --module is not a file; nothing was written.\n` +
      `Fix: pass the file that declares the module given to createApplication, relative to --root.`,
  },

  moduleNotEdited: {
    code: 'E_MODULE_NOT_EDITED',
    exitCode: REFUSED,
    message: (failure: { written: string; module: string; reason: string; lines: readonly string[] }) =>
      `wrote ${failure.written}, but could not edit ${failure.module} (${failure.reason}); it was left as it was.\n` +
      `Fix: add these lines to the module you pass to createApplication:\n${failure.lines.join('\n')}`,
  },

  rootNotFound: {
    code: 'E_ROOT_NOT_FOUND',
    exitCode: USAGE,
    message: (root: string) =>
      `--root ${root} is not a directory; nothing was written.\n` +
      'Fix: pass the directory of the project, the one that holds its src/ (or leave --root out inside it).',
  },

  needsApplication: {
    code: 'E_NEEDS_APPLICATION',
    exitCode: USAGE,
    message: (command: string) =>
      `${command} needs the booted application, which the framework program alone does not have.\n` +
      `Fix: run it through the application's entry point, which hands process.argv to app.run(): node dist/main.js ${command}`,
  },

  noJobsModule: {
    code: 'E_NO_JOBS_MODULE',
    exitCode: REFUSED,
    message: (command: string) =>
      `${command} shows the application's jobs, and the application imports no JobsModule.forRoot().\n` +
      "Fix: add JobsModule.forRoot() to the root module's imports.",
  },

  devNoEntry: {
    code: 'E_DEV_NO_ENTRY',
    exitCode: USAGE,
    message: (root: string) =>
      `framework dev serves a project whose entry point is src/main.ts, and ${root} has none.\n` +
      'Fix: run it in a project made by `framework new` (or pass its directory with --root).',
  },

  devCompilerMissing: {
    code: 'E_DEV_COMPILER_MISSING',
    exitCode: REFUSED,
    message: (version: string) =>
      "framework dev compiles with the project's own @swc/core, and the project has none installed.\n" +
      `Fix: npm install --save-dev @swc/core@${version}`,
  },

  commandFailed: {
    code: 'E_COMMAND_FAILED',
    exitCode: REFUSED,
    message: (command: string, reason: string) => `${command} failed: ${reason}`,
  },
});
