import { useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { RegisterInput } from '../../shared/auth';
import { dashboardPath } from '../../shared/roles';
import { AuthForm, EmailField, PasswordField, useAuthForm } from '../components/auth-form';
import { SelectField, TextField } from '../components/ui/form-field';
import { useAuth } from '../lib/auth';
import { usePageTitle } from '../lib/page-title';
import { safeNext, withNext } from '../lib/redirect';

export function RegisterPage() {
  usePageTitle('Create Account');
  const auth = useAuth();
  const navigate = useNavigate();
  // an invitation link sends people here and expects them back (?next=/manage/invite)
  const next = safeNext(useSearchParams()[0].get('next'));
  const { form, field, formProps } = useAuthForm(
    RegisterInput,
    { email: '', password: '', role: 'user', inviteCode: '' },
    async ({ inviteCode, ...values }) => {
      // a code typed before switching back to User must not be sent with a User account.
      const user = await auth.register(
        values.role === 'admin' && inviteCode ? { ...values, inviteCode } : values,
      );
      await navigate(next ?? dashboardPath(user.role), { replace: true });
    },
  );
  const role = useWatch({ control: form.control, name: 'role' });

  return (
    <AuthForm
      {...formProps}
      title="Create Account"
      subtitle="Join our super mall experience"
      other={{ question: 'Already have an account?', to: withNext('/login', next), link: 'Sign in' }}
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
