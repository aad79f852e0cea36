import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { RegisterInput } from '../../shared/auth';
import { dashboardPath } from '../../shared/roles';
import { AuthForm, EmailField, PasswordField } from '../components/auth-form';
import { SelectField, TextField } from '../components/ui/form-field';
import { errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { usePageTitle } from '../lib/page-title';
import { safeNext, withNext } from '../lib/redirect';
import { schemaFields } from '../lib/schema-fields';

export function RegisterPage() {
  usePageTitle('Create Account');
  const auth = useAuth();
  const navigate = useNavigate();
  // an invitation link sends people here and expects them back (?next=/manage/invite)
  const next = safeNext(useSearchParams()[0].get('next'));
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<RegisterInput, unknown, z.output<typeof RegisterInput>>({
    resolver: zodResolver(RegisterInput),
    defaultValues: { email: '', password: '', role: 'user', inviteCode: '' },
  });
  const field = schemaFields(RegisterInput, form);
  const role = useWatch({ control: form.control, name: 'role' });

  const onSubmit = form.handleSubmit(async ({ inviteCode, ...values }) => {
    setServerError(null);
    try {
      // a code typed before switching back to User must not be sent with a User account.
      const user = await auth.register(
        values.role === 'admin' && inviteCode ? { ...values, inviteCode } : values,
      );
      await navigate(next ?? dashboardPath(user.role), { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  return (
    <AuthForm
      title="Create Account"
      subtitle="Join our super mall experience"
      other={{ question: 'Already have an account?', to: withNext('/login', next), link: 'Sign in' }}
      onSubmit={onSubmit}
      serverError={serverError}
      submitting={form.formState.isSubmitting}
      submitLabel="Create Account"
      busyLabel="Creating account..."
    >
      <EmailField {...field('email')} />
      <PasswordField autoComplete="new-password" placeholder="At least 6 characters" {...field('password')} />
      <SelectField label="Account Type" {...field('role')}>
        <option value="user">User</option>
        <option value="admin">Admin</option>
      </SelectField>
      {role === 'admin' ? (
        <TextField
          label="Admin invite code"
          type="text"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          hint="Ask an existing admin for a one-time invite code. For the mall's first admin, use the setup code the server printed when it started."
          {...field('inviteCode', { shouldUnregister: true })}
        />
      ) : null}
    </AuthForm>
  );
}
