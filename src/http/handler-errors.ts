import { FrameworkError } from '../framework-error';

/** The errors of handlers while they answer: one builder per code, so each message is written once. */
export const HandlerErrors = {
  noResponse(route: string) {
    return new FrameworkError(
      'E_NO_RESPONSE',
      `${route} finished without sending a response or returning a value.\n` +
        `Fix: call ctx.json/html/redirect/error, return a value, or take over ctx.res.`,
    );
  },

  alreadyResponded(route: string) {
    return new FrameworkError(
      'E_ALREADY_RESPONDED',
      `${route} tried to answer a request that was already answered; the second answer was dropped.\n` +
        `Fix: answer once, and await (or return) any promise that answers.`,
    );
  },

  templateOutsideViews(name: string, views: string) {
    return new FrameworkError(
      'E_TEMPLATE_OUTSIDE_VIEWS',
      `template "${name}" resolves outside the views directory ${views}; it was not read.`,
    );
  },

  noSession(route: string) {
    return new FrameworkError(
      'E_NO_SESSION',
      `${route} uses the session, but the application has none.\n` +
        `Fix: import SessionModule.forRoot({ secret: () => process.env.SESSION_SECRET }) in the root module.`,
    );
  },

  unknownParam(route: string, name: string) {
    return new FrameworkError(
      'E_UNKNOWN_PARAM',
      `${route} reads the path parameter "${name}", which its path does not declare.\n` +
        `Fix: read one of the path's :parameters, or add :${name} to the path.`,
    );
  },

  invalidRoute(source: string, reason: string) {
    return new FrameworkError('E_INVALID_ROUTE', `${source}: ${reason}`);
  },
};
