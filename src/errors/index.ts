export { CliError } from './cli-error';
export { describeValue, messageOf, tokenName } from './describe-value';
export { defineErrors, type ErrorBuilder, type ErrorEntry, type ErrorExtras } from './error-entry';
export { FrameworkError } from './framework-error';
export { HttpError, type FieldErrors, type HttpErrorOptions } from './http-error';
export { ERROR_GROUPS, Errors, type FrameworkErrorCode } from './registry';
