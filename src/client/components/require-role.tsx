import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { NOT_YOUR_SHOP } from '../../shared/errors';
import type { Role } from '../../shared/roles';
import { ApiError, errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { ExplainError } from '../lib/explain-error';
import type { GuardHandle } from '../lib/lazy-route';
import { FullPageSpinner } from './spinner';

/** The handle of a RequireRole route (lib/lazy-route.tsx's GuardHandle): the same rule, for preloading. */
export function admitsRole(role: Role): GuardHandle {
  return { admits: (user) => user?.role === role };
}

/** The handle of a route for every signed-in person (the account page). */
export const admitsSignedIn: GuardHandle = { admits: (user) => user !== null };

/** The handle of the RequireManager route. */
export const admitsManager: GuardHandle = {
  admits: (user) => user !== null && user.managedShopIds.length > 0,
};

/** Renders its children (or the nested routes) only for a signed-in person of `role` (any role without one). */
export function RequireRole({ role, children }: { role?: Role; children?: ReactNode }) {
  const { user, ready, loggedOut } = useAuth();
  const location = useLocation();
  if (!ready) return <FullPageSpinner />;
  // after a logout there is nothing to come back to; signing in again starts at the dashboard
  if (!user) return <Navigate to="/login" state={loggedOut ? null : { from: location }} replace />;
  if (role && user.role !== role) return <Navigate to="/unauthorized" replace />;
  return children ?? <Outlet />;
}

/**
 * The "My shops" area (/manage): a signed-in user account with at least one shop to manage. Inside the
 * user guard, so a visitor is sent to sign in and an admin to /unauthorized by RequireRole already.
 */
export function RequireManager() {
  const { user } = useAuth();
  if (!user || user.managedShopIds.length === 0) return <Navigate to="/unauthorized" replace />;
  return (
    <ExplainError value={explainManagerError}>
      <Outlet />
    </ExplainError>
  );
}

/** A refusal in a manager's area: most likely the mall office removed them as the shop's manager. */
export function explainManagerError(error: unknown): string {
  const message = errorMessage(error);
  if (!(error instanceof ApiError) || error.message !== NOT_YOUR_SHOP) return message;
  return `${message}. You may no longer be one of its managers: ask the mall office.`;
}
