import { validateSchema, type SchemaBound, type StandardSchemaV1 } from '../binding/standard-schema';
import { OutputErrors } from '../errors/output-errors';
import type { PreparedHandler } from './exchange';
import type { OutputShaper } from './output-shaper';
import { isThenable } from './thenable';

/** What a route's answers are parsed with, and how the route is named when one is refused. */
export interface AnswerCheck {
  readonly schema: StandardSchemaV1;
  readonly shape: OutputShaper;
  /** The route, as the log names it: `ArticleController.show (GET /articles/:id)`. */
  readonly description: string;
}

/**
 * The handler of a route with `@Returns(schema)`: what `handler` returns (shaped first, so that
 * class instances are plain) is parsed by the schema and its output is what is sent; a value the
 * schema refuses throws `E_ANSWER_REFUSED`, a 500 whose fields go to the log only. Nothing
 * returned (the handler answered itself) is left as it is.
 *
 * @example
 * const call = parsingAnswers(handler, { schema: z.object({ id: z.number() }), shape, description });
 */
export function parsingAnswers(handler: PreparedHandler, check: AnswerCheck): PreparedHandler {
  const { schema, shape, description } = check;
  const settle = (bound: SchemaBound): unknown => {
    if (bound.fields !== undefined) throw OutputErrors.answerRefused(description, bound.fields);
    return bound.value;
  };
  const parse = (value: unknown): unknown => {
    if (value === undefined) return undefined;
    const bound = validateSchema(schema, shape(value), 'answer');
    return isThenable(bound) ? bound.then(settle) : settle(bound);
  };
  return (ctx, req) => {
    const result = handler(ctx, req);
    return isThenable(result) ? Promise.resolve(result).then(parse) : parse(result);
  };
}
