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

/** What an image upload is refused with (docs/decisions/020); the upload control shows the message. */
export const IMAGE_MESSAGES = {
  notAnImage: 'This file is not an image we can read. Upload a JPEG, PNG, WebP or AVIF file',
  heic: 'HEIC photos cannot be read here. Export the photo as JPEG (or set the camera to "Most Compatible") and upload that',
  unreadable: 'This image is damaged or incomplete and could not be read',
  tooManyPixels: 'This image has too many pixels (more than 64 megapixels). Upload a smaller one',
  tooLarge: 'This file is larger than 10 MB. Upload a smaller one',
  tooSmall: 'This image is too small: it must be at least 16 pixels wide and high',
  noFile: 'Choose an image file to upload',
  wrongField: 'Send the image in a form field named "file"',
  oneFile: 'Send one image at a time',
  uploadHeader: 'Uploads must come from the Super Mall page (the X-Mall-Upload header is missing)',
} as const;
