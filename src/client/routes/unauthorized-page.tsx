import { ShieldX } from 'lucide-react';
import { StatusPage } from '../components/status-page';

export function UnauthorizedPage() {
  return (
    <StatusPage
      icon={ShieldX}
      title="403 - Access Denied"
      message="You don't have permission to access this page with your current role."
    />
  );
}
