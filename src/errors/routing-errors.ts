import { defineErrors } from './error-entry';

/**
 * The errors of controllers and routes, most raised at boot: one entry per code, so each message is written once.
 *
 * @example
 * RoutingErrors.routeConflict.code; // 'E_ROUTE_CONFLICT'
 */
export const RoutingErrors = defineErrors({
  routeConflict: {
    code: 'E_ROUTE_CONFLICT',
    message: (method: string, path: string, first: string, second: string) =>
      `${method} ${path} is declared twice: by ${first} and by ${second}.\n` +
      `Fix: change the path or the method of one of them.`,
  },

  missingAction: {
    code: 'E_MISSING_ACTION',
    message: (controller: string, kind: string, path: string, action: string, route: string) =>
      `${controller} is registered as ${kind} at ${path} but has no method "${action}" (${route}).\n` +
      `Fix: add the method ${action}(ctx) to ${controller}, or leave the action out with { except: ['${action}'] }.`,
  },

  unknownAction: {
    code: 'E_UNKNOWN_ACTION',
    message: (controller: string, action: string, known: readonly string[]) =>
      `${controller} names the action "${action}" in only/except, which is not a resource action.\n` +
      `Fix: use one of ${known.join(', ')}.`,
  },

  routeNameConflict: {
    code: 'E_ROUTE_NAME_CONFLICT',
    message: (name: string, first: string, second: string) =>
      `the route name "${name}" is given to two paths: by ${first} and by ${second}.\n` +
      `Fix: give one of them another { name }.`,
  },

  unknownRouteName: {
    code: 'E_UNKNOWN_ROUTE_NAME',
    message: (name: string, known: readonly string[]) =>
      `no route is named "${name}".\nFix: use one of the names \`framework routes\` lists (${known.slice(0, 12).join(', ')}${known.length > 12 ? ', ...' : ''}).`,
  },

  missingRouteParam: {
    code: 'E_MISSING_ROUTE_PARAM',
    message: (name: string, path: string, param: string) =>
      `the route "${name}" (${path}) needs the parameter "${param}".\nFix: pass { ${param}: ... } to urlFor.`,
  },

  unknownParam: {
    code: 'E_UNKNOWN_PARAM',
    message: (route: string, name: string) =>
      `${route} reads the path parameter "${name}", which its path does not declare.\n` +
      `Fix: read one of the path's :parameters, or add :${name} to the path.`,
  },

  invalidRoute: {
    code: 'E_INVALID_ROUTE',
    message: (source: string, reason: string) => `${source}: ${reason}`,
  },

  invalidHttpCode: {
    code: 'E_INVALID_HTTP_CODE',
    message: (status: unknown) =>
      `@HttpCode(${String(status)}) names no success status.\n` +
      `Fix: give an integer from 200 to 299 (an error answer is thrown as an HttpError).`,
  },
});
