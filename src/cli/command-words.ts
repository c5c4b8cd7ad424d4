const HELP_WORDS = ['help', '--help', '-h'];

/**
 * Whether `word`, the first argument after the script, is for the CLI rather than the server: a
 * command, a help word, or any other word that is not an option (which the CLI reports as unknown).
 *
 * @example
 * isCliCommand(process.argv[2]); // true for `routes` and `make:contoller`; false for none or `--verbose`
 */
export function isCliCommand(word: string | undefined): boolean {
  return word !== undefined && (!word.startsWith('-') || HELP_WORDS.includes(word));
}
