import { SearchX } from 'lucide-react';
import { StatusPage } from '../components/status-page';

export function NotFoundPage() {
  return (
    <StatusPage
      icon={SearchX}
      title="404 - Page Not Found"
      message="The page you're looking for doesn't exist or has been moved."
    />
  );
}
