import { FrameworkError } from '../framework-error';

// Usage mistakes exit 2, as commander's own do; a refusal (to overwrite, to edit) exits 1.
const USAGE = 2;
const REFUSED = 1;

/**
 * An error of the command-line program, with the exit code it ends the program with.
 *
 * @example
 * process.exitCode = error instanceof CliError ? error.exitCode : 1;
 */
export class CliError<Code extends string = string> extends FrameworkError<Code> {
  constructor(
    code: Code,
    readonly exitCode: number,
    message: string,
  ) {
    super(code, message);
  }
}

/** The errors of the command-line program: one builder per code, so each message is written once. */
export const CliErrors = {
  invalidName(name: string, problem: string, hint: string, what = 'a controller') {
    return new CliError(
      'E_INVALID_NAME',
      USAGE,
      `${JSON.stringify(name)} cannot name ${what}: ${problem}.\nFix: ${hint}.`,
    );
  },

  invalidProjectName(name: string, problem: string) {
    return new CliError(
      'E_INVALID_NAME',
      USAGE,
      `${JSON.stringify(name)} cannot name a project: ${problem}; nothing was written.\n` +
        'Fix: a project name is lower-case letters and digits, its words joined by -, starts with a letter ' +
        'and has at most 63 characters (my-app); a path names the project by its last segment (apps/my-app).',
    );
  },

  keelTarballMissing(spec: string) {
    return new CliError(
      'E_KEEL_TARBALL_MISSING',
      USAGE,
      `--keel ${spec} names no file; nothing was written.\n` +
        'Fix: run `npm pack` in a keel checkout and pass the path of the .tgz it writes (--keel ./keel-0.1.0.tgz).',
    );
  },

  directoryNotEmpty(directory: string) {
    return new CliError(
      'E_DIRECTORY_NOT_EMPTY',
      REFUSED,
      `${directory} exists and is not an empty directory; nothing was written.\n` +
        'Fix: choose another name, or move what is there out of the way.',
    );
  },

  nameRequired(usage: string) {
    return new CliError(
      'E_NAME_REQUIRED',
      USAGE,
      `make:controller needs a name, and there is no terminal to ask for one on.\nUsage: ${usage}`,
    );
  },

  fileExists(file: string) {
    return new CliError(
      'E_FILE_EXISTS',
      REFUSED,
      `${file} already exists; it was left as it is.\nFix: choose another name, or pass --force to overwrite it.`,
    );
  },

  moduleNotFound(file: string) {
    return new CliError(
      'E_MODULE_NOT_FOUND',
      USAGE,
      `the module file ${file} given with --module is not a file; nothing was written.\n` +
        `Fix: pass the file that declares the module given to createApplication, relative to --root.`,
    );
  },

  moduleNotEdited(failure: { written: string; module: string; reason: string; lines: readonly string[] }) {
    return new CliError(
      'E_MODULE_NOT_EDITED',
      REFUSED,
      `wrote ${failure.written}, but could not edit ${failure.module} (${failure.reason}); it was left as it was.\n` +
        `Fix: add these lines to the module you pass to createApplication:\n${failure.lines.join('\n')}`,
    );
  },

  rootNotFound(root: string) {
    return new CliError(
      'E_ROOT_NOT_FOUND',
      USAGE,
      `--root ${root} is not a directory; nothing was written.\n` +
        'Fix: pass the directory of the project, the one that holds its src/ (or leave --root out inside it).',
    );
  },

  needsApplication(command: string) {
    return new CliError(
      'E_NEEDS_APPLICATION',
      USAGE,
      `${command} needs the booted application, which the framework program alone does not have.\n` +
        `Fix: run it through the application's entry point, which hands process.argv to app.run(): node dist/main.js ${command}`,
    );
  },
};
