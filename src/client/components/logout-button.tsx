import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '../lib/auth';
import { Button } from './ui/button';

export function LogoutButton() {
  const { logout } = useAuth();
  const [pending, setPending] = useState(false);

  async function handleClick() {
    setPending(true);
    try {
      await logout();
    } finally {
      setPending(false);
    }
  }

  return (
    <Button variant="secondary" onClick={handleClick} disabled={pending} className="shrink-0">
      <LogOut aria-hidden="true" className="size-4" />
      Logout
    </Button>
  );
}
