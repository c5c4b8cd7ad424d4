import { defineErrors } from './error-entry';
import type { FieldErrors } from './http-error';

/**
 * The errors of what handlers answer with: one entry per code, so each message is written once.
 *
 * @example
 * OutputErrors.answerRefused.code; // 'E_ANSWER_REFUSED'
 */
export const OutputErrors = defineErrors({
  answerRefused: {
    code: 'E_ANSWER_REFUSED',
    status: 500,
    // A 5xx: the client reads "internal server error"; the log reads why.
    message: (route: string, fields: FieldErrors) =>
      `${route} answered with a value its @Returns schema refuses: ${JSON.stringify(fields)}.\n` +
      `Fix: answer with what the schema describes, or change the schema.`,
  },

  invalidReturns: {
    code: 'E_INVALID_RETURNS',
    message: (source: string) =>
      `${source} is decorated @Returns() with something that is neither a class nor a Standard Schema.\n` +
      `Fix: pass the class the handler answers with (@Returns(ArticleView)) or a schema (@Returns(z.object({...}))).`,
  },
});
