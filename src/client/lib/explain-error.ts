import { createContext, use } from 'react';
import { errorMessage } from './api';

/**
 * How an area words a failed write for its people: the message under a form and in a toast. The shop
 * managers' area adds what a refusal most likely means there (the mall office removed them).
 */
export const ExplainError = createContext<(error: unknown) => string>(errorMessage);

export function useExplainError(): (error: unknown) => string {
  return use(ExplainError);
}
