import { FrameworkError } from './framework-error';

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
