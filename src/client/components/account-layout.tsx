import { lazy } from 'react';
import { useAuth } from '../lib/auth';

const AdminLayout = lazy(async () => ({ default: (await import('./admin-layout')).AdminLayout }));
const UserLayout = lazy(async () => ({ default: (await import('./user-layout')).UserLayout }));

/**
 * The account page is everyone's: it opens inside the layout of the person's own area (the admin's
 * sidebar, the shopper's top navigation), so it looks like a page of the app they were using.
 */
export function AccountLayout() {
  const { user } = useAuth();
  return user?.role === 'admin' ? <AdminLayout /> : <UserLayout />;
}
