import './zod-config';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, RegisterInput, SessionUser } from './auth';
import { cleanLine, showsNothing } from './text';

/** The longest display name: the top bar's greeting truncates, but a name is a name, not an essay. */
export const DISPLAY_NAME_MAX_LENGTH = 60;

/** Our own texts for the account page (the spec has none); the password rules are registration's. */
export const ACCOUNT_MESSAGES = {
  displayNameTooLong: `Display name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`,
  displayNameOneLine: 'Display name must be one line',
  currentPasswordRequired: 'Current password is required',
} as const;

/**
 * The name the top bar greets a person by ('Welcome, {display name or email}', spec §2). Empty (or only
 * invisible characters) clears it: the greeting falls back to the email.
 */
export const DisplayNameInput = z.strictObject({
  displayName: z
    .string({ error: 'Give a display name, or leave it empty' })
    .pipe(
      cleanLine(
        DISPLAY_NAME_MAX_LENGTH,
        ACCOUNT_MESSAGES.displayNameTooLong,
        ACCOUNT_MESSAGES.displayNameOneLine,
      ),
    )
    .transform((value) => (showsNothing(value) ? null : value)),
});
export type DisplayNameInput = z.input<typeof DisplayNameInput>;

/**
 * A new password: the current one proves it is the person (a borrowed unlocked browser is not enough),
 * the new one follows registration's rules (at least 6 characters, at most 128).
 */
export const PasswordChangeInput = z.strictObject({
  currentPassword: z
    .string({ error: ACCOUNT_MESSAGES.currentPasswordRequired })
    .min(1, ACCOUNT_MESSAGES.currentPasswordRequired)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  newPassword: RegisterInput.shape.password,
});
export type PasswordChangeInput = z.input<typeof PasswordChangeInput>;

export const AccountResponse = z.object({ user: SessionUser });
