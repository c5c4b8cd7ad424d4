import { CONTROLLER_KINDS, type ControllerKind } from './controller-kinds';
import { nameProblem } from './naming';

/** The answers `make:controller` asks for when it was given no name. */
export interface ControllerAnswers {
  readonly name: string;
  readonly kind: ControllerKind;
}

/**
 * Asks on the terminal for the controller's name, then for its kind unless `kind` is already
 * known. Only call it when stdin is a terminal: on a pipe it would wait for ever.
 *
 * @example
 * const { name, kind } = await askForController(undefined);
 */
export async function askForController(kind: ControllerKind | undefined): Promise<ControllerAnswers> {
  // ECMAScript-module only: a real import() even from this CommonJS build, and loaded only when asking.
  // The two prompts alone, not @inquirer/prompts: package.json pins them and the parts of inquirer
  // they share (core, ansi, figures) at versions that accept Node 20, which `npx` (unlike
  // `npm install`) would otherwise resolve to the newest, Node 22 and later only.
  const [{ default: input }, { default: select }] = await Promise.all([
    import('@inquirer/input'),
    import('@inquirer/select'),
  ]);
  const name = await input({
    message: 'Controller name (such as Order or OrderItem):',
    validate: (value) => {
      const problem = nameProblem(value);
      // One short line: inquirer cuts the message at the terminal's width.
      return problem ? `${problem}; try a name such as Order or OrderItem` : true;
    },
  });
  const chosen =
    kind ??
    (await select<ControllerKind>({
      message: 'Kind of controller:',
      choices: Object.entries(CONTROLLER_KINDS).map(([value, description]) => ({
        name: value,
        value: value as ControllerKind,
        description,
      })),
    }));
  return { name, kind: chosen };
}
