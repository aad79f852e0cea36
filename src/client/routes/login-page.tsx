import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginInput } from '../../shared/auth';
import { AuthForm, EmailField, PasswordField, useAuthForm } from '../components/auth-form';
import { useAuth } from '../lib/auth';
import { usePageTitle } from '../lib/page-title';
import { safeNext, safeRedirect, withNext } from '../lib/redirect';

export function LoginPage() {
  usePageTitle('Sign in');
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // an invitation link sends people here and expects them back (?next=/manage/invite)
  const next = safeNext(useSearchParams()[0].get('next'));
  const { field, formProps } = useAuthForm(LoginInput, { email: '', password: '' }, async (values) => {
    const user = await login(values);
    const from: unknown = (location.state as { from?: unknown } | null)?.from;
    await navigate(next ?? safeRedirect(from, user.role), { replace: true });
  });

  return (
    <AuthForm
      {...formProps}
      title="Welcome Back"
      subtitle="Sign in to your super mall account"
      other={{ question: "Don't have an account?", to: withNext('/register', next), link: 'Create one' }}
      submitLabel="Sign in"
      busyLabel="Signing in..."
    >
      <EmailField {...field('email')} />
      <PasswordField autoComplete="current-password" {...field('password')} />
    </AuthForm>
  );
}
