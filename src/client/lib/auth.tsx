import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
// why: type-only imports keep zod out of the landing page's bundle.
import type { LoginInput, RegisterInput, SessionUser } from '../../shared/auth';
import { AUTH_MESSAGES } from '../../shared/errors';
import { FullPageSpinner } from '../components/spinner';
import { ApiError, api, onUnauthenticated } from './api';

interface AuthContextValue {
  user: SessionUser | null;
  login(input: LoginInput): Promise<SessionUser>;
  register(input: RegisterInput): Promise<SessionUser>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

interface AuthProviderProps {
  children: ReactNode;
  /** Takes the person to the sign-in screen after logout; runs before the user is cleared. */
  onSignedOut: () => Promise<void> | void;
}

export function AuthProvider({ children, onSignedOut }: AuthProviderProps) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<SessionUser | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    api<{ user: SessionUser | null }>('/api/auth/me')
      .then(
        (body) => {
          if (!cancelled) setUser(body.user);
        },
        // why: if the server cannot say who we are, the visitor is treated as signed out.
        () => undefined,
      )
      .finally(() => {
        if (!cancelled) setReady(true);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(
    () =>
      onUnauthenticated(() => {
        setUser(null);
        queryClient.clear();
      }),
    [queryClient],
  );

  const login = useCallback(async (input: LoginInput) => {
    const body = await api<{ user: SessionUser }>('/api/auth/login', { method: 'POST', body: input });
    setUser(body.user);
    return body.user;
  }, []);

  const register = useCallback(async (input: RegisterInput) => {
    const body = await api<{ user: SessionUser }>('/api/auth/register', { method: 'POST', body: input });
    setUser(body.user);
    return body.user;
  }, []);

  const logout = useCallback(async () => {
    try {
      await api('/api/auth/logout', { method: 'POST' });
    } catch (error) {
      // why: a 401 means the session is already gone, which is what logging out wants.
      if (!(error instanceof ApiError && error.status === 401)) {
        toast.error(AUTH_MESSAGES.logoutFailed);
        return;
      }
    }
    // why: leave the guarded page first, so its guard does not redirect to /login with a `from`.
    await onSignedOut();
    setUser(null);
    queryClient.clear();
  }, [onSignedOut, queryClient]);

  const value = useMemo(() => ({ user, login, register, logout }), [user, login, register, logout]);

  if (!ready) return <FullPageSpinner />;
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
