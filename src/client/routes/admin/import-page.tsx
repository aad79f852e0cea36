import { useQuery } from '@tanstack/react-query';
import { CircleCheck, Download, LoaderCircle } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  COLUMNS,
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  IMPORT_RULES,
  type ImportKind,
  type ImportRun,
} from '../../../shared/transfer';
import { AdminPageHeader } from '../../components/admin-page';
import { Button, buttonClass } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingStatus } from '../../components/ui/loading-status';
import { ErrorState } from '../../components/ui/query-states';
import {
  importRunQuery,
  isBusy,
  useConfirmImport,
  useRefreshAfterImport,
  useStartImport,
} from '../../features/imports';
import { errorMessage } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';

const KIND_LABELS: Record<ImportKind, string> = {
  shops: 'Shops',
  products: 'Products',
  offers: 'Offers',
  events: 'Events',
  synonyms: 'Search synonyms',
};
const isKind = (value: string | null): value is ImportKind =>
  (IMPORT_KINDS as readonly string[]).includes(value ?? '');

/** /admin/imports/new: the template, the rules and the file; /admin/imports/:id: a run's preview and result. */
export function ImportPage() {
  const { id } = useParams();
  return id ? <ImportRunView id={id} /> : <NewImport />;
}

function NewImport() {
  const [search, setSearch] = useSearchParams();
  const kindParam = search.get('kind');
  const kind: ImportKind = isKind(kindParam) ? kindParam : 'products';
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const start = useStartImport();
  const navigate = useNavigate();
  const kindId = useId();
  const fileId = useId();
  usePageTitle(`Import ${KIND_LABELS[kind].toLowerCase()}`);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setProblem('Choose a CSV file');
    if (file.size > IMPORT_MAX_BYTES)
      return setProblem('The file is larger than 40 MB; split it into smaller files');
    setProblem(null);
    start.mutate(
      { kind, file },
      {
        onSuccess: (run) => navigate(`/admin/imports/${run.id}`),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  }

  return (
    <div className="max-w-3xl space-y-6">
      <AdminPageHeader
        title={`Import ${KIND_LABELS[kind].toLowerCase()}`}
        description="Upload a CSV file; you see what it would change before anything is written."
      />
      <section
        aria-labelledby="template-heading"
        className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="template-heading" className="text-lg font-semibold text-slate-900">
          1. The file
        </h2>
        <div>
          <label htmlFor={kindId} className="block text-sm font-medium text-slate-700">
            What the file holds
          </label>
          <select
            id={kindId}
            value={kind}
            onChange={(event) => setSearch({ kind: event.target.value }, { replace: true })}
            className="mt-1 block w-full max-w-xs rounded-lg border border-slate-300 px-3 py-2 text-sm"
          >
            {IMPORT_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <p className="text-sm text-slate-600">
          Columns: <code className="break-words text-slate-900">{COLUMNS[kind].join(', ')}</code>
        </p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
          {IMPORT_RULES[kind].map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
          <li>Save as “CSV UTF-8 (comma delimited)”. At most 40 MB.</li>
        </ul>
        <a href={`/api/imports/template/${kind}`} download className={buttonClass('secondary')}>
          <Download aria-hidden="true" className="size-4" />
          Download the template
        </a>
      </section>
      <form
        onSubmit={submit}
        aria-labelledby="upload-heading"
        className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="upload-heading" className="text-lg font-semibold text-slate-900">
          2. Check it
        </h2>
        <FormAlert message={problem} />
        <div>
          <label htmlFor={fileId} className="block text-sm font-medium text-slate-700">
            CSV file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            disabled={start.isPending}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="mt-1 block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:py-2 file:font-medium file:text-slate-800 hover:file:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
          />
        </div>
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          {start.isPending ? 'Uploading…' : 'Check the file'}
        </Button>
      </form>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="text-xl font-semibold text-slate-900">{value.toLocaleString()}</dd>
    </div>
  );
}

function ImportRunView({ id }: { id: string }) {
  const run = useQuery(importRunQuery(id));
  const confirm = useConfirmImport(id);
  const refresh = useRefreshAfterImport();
  const [validOnly, setValidOnly] = useState(false);
  const validOnlyId = useId();
  const status = run.data?.status;
  usePageTitle(run.data ? `Import of ${run.data.fileName}` : undefined);
  const wasBusy = useRef(false);
  useEffect(() => {
    // A run that just finished changed the directory: the lists and the log read it again.
    if (status === 'done' && wasBusy.current) refresh();
    wasBusy.current = status === 'running';
  }, [status, refresh]);

  if (run.isPending) return <LoadingStatus label="Loading the import" />;
  if (run.isError) return <ErrorState message={errorMessage(run.error)} onRetry={() => void run.refetch()} />;
  const data: ImportRun = run.data;
  const preview = data.preview;
  const counts = data.result?.counts ?? preview?.counts;
  const toWrite = preview ? preview.counts.created + preview.counts.updated : 0;
  const blocked = Boolean(preview && preview.counts.refused > 0 && !validOnly);

  return (
    <div className="max-w-4xl space-y-6">
      <AdminPageHeader
        title={`Import of ${data.fileName}`}
        description={`${KIND_LABELS[data.kind]} · by ${data.createdByEmail} · ${new Date(data.createdAt).toLocaleString()}`}
        action={
          <Link to={`/admin/imports/new?kind=${data.kind}`} className={buttonClass('secondary')}>
            Import another file
          </Link>
        }
      />
      {isBusy(data) ? (
        <div
          role="status"
          className="flex items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800"
        >
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          {data.status === 'checking' ? 'Checking the file' : 'Importing'}:{' '}
          {data.rowsChecked.toLocaleString()} of about {data.rowsTotal.toLocaleString()} rows checked. You can
          leave this page and come back.
        </div>
      ) : null}
      {data.status === 'failed' ? <FormAlert message={data.result?.error ?? 'The import failed'} /> : null}
      {data.status === 'done' ? (
        <div
          role="status"
          className="flex items-start gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2.5 text-sm text-green-800"
        >
          <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            Imported: {(counts?.created ?? 0).toLocaleString()} created,{' '}
            {(counts?.updated ?? 0).toLocaleString()} updated, {(counts?.unchanged ?? 0).toLocaleString()}{' '}
            unchanged
            {counts?.refused
              ? `, ${counts.refused.toLocaleString()} refused ${counts.refused === 1 ? 'row' : 'rows'} left out`
              : ''}
            .{' '}
            <Link to="/admin/activity?entityType=import" className="font-medium underline">
              See it in Activity
            </Link>
          </span>
        </div>
      ) : null}
      {preview && counts ? (
        <section aria-labelledby="preview-heading" className="space-y-4">
          <h2 id="preview-heading" className="text-lg font-semibold text-slate-900">
            {data.status === 'done' ? 'Result' : 'Preview'}
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Count label="Created" value={counts.created} />
            <Count label="Updated" value={counts.updated} />
            <Count label="Unchanged" value={counts.unchanged} />
            <Count label="Refused" value={counts.refused} />
          </dl>
          {preview.newCategories.length + preview.newFloors.length > 0 ? (
            <p className="text-sm text-slate-700">
              {preview.newCategories.length > 0
                ? `New categories: ${preview.newCategories.join(', ')}. `
                : ''}
              {preview.newFloors.length > 0 ? `New floors: ${preview.newFloors.join(', ')}. ` : ''}
              They are created with the import.
            </p>
          ) : null}
          {preview.matchedByName.length > 0 ? (
            <p className="text-sm text-slate-700">
              Matched by name (no code): line{preview.matchedByNameTotal > 1 ? 's' : ''}{' '}
              {preview.matchedByName.slice(0, 30).join(', ')}
              {preview.matchedByNameTotal > 30
                ? ` and ${(preview.matchedByNameTotal - 30).toLocaleString()} more`
                : ''}
              .
            </p>
          ) : null}
          {preview.refused.length > 0 ? (
            <div className="space-y-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold text-slate-900">Refused rows</h3>
                <a
                  href={`/api/imports/${data.id}/errors`}
                  download
                  className={buttonClass('secondary', 'sm')}
                >
                  <Download aria-hidden="true" className="size-4" />
                  Download the error file
                </a>
              </div>
              <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
                <table className="min-w-full text-left text-sm">
                  <caption className="sr-only">Refused rows</caption>
                  <thead className="bg-slate-50 text-slate-600">
                    <tr>
                      <th scope="col" className="px-3 py-2">
                        Line
                      </th>
                      <th scope="col" className="px-3 py-2">
                        Column
                      </th>
                      <th scope="col" className="px-3 py-2">
                        Problem
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.refused.flatMap((row) =>
                      row.errors.map((error) => (
                        <tr key={`${row.line}-${error.column}`} className="border-t border-slate-100">
                          <td className="px-3 py-2 tabular-nums">{row.line}</td>
                          <td className="px-3 py-2">{error.column}</td>
                          <td className="px-3 py-2 text-red-700">{error.message}</td>
                        </tr>
                      )),
                    )}
                  </tbody>
                </table>
              </div>
            </div>
          ) : null}
          {data.status === 'previewed' || (data.status === 'failed' && preview) ? (
            <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
              {preview.counts.refused > 0 ? (
                <div className="flex items-start gap-2">
                  <input
                    id={validOnlyId}
                    type="checkbox"
                    checked={validOnly}
                    onChange={(event) => setValidOnly(event.target.checked)}
                    className="mt-1"
                  />
                  <label htmlFor={validOnlyId} className="text-sm text-slate-700">
                    Import the valid rows only (leave the {preview.counts.refused} refused{' '}
                    {preview.counts.refused === 1 ? 'row' : 'rows'} out). Otherwise one refused row stops the
                    whole import.
                  </label>
                </div>
              ) : null}
              <FormAlert message={confirm.isError ? errorMessage(confirm.error) : null} />
              <Button
                disabled={confirm.isPending || blocked || toWrite === 0}
                onClick={() => confirm.mutate(validOnly)}
              >
                {confirm.isPending ? (
                  <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
                ) : null}
                {toWrite === 0
                  ? 'Nothing to import'
                  : `Import ${toWrite.toLocaleString()} ${toWrite === 1 ? 'row' : 'rows'}`}
              </Button>
              {blocked ? (
                <p className="text-sm text-slate-600">
                  Correct the refused rows and upload the file again, or import the valid rows only.
                </p>
              ) : null}
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
