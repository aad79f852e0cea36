import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { LoginInput } from '../../shared/auth';
import { AuthHeading } from '../components/auth-heading';
import { Button } from '../components/ui/button';
import { FormAlert } from '../components/ui/form-alert';
import { TextField } from '../components/ui/form-field';
import { errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { safeRedirect } from '../lib/redirect';

export function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, z.output<typeof LoginInput>>({
    resolver: zodResolver(LoginInput),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      const user = await login(values);
      const from: unknown = (location.state as { from?: unknown } | null)?.from;
      await navigate(safeRedirect(from, user.role), { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  return (
    <>
      <AuthHeading title="Welcome Back" subtitle="Sign in to your super mall account" />
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <FormAlert message={serverError} />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          required
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Don't have an account?{' '}
        <Link
          to="/register"
          className="font-semibold text-indigo-600 hover:text-indigo-500 focus-visible:rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Create one
        </Link>
      </p>
    </>
  );
}
