import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { RegisterInput } from '../../shared/auth';
import { dashboardPath } from '../../shared/roles';
import { AuthHeading } from '../components/auth-heading';
import { Button } from '../components/ui/button';
import { FormAlert } from '../components/ui/form-alert';
import { SelectField, TextField } from '../components/ui/form-field';
import { errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';

export function RegisterPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<RegisterInput, unknown, z.output<typeof RegisterInput>>({
    resolver: zodResolver(RegisterInput),
    defaultValues: { email: '', password: '', role: 'user', inviteCode: '' },
  });
  const role = useWatch({ control, name: 'role' });

  const onSubmit = handleSubmit(async ({ inviteCode, ...values }) => {
    setServerError(null);
    try {
      // a code typed before switching back to User must not be sent with a User account.
      const user = await auth.register(
        values.role === 'admin' && inviteCode ? { ...values, inviteCode } : values,
      );
      await navigate(dashboardPath(user.role), { replace: true });
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });

  return (
    <>
      <AuthHeading title="Create Account" subtitle="Join our super mall experience" />
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
          autoComplete="new-password"
          placeholder="At least 6 characters"
          required
          error={errors.password?.message}
          {...register('password')}
        />
        <SelectField label="Account Type" error={errors.role?.message} {...register('role')}>
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
            error={errors.inviteCode?.message}
            {...register('inviteCode', { shouldUnregister: true })}
          />
        ) : null}
        <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link
          to="/login"
          className="font-semibold text-indigo-600 hover:text-indigo-500 focus-visible:rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Sign in
        </Link>
      </p>
    </>
  );
}
