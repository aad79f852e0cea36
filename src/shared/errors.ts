/** The one JSON body of every failed API request. Made only by the server's error handler. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    /** Field name → the same message the form shows under that field. */
    fields?: Record<string, string>;
  };
}

/** The authentication error catalogue (spec §8), word for word. */
export const AUTH_MESSAGES = {
  emailInUse: 'Email already registered',
  invalidEmail: 'Invalid email address',
  weakPassword: 'Password must be 6+ characters',
  userNotFound: 'Email not found',
  wrongPassword: 'Incorrect password',
  locked: 'Account temporarily locked. Try again later',
  other: 'Authentication failed',
  logoutFailed: 'Logout failed. Please try again.',
} as const;

/** Our own messages, for what the original product did not have (product-decisions.md §2). */
export const INVITE_MESSAGES = {
  required: 'An admin invite code is required to create an Admin account',
  invalid: 'This admin invite code is not valid or has expired',
} as const;

/**
 * A refused change to a shop, its products or offers by someone who is not (or no longer) one of its
 * managers: says who can, so a manager who was removed knows why their save failed.
 */
export const NOT_YOUR_SHOP = "Only the mall office and this shop's managers can change it";
export const DIRECTORY_FIELDS_REFUSED = "Only the mall's admins can change a shop's name, category or floor";
