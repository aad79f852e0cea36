// One body for every error, and every error a route can give declared on it (docs/decisions/032): the
// error handler, the errors any route can give added to each route's schema (errors.ts
// `declareCommonErrors`), and in the API tests the check that no answer's status is left undeclared.
import fp from 'fastify-plugin';
import {
  checkDeclaredStatuses,
  declareCommonErrors,
  registerErrorHandler,
  type UndeclaredStatus,
} from '../errors';

export interface ErrorAnswersOptions {
  /** Tests only (the API harness): told of every answer whose status its route's schema does not declare. */
  onUndeclaredStatus?: (undeclared: UndeclaredStatus) => void;
}

/** On the root instance, before any route: a route takes the error handler set when it is registered. */
export const errorAnswersPlugin = fp<ErrorAnswersOptions>(
  async (app, { onUndeclaredStatus }) => {
    registerErrorHandler(app);
    // The errors any route can give, declared on each (its own ones it declares itself: errors.ts).
    app.addHook('onRoute', (route) => {
      declareCommonErrors(route);
    });
    if (onUndeclaredStatus) checkDeclaredStatuses(app, onUndeclaredStatus);
  },
  { name: 'error-answers' },
);
