import { FrameworkError, messageOf } from '../framework-error';

/** One variable that failed its rules; never its value, which may be a secret. */
export interface ConfigFailure {
  readonly variable: string;
  readonly rules: readonly string[];
}

/** The errors of configuration: one builder per code, so each message is written once. */
export const ConfigErrors = {
  invalidConfig(schema: string, failures: readonly ConfigFailure[]) {
    const lines = failures.map(({ variable, rules }) => `  ${variable}: ${rules.join('; ')}`);
    return new FrameworkError(
      'E_INVALID_CONFIG',
      `the configuration ${schema} is invalid (${failures.length} variable${failures.length === 1 ? '' : 's'}):\n` +
        `${lines.join('\n')}\n` +
        `Fix: set these variables in the environment or in the .env file.`,
    );
  },

  unreadableEnvFile(file: string, cause: unknown) {
    return new FrameworkError(
      'E_UNREADABLE_ENV_FILE',
      `cannot read the configuration file ${file}.\nReason: ${messageOf(cause)}\n` +
        `Fix: make it a readable file, or remove it (a missing file is fine).`,
      { cause },
    );
  },
};
