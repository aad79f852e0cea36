import { useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { type Synonym, SynonymInput } from '../../../shared/insights';
import { AdminScreen } from '../../components/admin-page';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable, RowButton } from '../../components/ui/data-table';
import { FormAlert } from '../../components/ui/form-alert';
import { TextField } from '../../components/ui/form-field';
import { TransferActions } from '../../features/imports';
import { synonymsQuery, useAddSynonym, useDeleteSynonym } from '../../features/insights';
import { ApiError, errorMessage } from '../../lib/api';

/** /admin/synonyms: what shoppers type → what the mall calls it; search uses them at once. */
export function SynonymsPage() {
  const synonyms = useQuery(synonymsQuery);
  const remove = useDeleteSynonym();
  const [deleting, setDeleting] = useState<Synonym | null>(null);
  return (
    <AdminScreen
      title="Search synonyms"
      description="A search for the term searches what it stands for instead: “loo” finds the toilets. Used at once by every search."
    >
      <AddSynonymForm />
      <SynonymsFile />
      <DataTable
        caption="Search synonyms"
        loading={synonyms.isPending}
        rows={synonyms.data?.items}
        rowKey={(row) => row.id}
        empty="No synonyms yet."
        columns={[
          { header: 'Term', cell: (row) => row.term },
          { header: 'Searched as', cell: (row) => row.replacement },
          {
            header: 'Actions',
            srOnlyHeader: true,
            width: 'w-28',
            cell: (row) => (
              <RowButton label={`Delete the synonym ${row.term}`} onClick={() => setDeleting(row)}>
                <Trash2 aria-hidden="true" className="size-4" />
                Delete
              </RowButton>
            ),
          },
        ]}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the synonym “${deleting?.term ?? ''}”?`}
        description="Searches for it will look for the term itself again."
        pending={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success('Synonym deleted');
              setDeleting(null);
            },
            onError: (error) => toast.error(errorMessage(error)),
          });
        }}
        onCancel={() => setDeleting(null)}
      />
    </AdminScreen>
  );
}

/** Adds a synonym; from a search that found nothing, with its text and the closest word filled in. */
export function AddSynonymForm({
  initialTerm = '',
  initialReplacement = '',
  onDone,
}: {
  initialTerm?: string;
  initialReplacement?: string;
  onDone?: () => void;
}) {
  const [term, setTerm] = useState(initialTerm);
  const [replacement, setReplacement] = useState(initialReplacement);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddSynonym();

  const bind = (name: 'term' | 'replacement', value: string, set: (value: string) => void) => ({
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(event.target.value),
    error: errors[name],
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    // The server's own rules, checked here first (shared/insights.ts).
    const parsed = SynonymInput.safeParse({ term, replacement });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      );
      return;
    }
    setErrors({});
    add.mutate(parsed.data, {
      onSuccess: (saved) => {
        toast.success(`“${saved.term}” now searches “${saved.replacement}”`);
        setTerm('');
        setReplacement('');
        onDone?.();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
        else setFailure(errorMessage(error));
      },
    });
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Add a synonym"
      className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[1fr_1fr_auto] sm:items-start"
      noValidate
    >
      {failure ? (
        <div className="sm:col-span-3">
          <FormAlert message={failure} />
        </div>
      ) : null}
      <TextField label="Term" hint="What shoppers type, e.g. loo" {...bind('term', term, setTerm)} />
      <TextField
        label="Searched as"
        hint="What the mall calls it, e.g. toilets"
        {...bind('replacement', replacement, setReplacement)}
      />
      <Button type="submit" disabled={add.isPending} className="sm:mt-7">
        Add synonym
      </Button>
    </form>
  );
}

/**
 * The synonyms as CSV: exported, and imported through the shared import (a preview of what it would add
 * and change, then all or nothing or the valid rows only: docs/decisions/038), as every list's files are.
 */
function SynonymsFile() {
  return (
    <div className="flex flex-wrap gap-3">
      <TransferActions kind="synonyms" noun="search synonyms" filters={{}} />
    </div>
  );
}
