import {
  createContext,
  type ReactNode,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
} from 'react';
// type-only imports keep zod out of the landing page's bundle.
import type { LoginInput, RegisterInput, SessionUser } from '../../shared/auth';
import { AUTH_MESSAGES } from '../../shared/errors';
import { ApiError, api, onUnauthenticated } from './api';

interface AuthContextValue {
  user: SessionUser | null;
  /** False until the server has said who is signed in (`user` is null meanwhile). */
  ready: boolean;
  /** True after this tab logged out (until the next sign-in): no page should be remembered to return to. */
  loggedOut: boolean;
  login(input: LoginInput): Promise<SessionUser>;
  register(input: RegisterInput): Promise<SessionUser>;
  /**
   * Ends the session and goes to the sign-in screen; `everywhere` ends every session of the person
   * (every device and browser, this one included).
   */
  logout(options?: { everywhere?: boolean }): Promise<void>;
  /** The person as the server answered a change to their account (a new display name). */
  updateUser(user: SessionUser): void;
  /** Reads the session again (a membership was added or removed): the user as the server now sees them. */
  refresh(): Promise<SessionUser | null>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

// loaded on demand, so react-query and sonner stay out of the landing page's JavaScript. Only the
// signed-in areas load the query cache, and they have loaded it by the time anything here clears it.
async function clearQueryCache(): Promise<void> {
  const { queryClient } = await import('./query-client');
  queryClient.clear();
}

function showError(message: string): void {
  void import('sonner').then(({ toast }) => toast.error(message));
}

interface AuthProviderProps {
  children: ReactNode;
  /** Takes the person to the sign-in screen after logout; runs before the user is cleared. */
  onSignedOut: () => Promise<void> | void;
}

/** The session as the page's first read found it (`readSessionAtStart`); undefined until it answers. */
let sessionAtStart: { user: SessionUser | null } | undefined;
let sessionRead: Promise<{ user: SessionUser | null }> | undefined;

/**
 * Who is signed in, read once when the app starts (index.html preloads the answer): main.tsx waits for
 * it before the first render, so the page's chunks and reads start at once, and the provider below
 * starts with it instead of asking again. A failure means signed out.
 */
export function readSessionAtStart(): Promise<{ user: SessionUser | null }> {
  sessionRead ??= api<{ user: SessionUser | null }>('/api/auth/me')
    .catch(() => ({ user: null }))
    .then((answer) => {
      sessionAtStart = answer;
      return answer;
    });
  return sessionRead;
}

export function AuthProvider({ children, onSignedOut }: AuthProviderProps) {
  const [user, setUser] = useState<SessionUser | null>(() => sessionAtStart?.user ?? null);
  const [ready, setReady] = useState(() => sessionAtStart !== undefined);
  const [loggedOut, setLoggedOut] = useState(false);

  useEffect(() => {
    if (sessionAtStart !== undefined) return;
    let cancelled = false;
    readSessionAtStart()
      .then(
        (body) => {
          // a sign-in that finished first is newer than this answer.
          if (!cancelled) startTransition(() => setUser((current) => current ?? body.user));
        },
        // if the server cannot say who we are, the visitor is treated as signed out.
        () => undefined,
      )
      .finally(() => {
        // A transition: on a page drawn by the server (the only one that starts without the session) the
        // whole page re-renders with it, and React then does so in slices rather than one long task.
        if (!cancelled) startTransition(() => setReady(true));
      });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(
    () =>
      onUnauthenticated(() => {
        setUser(null);
        void clearQueryCache();
      }),
    [],
  );

  const login = useCallback(async (input: LoginInput) => {
    const body = await api<{ user: SessionUser }>('/api/auth/login', { method: 'POST', body: input });
    setUser(body.user);
    setLoggedOut(false);
    return body.user;
  }, []);

  const register = useCallback(async (input: RegisterInput) => {
    const body = await api<{ user: SessionUser }>('/api/auth/register', { method: 'POST', body: input });
    setUser(body.user);
    setLoggedOut(false);
    return body.user;
  }, []);

  const logout = useCallback(
    async ({ everywhere = false }: { everywhere?: boolean } = {}) => {
      try {
        await api(everywhere ? '/api/account/sign-out-everywhere' : '/api/auth/logout', { method: 'POST' });
      } catch (error) {
        // a 401 means the session is already gone, which is what logging out wants.
        if (!(error instanceof ApiError && error.status === 401)) {
          showError(AUTH_MESSAGES.logoutFailed);
          return;
        }
      }
      // leave the guarded page first, so its guard does not redirect to /login with a `from`.
      await onSignedOut();
      // navigations render as transitions; clearing the user in one too renders both together. Should
      // the guard still see the page being left without a user, `loggedOut` keeps it from adding a `from`.
      startTransition(() => {
        setLoggedOut(true);
        setUser(null);
      });
      await clearQueryCache();
    },
    [onSignedOut],
  );

  const updateUser = useCallback((next: SessionUser) => setUser(next), []);

  const refresh = useCallback(async () => {
    const body = await api<{ user: SessionUser | null }>('/api/auth/me');
    setUser(body.user);
    return body.user;
  }, []);

  const value = useMemo(
    () => ({ user, ready, loggedOut, login, register, logout, updateUser, refresh }),
    [user, ready, loggedOut, login, register, logout, updateUser, refresh],
  );

  // screens render at once, not after the session request: the landing page and the sign-in
  // screens do not depend on it; the guards (RequireRole) wait for `ready`.
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const context = use(AuthContext);
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>');
  return context;
}

export function displayName(user: SessionUser): string {
  return user.displayName?.trim() || user.email;
}
