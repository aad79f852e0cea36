import './zod-config';
import { z } from 'zod';
import { AUTH_MESSAGES } from './errors';
import { ROLES } from './roles';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const INVITE_CODE_MAX_LENGTH = 64;

/** Emails are compared case-insensitively; we store them trimmed and lower-cased. */
export const EmailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX_LENGTH, AUTH_MESSAGES.invalidEmail)
  .pipe(z.email(AUTH_MESSAGES.invalidEmail))
  .transform((email) => email.toLowerCase());

export const LoginInput = z.strictObject({
  email: EmailField,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type LoginInput = z.input<typeof LoginInput>;

export const RegisterInput = z.strictObject({
  email: EmailField,
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.weakPassword)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  role: z.enum(ROLES, { error: 'Choose User or Admin' }).default('user'),
  /** Needed only when role is admin (product-decisions.md §2). */
  inviteCode: z.string().trim().max(INVITE_CODE_MAX_LENGTH).optional(),
});
export type RegisterInput = z.input<typeof RegisterInput>;

/** The signed-in person as the API returns it (spec §3 users, plus displayName). */
export const SessionUser = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  displayName: z.string().nullable(),
  createdAt: z.string(),
  lastLogin: z.string().nullable(),
  /** The shops this person manages (a shop manager: a user account with memberships). */
  managedShopIds: z.array(z.string()),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const MeResponse = z.object({ user: SessionUser.nullable() });
export const UserResponse = z.object({ user: SessionUser });

/** An open admin invite. The code itself is returned once, when it is created; the list shows its hint. */
export const AdminInvite = z.object({
  id: z.string(),
  codeHint: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type AdminInvite = z.infer<typeof AdminInvite>;
export const CreatedAdminInvite = AdminInvite.extend({ code: z.string() });
export type CreatedAdminInvite = z.infer<typeof CreatedAdminInvite>;

export const AdminStats = z.object({
  shops: z.number().int(),
  products: z.number().int(),
  offers: z.number().int(),
  activeOffers: z.number().int(),
});
export type AdminStats = z.infer<typeof AdminStats>;
