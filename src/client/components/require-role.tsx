import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { Role } from '../../shared/roles';
import { useAuth } from '../lib/auth';

/** Renders its children (or the nested routes) only for a signed-in person of `role`. */
export function RequireRole({ role, children }: { role: Role; children?: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  if (!user) return <Navigate to="/login" state={{ from: location }} replace />;
  if (user.role !== role) return <Navigate to="/unauthorized" replace />;
  return children ?? <Outlet />;
}
