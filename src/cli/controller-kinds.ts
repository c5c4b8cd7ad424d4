/** The kinds of controller `make:controller` writes. */
export type ControllerKind = 'resource' | 'api' | 'plain';

/**
 * The kinds as data, each with what the help and the prompt say of it, the default first; each is
 * rendered from `schematics/controller/<kind>.ts.tpl`.
 *
 * @example
 * Object.keys(CONTROLLER_KINDS); // ['resource', 'api', 'plain']
 */
export const CONTROLLER_KINDS: Readonly<Record<ControllerKind, string>> = {
  resource: '@Resource: the seven actions, HTML forms included',
  api: '@ApiResource: the five actions of a JSON API',
  plain: '@Controller with one @Get()',
};
