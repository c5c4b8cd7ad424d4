import { FrameworkError } from '../framework-error';

/** The errors of controllers and routes: one builder per code, so each message is written once. */
export const RoutingErrors = {
  routeConflict(method: string, path: string, first: string, second: string) {
    return new FrameworkError(
      'E_ROUTE_CONFLICT',
      `${method} ${path} is declared twice: by ${first} and by ${second}.\n` +
        `Fix: change the path or the method of one of them.`,
    );
  },

  missingAction(controller: string, kind: string, path: string, action: string, route: string) {
    return new FrameworkError(
      'E_MISSING_ACTION',
      `${controller} is registered as ${kind} at ${path} but has no method "${action}" (${route}).\n` +
        `Fix: add the method ${action}(ctx) to ${controller}, or leave the action out with { except: ['${action}'] }.`,
    );
  },

  unknownAction(controller: string, action: string, known: readonly string[]) {
    return new FrameworkError(
      'E_UNKNOWN_ACTION',
      `${controller} names the action "${action}" in only/except, which is not a resource action.\n` +
        `Fix: use one of ${known.join(', ')}.`,
    );
  },

  routeNameConflict(name: string, first: string, second: string) {
    return new FrameworkError(
      'E_ROUTE_NAME_CONFLICT',
      `the route name "${name}" is given to two paths: by ${first} and by ${second}.\n` +
        `Fix: give one of them another { name }.`,
    );
  },

  unknownRouteName(name: string, known: readonly string[]) {
    const some = known.slice(0, 12).join(', ');
    return new FrameworkError(
      'E_UNKNOWN_ROUTE_NAME',
      `no route is named "${name}".\nFix: use one of the names \`framework routes\` lists (${some}${known.length > 12 ? ', ...' : ''}).`,
    );
  },

  missingRouteParam(name: string, path: string, param: string) {
    return new FrameworkError(
      'E_MISSING_ROUTE_PARAM',
      `the route "${name}" (${path}) needs the parameter "${param}".\nFix: pass { ${param}: ... } to urlFor.`,
    );
  },
};
