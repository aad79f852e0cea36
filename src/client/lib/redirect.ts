import { dashboardPath, type Role } from '../../shared/roles';

/**
 * Where to go after signing in: back to the page the guard stopped (`from`, a location or a path)
 * when the role may see it, i.e. it lies under `/{role}/`; otherwise the role's dashboard.
 */
export function safeRedirect(from: unknown, role: Role): string {
  const target = toPath(from);
  if (target === null) return dashboardPath(role);
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  const allowed =
    pathname.startsWith(`/${role}/`) &&
    pathname.length > role.length + 2 &&
    // no dot segments, backslashes or doubled slashes that a browser could resolve elsewhere.
    !pathname.includes('\\') &&
    !pathname.includes('//') &&
    !pathname.split('/').some((segment) => segment === '.' || segment === '..');
  return allowed ? target : dashboardPath(role);
}

function toPath(from: unknown): string | null {
  if (typeof from === 'string') return from;
  if (typeof from !== 'object' || from === null || !('pathname' in from)) return null;
  const { pathname } = from;
  if (typeof pathname !== 'string') return null;
  const search = 'search' in from && typeof from.search === 'string' ? from.search : '';
  const hash = 'hash' in from && typeof from.hash === 'string' ? from.hash : '';
  return `${pathname}${search}${hash}`;
}
