// The upload control (docs/decisions/020): pick or drop an image, see it at once, watch it upload;
// replace it, remove it; the server's refusal shown in its own words.
import { useQueryClient } from '@tanstack/react-query';
import { ImageUp, Trash2 } from 'lucide-react';
import { type DragEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { type ApiErrorBody, IMAGE_MESSAGES } from '../../../shared/errors';
import { IMAGE_ACCEPT, MAX_IMAGE_BYTES, UPLOAD_HEADER } from '../../../shared/images';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Panel } from '../../components/ui/panel';
import { ApiError, api, errorMessage, GENERIC_ERROR_MESSAGE } from '../../lib/api';
import { cn } from '../../lib/cn';
import { queryKeys } from '../../lib/query-keys';
import { Picture } from './picture';

interface ImageUploadProps {
  /** "Logo", "Cover photo", "Photo", "Floor plan": the field's label. */
  label: string;
  /** The upload and removal route: "/api/shops/<id>/logo". */
  url: string;
  /** The image's key now; null when there is none. */
  image: string | null;
  /** Whose image (the alt text and the monogram). */
  name: string;
  /** A hint under the label ("Square, at least 160 px"). */
  hint?: string;
  /** The preview's box (its proportions). */
  boxClassName?: string;
  /** What removing it means, in the confirmation (default: the initials shown instead). */
  removeDescription?: string;
  /**
   * A wide preview (a cover photo): above the buttons, not beside them — beside a wide box, the buttons'
   * words wrapped onto three lines in a half-width column.
   */
  wide?: boolean;
}

export function ImageUpload({
  label,
  url,
  image,
  name,
  hint,
  boxClassName = 'aspect-square w-32',
  removeDescription,
  wide = false,
}: ImageUploadProps) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [current, setCurrent] = useState(image);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [removing, setRemoving] = useState(false);
  useEffect(() => setCurrent(image), [image]);
  const busy = progress !== null || removing;

  const refresh = () =>
    Promise.all(
      [
        queryKeys.shops,
        queryKeys.products,
        queryKeys.floorGuide,
        queryKeys.floors,
        queryKeys.managedShops,
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );

  async function send(file: File) {
    setError(null);
    // why: a data: URL (the CSP allows data: images, not blob:)
    const reader = new FileReader();
    reader.onload = () => setPreview(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    setProgress(0);
    try {
      const key = await uploadImage(url, file, setProgress);
      setCurrent(key);
      toast.success(`${label} saved`);
      await refresh();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPreview(null);
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  async function remove() {
    setRemoving(true);
    setError(null);
    try {
      await removeImage(url);
      setCurrent(null);
      toast.success(`${label} removed`);
      await refresh();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setRemoving(false);
      setConfirming(false);
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) void send(file);
  }

  return (
    <div className="space-y-2">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer shortcut; the button and the file input do the same by keyboard */}
      <div
        data-testid={`drop-${label}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex gap-4 rounded-xl border-2 border-dashed p-3',
          wide ? 'flex-col items-stretch' : 'flex-wrap items-center',
          dragging ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300',
        )}
      >
        <div
          className={cn('relative shrink-0 overflow-hidden rounded-lg', wide && 'max-w-full', boxClassName)}
        >
          {preview ? (
            <img src={preview} alt={`${label} being uploaded`} className="size-full object-contain" />
          ) : (
            <Picture image={current} name={name} sizes="8rem" fit="contain" className="size-full text-2xl" />
          )}
        </div>
        {/* why: 12rem at least, or it goes under the picture: a narrow column would push "Replace floor plan" past the box */}
        <div className="min-w-0 flex-1 basis-48 space-y-2">
          <p className="text-sm text-slate-600">
            {current ? 'Drop a new image here to replace it, or' : 'Drop an image here, or'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              onClick={() => input.current?.click()}
              className="whitespace-nowrap"
            >
              <ImageUp aria-hidden="true" className="size-4" />
              {current ? `Replace ${label.toLowerCase()}` : `Choose ${label.toLowerCase()}`}
            </Button>
            {current ? (
              <Button
                variant="ghost"
                size="sm"
                disabled={busy}
                onClick={() => setConfirming(true)}
                className="whitespace-nowrap"
              >
                <Trash2 aria-hidden="true" className="size-4" />
                Remove {label.toLowerCase()}
              </Button>
            ) : null}
          </div>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept={IMAGE_ACCEPT}
            className="sr-only"
            aria-describedby={cn(hint && hintId, error && errorId) || undefined}
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void send(file);
            }}
          />
          {progress !== null ? (
            <div className="flex items-center gap-2 text-sm text-slate-700">
              <progress
                value={progress}
                max={1}
                aria-label={`Uploading ${label.toLowerCase()}`}
                className="w-40"
              />
              <span role="status">{progress < 1 ? `${Math.round(progress * 100)}%` : 'Processing…'}</span>
            </div>
          ) : null}
          {error ? (
            <p id={errorId} role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove the ${label.toLowerCase()}?`}
        description={removeDescription ?? `Shoppers will see ${name}'s initials instead.`}
        confirmLabel="Remove"
        pending={removing}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

/** A shop's logo and cover photo, on the admin's shop form and the manager's listing form. */
export function ShopImagesPanel({
  shopId,
  name,
  logo,
  cover,
}: {
  shopId: string;
  name: string;
  logo: string | null;
  cover: string | null;
}) {
  return (
    <ImagesSection title="Images" note={FORMATS_NOTE}>
      <div className="grid gap-6 md:grid-cols-2">
        <ImageUpload
          label="Logo"
          url={`/api/shops/${shopId}/logo`}
          image={logo}
          name={name}
          hint="Shown on shop cards, in search and in compare. Square works best."
        />
        <ImageUpload
          label="Cover photo"
          url={`/api/shops/${shopId}/cover`}
          image={cover}
          name={name}
          hint="Across the top of the shop's page. Wide works best."
          boxClassName="aspect-[16/9] w-72"
          wide
        />
      </div>
    </ImagesSection>
  );
}

/** A product's photo, on the admin's and the manager's product forms. */
export function ProductPhotoPanel({
  productId,
  name,
  image,
}: {
  productId: string;
  name: string;
  image: string | null;
}) {
  return (
    <ImagesSection title="Photo">
      <ImageUpload
        label="Photo"
        url={`/api/products/${productId}/photo`}
        image={image}
        name={name}
        hint={FORMATS_NOTE}
      />
    </ImagesSection>
  );
}

const FORMATS_NOTE = 'JPEG, PNG, WebP or AVIF, up to 10 MB. Saved as soon as chosen.';

/** The card an edit form's images sit in: a heading (the section's name), an optional note, the uploads. */
function ImagesSection({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  return (
    <Panel title={title} description={note}>
      <div className="mt-4">{children}</div>
    </Panel>
  );
}

/**
 * Sends one image to an upload route (PUT, multipart, field "file"), reporting progress (0–1). XHR, not
 * fetch: fetch reports no upload progress. Resolves with the image's key; any failure is an ApiError
 * carrying the server's message.
 */
export function uploadImage(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) {
    return Promise.reject(new ApiError(IMAGE_MESSAGES.tooLarge, { status: 413, code: 'FILE_TOO_LARGE' }));
  }
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.setRequestHeader(UPLOAD_HEADER, '1');
    request.setRequestHeader('accept', 'application/json');
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = request.response as { image?: string } | ApiErrorBody | null;
      if (request.status === 200 && body && 'image' in body && typeof body.image === 'string') {
        resolve(body.image);
        return;
      }
      const error = body && 'error' in body ? body.error : null;
      reject(
        new ApiError(error?.message ?? GENERIC_ERROR_MESSAGE, {
          status: request.status,
          code: error?.code ?? 'HTTP_ERROR',
        }),
      );
    };
    request.onerror = () => reject(new ApiError(GENERIC_ERROR_MESSAGE, { status: 0, code: 'NETWORK' }));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}

export function removeImage(url: string): Promise<{ image: null }> {
  return api(url, { method: 'DELETE' });
}
