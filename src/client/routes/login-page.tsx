import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { LoginInput } from '../../shared/auth';
import { AuthForm, EmailField, PasswordField } from '../components/auth-form';
import { errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { usePageTitle } from '../lib/page-title';
import { safeNext, safeRedirect, withNext } from '../lib/redirect';
import { schemaFields } from '../lib/schema-fields';

export function LoginPage() {
  usePageTitle('Sign in');
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // an invitation link sends people here and expects them back (?next=/manage/invite)
  const next = safeNext(useSearchParams()[0].get('next'));
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<LoginInput, unknown, z.output<typeof LoginInput>>({
    resolver: zodResolver(LoginInput),
    defaultValues: { email: '', password: '' },
  });
  const field = schemaFields(LoginInput, form);

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      const user = await login(values);
      const from: unknown = (location.state as { from?: unknown } | null)?.from;
      await navigate(next ?? safeRedirect(from, user.role), { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  return (
    <AuthForm
      title="Welcome Back"
      subtitle="Sign in to your super mall account"
      other={{ question: "Don't have an account?", to: withNext('/register', next), link: 'Create one' }}
      onSubmit={onSubmit}
      serverError={serverError}
      submitting={form.formState.isSubmitting}
      submitLabel="Sign in"
      busyLabel="Signing in..."
    >
      <EmailField {...field('email')} />
      <PasswordField autoComplete="current-password" {...field('password')} />
    </AuthForm>
  );
}
