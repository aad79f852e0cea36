import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../shared/roles';
import { useAuth } from '../lib/auth';
import { FullPageSpinner } from './spinner';

/** Renders its children (or the nested routes) only for a signed-in person of `role`. */
export function RequireRole({ role, children }: { role: Role; children?: ReactNode }) {
  const { user, ready, loggedOut } = useAuth();
  const location = useLocation();
  if (!ready) return <FullPageSpinner />;
  // after a logout there is nothing to come back to; signing in again starts at the dashboard
  if (!user) return <Navigate to="/login" state={loggedOut ? null : { from: location }} replace />;
  if (user.role !== role) return <Navigate to="/unauthorized" replace />;
  return children ?? <Outlet />;
}
