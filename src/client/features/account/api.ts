import { useMutation } from '@tanstack/react-query';
import type { DisplayNameInput, PasswordChangeInput } from '../../../shared/account';
import type { SessionUser } from '../../../shared/auth';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/auth';

/** Sets the name the top bar greets the person by; the greeting changes as soon as the server answers. */
export function useSetDisplayName() {
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: (input: DisplayNameInput) =>
      api<{ user: SessionUser }>('/api/account', { method: 'PATCH', body: input }),
    onSuccess: ({ user }) => updateUser(user),
  });
}

/** Changes the password: every other session ends, this browser gets a new cookie and stays signed in. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      api<{ user: SessionUser }>('/api/account/password', { method: 'POST', body: input }),
  });
}
