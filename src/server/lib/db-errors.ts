import pg from 'pg';

/** The PostgreSQL error behind a failed query (Drizzle wraps it as `cause`), or null. */
export function pgError(error: unknown): pg.DatabaseError | null {
  if (error instanceof pg.DatabaseError) return error;
  if (error instanceof Error && error.cause instanceof pg.DatabaseError) return error.cause;
  return null;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** `%`, `_` and `\\` typed into a search box are literal characters in a LIKE pattern, not wildcards. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern: contains `text`. */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;
