import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { ValidationError } from 'class-validator';
import { ConfigErrors } from '../errors/config-errors';
import { getPropertyType } from '../metadata/reflection';
import type { ConfigFailure } from '../errors/config-errors';

/** A configuration class: its properties are the variables, their initialisers the defaults. */
export type ConfigSchema<T extends object = object> = new () => T;

/** Where {@link loadConfig} reads values from besides the environment. */
export interface ConfigSources {
  /** A dotenv file, read where it exists; relative to the working directory. Default: `.env`. */
  envFile?: string;
  /** The environment, which wins over the file. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Builds `schema` from the environment and the `.env` file (the environment wins), converting each
 * variable to the property's declared number or boolean type and validating the whole with
 * class-validator. Returns the frozen instance; throws `E_INVALID_CONFIG` listing every failing
 * variable and its rules, never a value.
 *
 * @example
 * const env = loadConfig(Env); // env.PORT is a number
 */
export function loadConfig<T extends object>(schema: ConfigSchema<T>, sources: ConfigSources = {}): T {
  // Loaded when configuration is first read: an application without it starts without them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
  const validator = require('class-validator') as typeof import('class-validator');
  const values = { ...readEnvFile(sources.envFile ?? '.env'), ...(sources.env ?? process.env) };
  const config = new schema();
  const target = config as Record<string, unknown>;
  for (const variable of variablesOf(schema, config, validator)) {
    const raw = values[variable];
    if (raw !== undefined) target[variable] = convert(raw, declaredType(schema, variable, target[variable]));
  }
  const errors = validator.validateSync(config, { validationError: { target: false, value: false } });
  if (errors.length > 0) throw ConfigErrors.invalidConfig(schema.name, errors.map(toFailure));
  return Object.freeze(config);
}

function readEnvFile(file: string): NodeJS.Dict<string> {
  const location = path.resolve(file);
  let content: string;
  try {
    content = readFileSync(location, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw ConfigErrors.unreadableEnvFile(location, error);
  }
  return parseEnv(content);
}

// The variables are the properties class-validator checks and those with a default.
function variablesOf(
  schema: ConfigSchema,
  config: object,
  validator: typeof import('class-validator'),
): Set<string> {
  const rules = validator.getMetadataStorage().getTargetValidationMetadatas(schema, '', false, false);
  return new Set([...rules.map((rule) => rule.propertyName), ...Object.keys(config)]);
}

// The annotation's type, else the default's: compilers emit no useful type for `PORT = 8080`.
function declaredType(schema: ConfigSchema, variable: string, fallback: unknown): unknown {
  const type = getPropertyType(schema.prototype, variable);
  if (type === Number || type === Boolean) return type;
  if (typeof fallback === 'number') return Number;
  return typeof fallback === 'boolean' ? Boolean : type;
}

// A value that does not convert stays a string, so that the rule on the property reports it.
function convert(raw: string, type: unknown): unknown {
  if (type === Number) return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  if (type === Boolean) return BOOLEANS.get(raw.trim().toLowerCase()) ?? raw;
  return raw;
}

const BOOLEANS = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

function toFailure(error: ValidationError): ConfigFailure {
  return { variable: error.property, rules: Object.values(error.constraints ?? {}) };
}
