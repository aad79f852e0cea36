import { useQuery } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { everyDay, type MallHours, OpeningHours } from '../../../shared/hours';
import { AdminScreen, formCardClass } from '../../components/admin-page';
import { buttonClass } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { QueryView } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { MallHoursToday, mallHoursQuery, useSetMallHours } from '../../features/hours';
import { HoursEditor, hoursErrorSummary, hoursErrors } from '../../features/hours/forms';
import { errorMessage } from '../../lib/api';

/** /admin/mall-hours: the mall's weekly hours and special days; they bound every shop's. */
export function MallHoursPage() {
  const mall = useQuery(mallHoursQuery);
  return (
    <AdminScreen
      title="Mall hours"
      description="When the mall's doors are open. A shop is shown as open only while the mall is."
    >
      <MallHoursToday />
      <QueryView query={mall} loading={<Skeleton className="h-96 w-full rounded-2xl" />}>
        {(data) => <MallHoursForm key={data.updatedAt ?? 'none'} saved={data} />}
      </QueryView>
    </AdminScreen>
  );
}

function MallHoursForm({ saved }: { saved: MallHours }) {
  const [value, setValue] = useState<OpeningHours | null>(saved.hours);
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSetMallHours();
  const formRef = useRef<HTMLFormElement>(null);
  const errors = tried ? hoursErrors(value, OpeningHours) : {};
  const summary = hoursErrorSummary(errors);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    setServerError(null);
    // Not sent while the shared schema refuses it (a note with a line break, overlapping intervals): say
    // why, and take the focus to the first field with a message (its message is under it).
    const invalid = hoursErrorSummary(hoursErrors(value, OpeningHours));
    if (invalid) {
      toast.error(`Mall hours not saved: ${invalid}`);
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    try {
      await save.mutateAsync({ hours: value });
      toast.success('Mall hours saved');
    } catch (error) {
      setServerError(errorMessage(error));
    }
  }

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className={formCardClass} aria-label="Mall hours">
      <FormAlert message={serverError} />
      <label className="inline-flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="size-4 accent-indigo-600"
          checked={value !== null}
          disabled={save.isPending}
          onChange={(event) => setValue(event.target.checked ? everyDay('10:00', '22:00') : null)}
        />
        The mall has opening hours (off: shops' own hours alone decide “Open now”)
      </label>
      {value ? (
        <HoursEditor value={value} onChange={setValue} errors={errors} disabled={save.isPending} />
      ) : null}
      {summary ? (
        <p role="alert" className="text-sm text-red-600">
          Some hours need fixing: {summary}
        </p>
      ) : null}
      <div className="flex justify-end border-t border-slate-100 pt-5">
        <button type="submit" disabled={save.isPending} className={buttonClass('primary')}>
          {save.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          Save mall hours
        </button>
      </div>
    </form>
  );
}
