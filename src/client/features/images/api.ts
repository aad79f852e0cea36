import { type ApiErrorBody, IMAGE_MESSAGES } from '../../../shared/errors';
import { MAX_IMAGE_BYTES, UPLOAD_HEADER } from '../../../shared/images';
import { ApiError, api, GENERIC_ERROR_MESSAGE } from '../../lib/api';

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
