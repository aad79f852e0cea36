export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Where a signed-in person lands: `/{role}/dashboard` (spec §2). */
export function dashboardPath(role: Role): string {
  return `/${role}/dashboard`;
}
