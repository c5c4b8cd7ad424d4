import { defineErrors } from './error-entry';

/**
 * The errors of handlers while they answer: one entry per code, so each message is written once.
 *
 * @example
 * HandlerErrors.noResponse.code; // 'E_NO_RESPONSE'
 */
export const HandlerErrors = defineErrors({
  noResponse: {
    code: 'E_NO_RESPONSE',
    message: (route: string) =>
      `${route} finished without sending a response or returning a value.\n` +
      `Fix: call ctx.json/html/redirect/error, return a value, or take over ctx.res.`,
  },

  alreadyResponded: {
    code: 'E_ALREADY_RESPONDED',
    message: (route: string) =>
      `${route} tried to answer a request that was already answered; the second answer was dropped.\n` +
      `Fix: answer once, and await (or return) any promise that answers.`,
  },

  templateOutsideViews: {
    code: 'E_TEMPLATE_OUTSIDE_VIEWS',
    message: (name: string, views: string) =>
      `template "${name}" resolves outside the views directory ${views}; it was not read.`,
  },

  noSession: {
    code: 'E_NO_SESSION',
    message: (route: string) =>
      `${route} uses the session, but the application has none.\n` +
      `Fix: import SessionModule.forRoot({ secret: () => process.env.SESSION_SECRET }) in the root module.`,
  },

  noCookieSecret: {
    code: 'E_NO_COOKIE_SECRET',
    message: (route: string, cookie: string) =>
      `${route} signs or verifies the cookie "${cookie}", but the application has no key to do it with.\n` +
      `Fix: give createApplication the option cookieSecrets (or import SessionModule, whose secret then signs).`,
  },

  invalidCookie: {
    code: 'E_INVALID_COOKIE',
    message: (route: string, cookie: string, reason: string) =>
      `${route} cannot set the cookie ${JSON.stringify(cookie)}: ${reason}.`,
  },
});
