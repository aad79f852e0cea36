// The Mall profile screen's form (docs/decisions/034): the mall's name, address, phone, map position,
// currency and public URL, checked by the shared schema as the server checks them; and its logo, uploaded
// on its own and saved at once, as a shop's.
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { type Path, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { type MallProfile, MallProfileInput } from '../../../shared/mall-profile';
import { formCardClass } from '../../components/admin-page';
import { buttonClass } from '../../components/ui/button';
import { FormAlert } from '../../components/ui/form-alert';
import { TextField } from '../../components/ui/form-field';
import { Panel } from '../../components/ui/panel';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { schemaFields } from '../../lib/schema-fields';
import { ImageUpload } from '../images/forms';
import { useSaveMallProfile } from './api';

type Values = z.input<typeof MallProfileInput>;
type Saved = z.output<typeof MallProfileInput>;

/** The form's fields: every one of the profile's but the logo (uploaded on its own). */
const FIELDS = [
  'name',
  'streetAddress',
  'locality',
  'region',
  'postalCode',
  'country',
  'phone',
  'latitude',
  'longitude',
  'currency',
  'publicUrl',
] as const satisfies ReadonlyArray<Path<Values>>;

const valuesOf = (profile: MallProfile): Values => ({
  name: profile.name,
  streetAddress: profile.streetAddress,
  locality: profile.locality,
  region: profile.region,
  postalCode: profile.postalCode,
  country: profile.country,
  phone: profile.phone,
  latitude: profile.latitude,
  longitude: profile.longitude,
  currency: profile.currency,
  publicUrl: profile.publicUrl,
});

/** A map coordinate's input: empty is "none" (null), anything else a number for the schema to judge. */
const coordinate = {
  valueAsNumber: false,
  setValueAs: (value: unknown) =>
    value === '' || value === null || value === undefined ? null : Number(value),
} as const;
const coordinateAttributes = { type: 'number', inputMode: 'decimal', step: 'any' } as const;

/**
 * A field that may be left empty (a mall without a region): its key is required by the schema, not a
 * value, so the input is not marked required.
 */
const optional = <T extends object>(props: T) => ({ ...props, required: undefined });

export function MallProfileForm({ saved }: { saved: MallProfile }) {
  const save = useSaveMallProfile();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Values, unknown, Saved>({
    resolver: zodResolver(MallProfileInput),
    defaultValues: valuesOf(saved),
  });
  const field = schemaFields(MallProfileInput, form);

  const onSubmit = form.handleSubmit(
    async (values) => {
      setServerError(null);
      try {
        const profile = await save.mutateAsync(values);
        // The values as stored (codes in capitals, the URL without its trailing slash), the form kept.
        form.reset(valuesOf(profile));
        toast.success('Mall profile saved');
      } catch (error) {
        const message = errorMessage(error);
        setServerError(message);
        applyServerFieldErrors(error, form.setError, FIELDS);
        toast.error(`Mall profile not saved: ${message}`);
      }
    },
    // The schema's messages are under their fields and focus is on the first (react-hook-form).
    () => toast.error('Mall profile not saved: some fields need fixing'),
  );
  const saving = form.formState.isSubmitting;

  return (
    <form noValidate onSubmit={onSubmit} className={formCardClass} aria-labelledby="mall-profile-details">
      <h2 id="mall-profile-details" className="text-lg font-semibold text-slate-900">
        Details
      </h2>
      <FormAlert message={serverError} />
      <TextField
        label="Mall name"
        hint="On the public pages, in search results and in the browser's tab."
        autoComplete="organization"
        {...field('name')}
      />
      <TextField label="Street address" autoComplete="street-address" {...optional(field('streetAddress'))} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Town or city" autoComplete="address-level2" {...optional(field('locality'))} />
        <TextField label="Region" hint="State, province or county." {...optional(field('region'))} />
        <TextField label="Postal code" autoComplete="postal-code" {...optional(field('postalCode'))} />
        <TextField
          label="Country code"
          hint="Two letters, such as IN or GB."
          autoComplete="country"
          className="uppercase"
          {...optional(field('country'))}
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Phone"
          type="tel"
          hint="With the country code, such as +91 80 2268 2222."
          autoComplete="tel"
          {...optional(field('phone'))}
        />
        <TextField
          label="Currency code"
          hint="The prices' currency: three letters, such as INR or EUR."
          className="uppercase"
          {...field('currency')}
        />
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-700">Map position</legend>
        <p className="text-xs text-slate-500">
          In degrees, as a map app shows them (12.9716, 77.5946). Give both, or leave both empty.
        </p>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Latitude" {...coordinateAttributes} {...field('latitude', coordinate)} />
          <TextField label="Longitude" {...coordinateAttributes} {...field('longitude', coordinate)} />
        </div>
      </fieldset>
      <TextField
        label="Public URL"
        type="url"
        inputMode="url"
        hint="Where the mall's site is on the web, such as https://mall.example.com: the address search engines link to."
        autoComplete="url"
        {...optional(field('publicUrl'))}
      />
      <div className="flex justify-end border-t border-slate-100 pt-5">
        <button type="submit" disabled={saving} className={buttonClass('primary', 'md', 'max-sm:w-full')}>
          {saving ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          Save mall profile
        </button>
      </div>
    </form>
  );
}

/** The mall's logo: uploaded, replaced and removed at once, as a shop's (docs/decisions/020). */
export function MallLogoPanel({ logo, name }: { logo: string | null; name: string }) {
  return (
    <Panel title="Images" description="JPEG, PNG, WebP or AVIF, up to 10 MB. Saved as soon as chosen.">
      <div className="mt-4">
        <ImageUpload
          label="Logo"
          url="/api/mall/profile/logo"
          image={logo}
          name={name}
          hint="On the public pages and in search results. Square works best."
          removeDescription={`The public pages will show ${name}'s initials instead.`}
        />
      </div>
    </Panel>
  );
}
