// The pieces the sign-in and registration screens share.
import { zodResolver } from '@hookform/resolvers/zod';
import { type ComponentProps, type ReactNode, useState } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { errorMessage } from '../lib/api';
import { schemaFields } from '../lib/schema-fields';
import { AuthHeading } from './auth-heading';
import { Button } from './ui/button';
import { FormAlert } from './ui/form-alert';
import { TextField } from './ui/form-field';
import { PasswordField as PasswordInput } from './ui/password-field';

type FieldProps = Omit<ComponentProps<typeof TextField>, 'label' | 'type'>;

export function EmailField(props: FieldProps) {
  return (
    <TextField label="Email" type="email" autoComplete="email" placeholder="you@example.com" {...props} />
  );
}

export function PasswordField(props: FieldProps) {
  return <PasswordInput label="Password" {...props} />;
}

/**
 * A sign-in screen's form: react-hook-form with the shared schema as resolver, `field(name)` for each
 * control, and `formProps` for AuthForm: the submit that runs `send`, and its failure (the server's
 * message) for the box above the fields.
 */
export function useAuthForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<Input>,
  send: (values: Output) => Promise<void>,
) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema as never) as never,
    defaultValues,
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await send(values);
    } catch (error) {
      setServerError(errorMessage(error));
    }
  });
  const formProps = { onSubmit, serverError, submitting: form.formState.isSubmitting };
  return { form, field: schemaFields(schema, form), formProps };
}

interface AuthFormProps {
  /** 'Welcome Back' and the line under it. */
  title: string;
  subtitle: string;
  /** The other screen, under the form: "Don't have an account? Create one". */
  other: { question: string; to: string; link: string };
  onSubmit(event: React.FormEvent<HTMLFormElement>): void;
  /** The server's answer, in the red box above the fields. */
  serverError: string | null;
  submitting: boolean;
  /** 'Sign in', and 'Signing in...' while the request runs (the button is disabled meanwhile). */
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
}

/** A sign-in screen's heading, form (error box, fields, submit button) and link to the other screen. */
export function AuthForm({
  title,
  subtitle,
  other,
  onSubmit,
  serverError,
  submitting,
  submitLabel,
  busyLabel,
  children,
}: AuthFormProps) {
  return (
    <>
      <AuthHeading title={title} subtitle={subtitle} />
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <FormAlert message={serverError} />
        {children}
        <Button type="submit" size="lg" className="w-full" disabled={submitting}>
          {submitting ? busyLabel : submitLabel}
        </Button>
      </form>
      <AuthSwitch question={other.question} to={other.to}>
        {other.link}
      </AuthSwitch>
    </>
  );
}

/** "Don't have an account? Create one": the link to the other screen, under the form. */
function AuthSwitch({ question, to, children }: { question: string; to: string; children: string }) {
  return (
    <p className="mt-6 text-center text-sm text-slate-600">
      {question}{' '}
      <Link
        to={to}
        className="font-semibold text-indigo-600 hover:text-indigo-500 focus-visible:rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        {children}
      </Link>
    </p>
  );
}
