import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, LogOut } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { type FieldValues, type Path, type UseFormSetError, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, DisplayNameInput, PasswordChangeInput } from '../../shared/account';
import { PASSWORD_MIN_LENGTH } from '../../shared/auth';
import { Button } from '../components/ui/button';
import { FormAlert } from '../components/ui/form-alert';
import { TextField } from '../components/ui/form-field';
import { Panel } from '../components/ui/panel';
import { PasswordField } from '../components/ui/password-field';
import { useChangePassword, useSetDisplayName } from '../features/account';
import { errorMessage } from '../lib/api';
import { useAuth } from '../lib/auth';
import { applyServerFieldErrors } from '../lib/form-errors';
import { usePageTitle } from '../lib/page-title';

/**
 * /account, for every signed-in role inside their own area's layout (docs/decisions/026): the name the
 * top bar greets them by, their password, and signing out on every device.
 */
export function AccountPage() {
  const { user } = useAuth();
  usePageTitle('Your account');
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Your account</h1>
        <p className="mt-1 break-words text-sm text-slate-600">
          Signed in as <span className="font-medium text-slate-900">{user?.email}</span>
        </p>
      </div>
      <DisplayNameSection current={user?.displayName ?? ''} />
      <PasswordSection />
      <SignOutEverywhereSection />
    </div>
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Panel title={title} description={description} className="sm:p-6">
      <div className="mt-4">{children}</div>
    </Panel>
  );
}

/** A line that says the last save worked, read out by screen readers when it appears. */
function Saved({ message }: { message: string | null }) {
  return (
    <p role="status" className="flex min-h-5 items-center gap-1.5 text-sm text-emerald-800">
      {message ? (
        <>
          <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
          {message}
        </>
      ) : null}
    </p>
  );
}

/**
 * A section's save: the server's error (and its fields' messages on the form) when it fails, the line
 * that says it worked when it does. `save` does the work and answers that line.
 */
function useSectionSave<T extends FieldValues>(setError: UseFormSetError<T>, fields: Path<T>[]) {
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  async function run(save: () => Promise<string>) {
    setServerError(null);
    setSaved(null);
    try {
      setSaved(await save());
    } catch (error) {
      applyServerFieldErrors(error, setError, fields);
      setServerError(errorMessage(error));
    }
  }
  return { serverError, saved, run };
}

/** A section's form: the server's error above its fields, the submit button and the saved line below. */
function SectionForm({
  onSubmit,
  saving,
  pending,
  submit: [submitLabel, pendingLabel],
  children,
}: {
  onSubmit(): void;
  saving: { serverError: string | null; saved: string | null };
  pending: boolean;
  /** The submit button's text, and its text while saving. */
  submit: [string, string];
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <FormAlert message={saving.serverError} />
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
        <Saved message={saving.saved} />
      </div>
    </form>
  );
}

function DisplayNameSection({ current }: { current: string }) {
  const save = useSetDisplayName();
  const form = useForm<DisplayNameInput, unknown, z.output<typeof DisplayNameInput>>({
    resolver: zodResolver(DisplayNameInput),
    defaultValues: { displayName: current },
  });
  const saving = useSectionSave(form.setError, ['displayName']);

  // the text as typed: the server tidies it and takes an empty one as "no display name"
  const onSubmit = form.handleSubmit(() =>
    saving.run(async () => {
      const { user } = await save.mutateAsync({ displayName: form.getValues('displayName') });
      form.reset({ displayName: user.displayName ?? '' });
      const message = user.displayName ? 'Display name saved' : 'Display name removed';
      toast.success(message);
      return message;
    }),
  );

  return (
    <Section
      title="Display name"
      description="The top bar greets you by this name. Leave it empty to be greeted by your email."
    >
      <SectionForm
        onSubmit={onSubmit}
        saving={saving}
        pending={save.isPending}
        submit={['Save name', 'Saving...']}
      >
        <TextField
          label="Display name"
          autoComplete="nickname"
          maxLength={DISPLAY_NAME_MAX_LENGTH}
          error={form.formState.errors.displayName?.message}
          disabled={save.isPending}
          {...form.register('displayName')}
        />
      </SectionForm>
    </Section>
  );
}

function PasswordSection() {
  const change = useChangePassword();
  const form = useForm<PasswordChangeInput, unknown, z.output<typeof PasswordChangeInput>>({
    resolver: zodResolver(PasswordChangeInput),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const errors = form.formState.errors;
  const saving = useSectionSave(form.setError, ['currentPassword', 'newPassword']);

  const onSubmit = form.handleSubmit((values) =>
    saving.run(async () => {
      await change.mutateAsync(values satisfies PasswordChangeInput);
      form.reset();
      toast.success('Password changed');
      return 'Password changed. You were signed out on every other device.';
    }),
  );

  return (
    <Section
      title="Change password"
      description="You stay signed in here; every other device and browser is signed out."
    >
      <SectionForm
        onSubmit={onSubmit}
        saving={saving}
        pending={change.isPending}
        submit={['Change password', 'Changing password...']}
      >
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...form.register('currentPassword')}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          placeholder={`At least ${PASSWORD_MIN_LENGTH} characters`}
          error={errors.newPassword?.message}
          {...form.register('newPassword')}
        />
      </SectionForm>
    </Section>
  );
}

function SignOutEverywhereSection() {
  const { logout } = useAuth();
  const [pending, setPending] = useState(false);

  async function signOutEverywhere() {
    setPending(true);
    try {
      await logout({ everywhere: true });
    } finally {
      setPending(false);
    }
  }

  return (
    <Section
      title="Sign out everywhere"
      description="Signs you out on every device and browser where you are signed in, this one included."
    >
      <Button variant="secondary" onClick={signOutEverywhere} disabled={pending}>
        <LogOut aria-hidden="true" className="size-4" />
        {pending ? 'Signing out...' : 'Sign out everywhere'}
      </Button>
    </Section>
  );
}
