import { defineErrors } from './error-entry';

/**
 * The errors of authentication and authorization: one entry per code.
 *
 * @example
 * AuthErrors.unauthenticated.code; // 'E_UNAUTHENTICATED'
 */
export const AuthErrors = defineErrors({
  // The reason stays in the log: the client learns only which scheme to use.
  unauthenticated: {
    code: 'E_UNAUTHENTICATED',
    status: 401,
    message: (_challenge: string) => 'unauthenticated',
    extras: (challenge: string) => ({ headers: { 'WWW-Authenticate': challenge } }),
  },

  // `@Can(..., { from })` found no record to ask the policy about.
  recordNotFound: {
    code: 'E_RECORD_NOT_FOUND',
    status: 404,
    message: () => 'not found',
  },

  invalidStrategy: {
    code: 'E_INVALID_AUTH_STRATEGY',
    message: (strategy: string, problem: string) =>
      `${strategy}(): ${problem}.\nFix: see the options of ${strategy}() in the authentication reference.`,
  },

  unknownStrategy: {
    code: 'E_UNKNOWN_AUTH_STRATEGY',
    message: (where: string, name: string, known: readonly string[]) =>
      `${where} names the strategy '${name}', which AuthModule.forRoot's strategies do not have (${known.join(', ') || 'none'}).\n` +
      `Fix: name one of them, or add '${name}' to strategies.`,
  },

  noAuthModule: {
    code: 'E_NO_AUTH_MODULE',
    message: (route: string) =>
      `${route} uses @Authenticated or @Can, but the application imports no AuthModule.\n` +
      `Fix: import AuthModule.forRoot({ default, strategies, user }) in the root module.`,
  },

  canWithoutUser: {
    code: 'E_CAN_WITHOUT_USER',
    message: (route: string) =>
      `${route} has @Can, but no strategy authenticates it (it is @Public(), or there is no default strategy).\n` +
      `Fix: add @Authenticated(...) to it, or remove @Public().`,
  },

  noPolicy: {
    code: 'E_NO_POLICY',
    message: (entity: string, action: string) =>
      `No policy answers '${action}' for ${entity}.\n` +
      `Fix: list a class marked @Policy(${entity}) with a method ${action}(user, record) in a module's providers.`,
  },

  authNeedsDatabase: {
    code: 'E_AUTH_NEEDS_DATABASE',
    message: (strategy: string, problem: string) =>
      `The ${strategy} strategy keeps its table in the application's PostgreSQL database, but ${problem}.\n` +
      `Fix: import DatabaseModule.forRoot({ type: 'postgres', ..., migrations: [AuthTables1764547200000, ...] }).`,
  },

  noStrategyOfKind: {
    code: 'E_NO_AUTH_STRATEGY',
    message: (call: string, factory: string) =>
      `${call} needs a ${factory} strategy, and AuthModule.forRoot's strategies have none.\n` +
      `Fix: add one, such as strategies: { ${factory === 'session()' ? 'session: session()' : 'token: apiTokens()'} }.`,
  },

  cannotSign: {
    code: 'E_JWT_CANNOT_SIGN',
    message: () =>
      `jwt().sign needs a secret or a privateKey, and this strategy verifies with a public key or a JWKS only.\n` +
      `Fix: give jwt() the privateKey that matches its publicKey, or sign where the private keys are.`,
  },

  invalidTokenOptions: {
    code: 'E_INVALID_TOKEN_OPTIONS',
    message: (wanted: string) => `auth.tokens.issue needs ${wanted}.`,
  },
});
