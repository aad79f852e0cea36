// The one admin form screen (shops, products, offers): /admin/{things}/new and /admin/{things}/{id}. The
// title, the record's and the choices' loading, 'X not found', the form card, its error box, Cancel and
// the submit button, and the save that returns to the list are the same for every kind of record.
import { zodResolver } from '@hookform/resolvers/zod';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { type DefaultValues, type FieldValues, type Path, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage, isNotFound } from '../lib/api';
import { usePageTitle } from '../lib/page-title';
import { schemaFields } from '../lib/schema-fields';
import { useSaveAndReturn } from '../lib/use-save-and-return';
import { AdminPageHeader, FormButtons, FormSkeleton, formCardClass, RecordNotFound } from './admin-page';
import { FormAlert } from './ui/form-alert';
import { ErrorState } from './ui/query-states';

export interface EntityFormPageProps<R> {
  /** The record's id; undefined on the 'new' page. */
  id: string | undefined;
  /** 'Shop': 'Add New Shop', 'Edit Shop', 'Shop not found'. */
  noun: string;
  /** The list, where 'Back to shops' goes from a record that does not exist. */
  listPath: string;
  /** 'Back to shops'. */
  backText: string;
  /** The record's read (disabled on the 'new' page). */
  record: UseQueryResult<R>;
  /** The choices the form needs first (shops, categories…): their failure shows instead of the form. */
  needs: ReadonlyArray<UseQueryResult<unknown>>;
  /** True while something besides the record is still loading. */
  waiting?: boolean;
  /** How many fields the placeholder shows. */
  fields: number;
  /** The form, for the record (undefined when new). */
  children(record: R | undefined): ReactNode;
  /** Under the title of an existing record's page: who changed it last (the audit feature's LastChanged). */
  aside?: ReactNode;
  /** Under the form of an existing record's page: what goes with the record (a shop's managers). */
  below?: ReactNode;
}

export function EntityFormPage<R>({
  id,
  noun,
  listPath,
  backText,
  record,
  needs,
  waiting = false,
  fields,
  children,
  aside,
  below,
}: EntityFormPageProps<R>) {
  const notFound = id !== undefined && record.isError && isNotFound(record.error);
  usePageTitle(notFound ? `${noun} not found` : id ? `Edit ${noun}` : `Add New ${noun}`);
  if (notFound) {
    return <RecordNotFound message={`${noun} not found`} to={listPath} linkText={backText} />;
  }
  const reads = id ? [...needs, record] : needs;
  const failed = reads.find((read) => read.isError);
  // A stale copy being read again (someone changed the record meanwhile) is not the record to edit: the
  // form's values are taken once, when it appears.
  const refreshing = id !== undefined && record.isStale && record.isFetching;
  const ready = !waiting && !refreshing && reads.every((read) => read.data !== undefined);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title={id ? `Edit ${noun}` : `Add New ${noun}`} />
      {id ? aside : null}
      {failed ? (
        <ErrorState
          message={errorMessage(failed.error)}
          onRetry={() => failed.refetch()}
          retrying={failed.isFetching}
        />
      ) : ready ? (
        // a new key for another record: the form starts again from its values.
        <Fragment key={id ?? 'new'}>{children(id ? record.data : undefined)}</Fragment>
      ) : (
        <FormSkeleton fields={fields} />
      )}
      {id && ready ? below : null}
    </div>
  );
}

interface EntityFormOptions<Input extends FieldValues, Output, Saved> {
  schema: z.ZodType<Output, Input>;
  /** The record being edited, or undefined for a new one. */
  record: { id: string } | undefined;
  defaultValues: DefaultValues<Input>;
  /** Not needed by a form that only ever edits (a shop manager's shop page). */
  create?: UseMutationResult<Saved, Error, Output>;
  update: UseMutationResult<Saved, Error, { id: string; input: Output }>;
  /** 'Shop': the toasts 'Shop added' / 'Shop updated', the buttons 'Add Shop' / 'Update Shop'. */
  noun: string;
  listPath: string;
  /** The values as the API takes them (e.g. an empty choice as null). */
  toInput?(values: Output): Output;
  /** The toasts, when not '{noun} added' / '{noun} updated' (a manager's offer waits for approval). */
  done?: { created: string; updated: string };
}

/**
 * A record's form: react-hook-form with the shared schema as resolver, `field(name)` for each control
 * (constraints, error, registration), and `formProps` for EntityForm: the submit that saves and returns
 * to the list, its button and the server's error.
 */
export function useEntityForm<Input extends FieldValues, Output, Saved>({
  schema,
  record,
  defaultValues,
  create,
  update,
  noun,
  listPath,
  toInput = (values) => values,
  done = { created: `${noun} added`, updated: `${noun} updated` },
}: EntityFormOptions<Input, Output, Saved>) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema as never) as never,
    defaultValues,
  });
  const names = Object.keys((schema as unknown as { shape: object }).shape) as Path<Input>[];
  const { serverError, save } = useSaveAndReturn(form.setError, names, listPath);
  const onSubmit = form.handleSubmit((values) => {
    const input = toInput(values);
    return save(
      () => {
        if (record) return update.mutateAsync({ id: record.id, input });
        if (!create) throw new Error('This form only edits a record');
        return create.mutateAsync(input);
      },
      record ? done.updated : done.created,
    );
  });
  const formProps = {
    onSubmit,
    serverError,
    submitting: form.formState.isSubmitting,
    submitLabel: record ? `Update ${noun}` : `Add ${noun}`,
    listPath,
  };
  return { form, field: schemaFields(schema, form), formProps };
}

interface EntityFormProps {
  onSubmit(): void;
  serverError: string | null;
  submitting: boolean;
  /** 'Add Shop' / 'Update Shop'. */
  submitLabel: string;
  listPath: string;
  children: ReactNode;
}

/** The form's card: the server's error above the fields, Cancel and the submit button below. */
export function EntityForm({
  onSubmit,
  serverError,
  submitting,
  submitLabel,
  listPath,
  children,
}: EntityFormProps) {
  return (
    <form noValidate onSubmit={onSubmit} className={formCardClass}>
      <FormAlert message={serverError} />
      {children}
      <FormButtons listPath={listPath} submitting={submitting} label={submitLabel} />
    </form>
  );
}
