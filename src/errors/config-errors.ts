import { messageOf } from './describe-value';
import { defineErrors } from './error-entry';

/** One variable that failed its rules; never its value, which may be a secret. */
export interface ConfigFailure {
  readonly variable: string;
  readonly rules: readonly string[];
}

/**
 * The errors of configuration: one entry per code, so each message is written once.
 *
 * @example
 * ConfigErrors.invalidConfig.code; // 'E_INVALID_CONFIG'
 */
export const ConfigErrors = defineErrors({
  invalidConfig: {
    code: 'E_INVALID_CONFIG',
    message: (schema: string, failures: readonly ConfigFailure[]) => {
      const lines = failures.map(({ variable, rules }) => `  ${variable}: ${rules.join('; ')}`);
      return (
        `the configuration ${schema} is invalid (${failures.length} variable${failures.length === 1 ? '' : 's'}):\n` +
        `${lines.join('\n')}\n` +
        `Fix: set these variables in the environment or in the .env file.`
      );
    },
  },

  unreadableEnvFile: {
    code: 'E_UNREADABLE_ENV_FILE',
    message: (file: string, cause: unknown) =>
      `cannot read the configuration file ${file}.\nReason: ${messageOf(cause)}\n` +
      `Fix: make it a readable file, or remove it (a missing file is fine).`,
    extras: (_file: string, cause: unknown) => ({ cause }),
  },
});
