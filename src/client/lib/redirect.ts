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

/**
 * The `next` query parameter of /login and /register (an invitation link sends people back to itself):
 * a path on this site only. Anything that a browser could take elsewhere — another origin (`//host`,
 * `/\\host`), a scheme (`https:`, `javascript:`), dot segments, control characters — gives null.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > 512) return null;
  if (!next.startsWith('/') || next.startsWith('//')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return null;
  const pathname = next.split(/[?#]/, 1)[0] ?? '';
  if (pathname.includes('//') || pathname.split('/').some((s) => s === '.' || s === '..')) return null;
  return next;
}

/** `/login?next=…` when there is somewhere to come back to. */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?${new URLSearchParams({ next })}` : path;
}
