import type { HttpError } from '../errors';
import { HookErrors } from '../errors/hook-errors';
import type { ParamTarget, PipeTransform } from './hook-types';

// Decimal digits only: `1e3`, `0x10`, `1.5` and ` 7` are not whole numbers a client meant.
const INTEGER = /^-?\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false };

/** How an error message names a parameter: `path parameter "id"`, `query parameter "page"`. */
function describe(target: ParamTarget): string {
  const where = {
    param: 'path parameter',
    query: 'query parameter',
    form: 'form field',
    body: 'body',
    headers: 'header',
    cookies: 'cookie',
    custom: 'parameter',
  }[target.source];
  return target.name === undefined ? where : `${where} "${target.name}"`;
}

function refuse(target: ParamTarget, value: unknown, rule: string): HttpError {
  const problem = value === undefined ? 'is required' : rule;
  return HookErrors.invalidParameter(describe(target), problem);
}

/**
 * Converts a parameter to a safe integer written in decimal digits, or answers 400 naming it.
 *
 * @example
 * @Get(':id') show(@Param('id', ParseIntPipe) id: number) {}
 */
export class ParseIntPipe implements PipeTransform<unknown, number> {
  transform(value: unknown, _ctx: unknown, target: ParamTarget): number {
    const parsed = typeof value === 'string' && INTEGER.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed)) throw refuse(target, value, 'must be a whole number');
    return parsed;
  }
}

/**
 * Converts `true` or `false` to a boolean, or answers 400 naming the parameter.
 *
 * @example
 * @Get() index(@Query('archived', 'false', ParseBoolPipe) archived: boolean) {}
 */
export class ParseBoolPipe implements PipeTransform<unknown, boolean> {
  transform(value: unknown, _ctx: unknown, target: ParamTarget): boolean {
    const parsed = typeof value === 'string' ? BOOLEANS[value] : undefined;
    if (parsed === undefined) throw refuse(target, value, 'must be true or false');
    return parsed;
  }
}

/**
 * Lets a UUID through, or answers 400 naming the parameter.
 *
 * @example
 * @Get(':id') show(@Param('id', ParseUUIDPipe) id: string) {}
 */
export class ParseUUIDPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, _ctx: unknown, target: ParamTarget): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw refuse(target, value, 'must be a UUID');
    return value;
  }
}
