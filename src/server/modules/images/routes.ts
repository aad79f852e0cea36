import fastifyMultipart from '@fastify/multipart';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditEntityType } from '../../../shared/audit';
import { IMAGE_MESSAGES } from '../../../shared/errors';
import {
  IMAGE_KEY_PATTERN,
  IMAGE_VARIANT_PATTERN,
  MAX_IMAGE_BYTES,
  parseImageKey,
  UPLOAD_HEADER,
} from '../../../shared/images';
import type { Permission, Resource } from '../../../shared/permissions';
import { authorizeRecord } from '../../auth/record-guard';
import type { Db } from '../../db/client';
import { events, floors, mallProfile, products, shops } from '../../db/schema';
import { errorAnswers, HttpError, NotModified } from '../../errors';
import { BoundedQueue, turnIn } from '../../lib/bounded-queue';
import { type Executor, routeWriter } from '../../write-path';
import { freeVariants, type ImageWorkers, imageWorkers, type UploadJob } from './image-workers';
import { CONTENT_TYPES, type ProcessedImage } from './pipeline';
import type { ImageStore } from './store';

/**
 * A place an image goes (docs/decisions/020): a shop's logo and cover photo, a product's photo, a floor's
 * plan, the mall's logo (docs/decisions/034). Each has an upload route (PUT, multipart) and a removal
 * route (DELETE); both are changes to the record, audited as its update, allowed by the policy as that
 * record's update.
 */
interface Slot {
  /** The path under /api: "/shops/:id/logo". */
  path: string;
  resource: Extract<Resource, 'shop' | 'product' | 'floor' | 'mall' | 'event'>;
  /**
   * A table of one row (the mall's profile): no id in the path, the row's own id instead, and the log
   * names the record by this name with no entity id (as the mall's other settings are logged).
   */
  singleton?: { id: string; entityName: string };
  entityType: AuditEntityType;
  notFound: string;
  /** The field a shop manager's permission is judged by (permissions.ts MANAGER_SHOP_FIELDS). */
  field: string;
  /** How the log names the change. */
  label: string;
  table: PgTable;
  column: PgColumn;
  name: PgColumn;
  shopId: PgColumn | null;
}

const SLOTS: Slot[] = [
  {
    path: '/shops/:id/logo',
    resource: 'shop',
    entityType: 'shop',
    notFound: 'Shop not found',
    field: 'logo',
    label: 'logo',
    table: shops,
    column: shops.logoImage,
    name: shops.name,
    shopId: shops.id,
  },
  {
    path: '/shops/:id/cover',
    resource: 'shop',
    entityType: 'shop',
    notFound: 'Shop not found',
    field: 'cover',
    label: 'cover photo',
    table: shops,
    column: shops.coverImage,
    name: shops.name,
    shopId: shops.id,
  },
  {
    path: '/products/:id/photo',
    resource: 'product',
    entityType: 'product',
    notFound: 'Product not found',
    field: 'photo',
    label: 'photo',
    table: products,
    column: products.image,
    name: products.name,
    shopId: products.shopId,
  },
  {
    path: '/floors/:id/plan',
    resource: 'floor',
    entityType: 'floor',
    notFound: 'Floor not found',
    field: 'plan',
    label: 'plan',
    table: floors,
    column: floors.planImage,
    name: floors.name,
    shopId: null,
  },
  {
    // An event's picture (docs/decisions/036): the mall office's, as it goes live with no review.
    path: '/events/:id/image',
    resource: 'event',
    entityType: 'event',
    notFound: 'Event not found',
    field: 'image',
    label: 'image',
    table: events,
    column: events.image,
    name: events.title,
    shopId: events.shopId,
  },
  {
    // The public pages' and the structured data's logo of the mall (modules/mall-profile).
    path: '/mall/profile/logo',
    resource: 'mall',
    entityType: 'mall',
    singleton: { id: '1', entityName: 'Mall profile' },
    notFound: 'The mall profile is missing',
    field: 'logo',
    label: 'logo',
    table: mallProfile,
    column: mallProfile.logoImage,
    name: mallProfile.name,
    shopId: null,
  },
];

export const ImageAnswer = z.object({
  /** The image's key ("<hash>-<width>x<height>"), or null once removed. */
  image: z.string().nullable(),
});

/** How the log shows an image: its size and the start of its hash (enough to tell two apart). */
export const describeImage = (key: string | null) => {
  const image = parseImageKey(key);
  return image ? `${image.width} × ${image.height} image ${image.key.slice(0, 8)}` : null;
};

interface Current {
  id: string;
  name: string;
  shopId: string | null;
  image: string | null;
}

async function readCurrent(slot: Slot, tx: Executor, id: string, lock: boolean): Promise<Current | null> {
  const id$ = (slot.table as unknown as { id: PgColumn }).id;
  const query = tx
    .select({
      id: id$,
      name: slot.name,
      shopId: slot.shopId ?? sql<null>`null`,
      image: slot.column,
    })
    .from(slot.table)
    .where(eq(id$, id));
  const [row] = lock ? await query.for('update') : await query;
  return (row as Current | undefined) ?? null;
}

const IdParams = z.strictObject({ id: z.uuid('Not found') });
/** The record's id: the path's, or a one-row table's own. */
const idOf = (slot: Slot, params: unknown) => slot.singleton?.id ?? (params as { id: string }).id;
/** Who the log names: the record by its name and id, or a one-row table by its own name. */
const logged = (slot: Slot, id: string, current: Current) =>
  slot.singleton
    ? { entityId: null, entityName: slot.singleton.entityName }
    : { entityId: id, entityName: current.name };
const ImageParams = z.strictObject({
  key: z.string().regex(IMAGE_KEY_PATTERN, 'Image not found'),
  variant: z.string().regex(IMAGE_VARIANT_PATTERN, 'Image not found'),
});

/** An image variant's answer: its bytes, WebP or AVIF as the variant's name says (never serialized). */
const ImageBytes = {
  description: "The variant's bytes: WebP or AVIF, as its name says",
  content: Object.fromEntries(
    Object.values(CONTENT_TYPES).map((type) => [
      type,
      { schema: z.instanceof(Buffer).meta({ contentMediaType: type }) },
    ]),
  ),
};

/**
 * Reads the one file of a multipart upload into an image worker as it arrives, refusing anything else
 * with the catalogue's words; once the body is whole and valid, the worker's processed image. The file's
 * pieces are moved to the worker (copied when they share memory) as they arrive: no whole file, no
 * decoding's buffers on this thread's heap (docs/decisions/020).
 */
async function readUpload(request: FastifyRequest, workers: ImageWorkers): Promise<ProcessedImage> {
  if (!request.isMultipart()) throw new HttpError(415, 'NOT_MULTIPART', IMAGE_MESSAGES.noFile);
  let job: UploadJob | null = null;
  try {
    // Every part is read to the end: a second file or any field is refused, not silently ignored.
    for await (const part of request.parts()) {
      if (part.type !== 'file' || job !== null) throw new HttpError(400, 'ONE_FILE', IMAGE_MESSAGES.oneFile);
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new HttpError(400, 'WRONG_FIELD', IMAGE_MESSAGES.wrongField);
      }
      job = await workers.begin();
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        if (part.file.truncated) throw new HttpError(413, 'FILE_TOO_LARGE', IMAGE_MESSAGES.tooLarge);
        job.push(chunk);
      }
      if (part.file.truncated) throw new HttpError(413, 'FILE_TOO_LARGE', IMAGE_MESSAGES.tooLarge);
    }
  } catch (error) {
    job?.abort();
    throw uploadError(error);
  }
  if (!job) throw new HttpError(400, 'NO_FILE', IMAGE_MESSAGES.noFile);
  return job.finish();
}

function uploadError(error: unknown): HttpError {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, 'FILE_TOO_LARGE', IMAGE_MESSAGES.tooLarge);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new HttpError(400, 'ONE_FILE', IMAGE_MESSAGES.oneFile);
  if (error instanceof HttpError) return error;
  return new HttpError(400, 'BAD_UPLOAD', IMAGE_MESSAGES.noFile);
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Uploads read and decoded at once, and uploads waiting for a turn; past that, 503 + Retry-After. An
 * upload's body is read only when its turn comes (until then it waits in the socket), so memory holds at
 * most UPLOADS_AT_ONCE files of 10 MB and their decoding, however many arrive: 40 at once took the server
 * from 578 to 988 MB before this bound. libvips spreads one image over every core already.
 */
const UPLOADS_AT_ONCE = 2;
const UPLOADS_WAITING = 8;

/**
 * /api/images/:key/:variant (public: content-addressed, unguessable, immutable) and, per slot, the
 * removal route. The uploads are in their own plugin below: the multipart parser exists only there.
 */
export const imageRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date; store: ImageStore }> = async (
  app,
  { db, now, store },
) => {
  const write = routeWriter(db, now);

  app.get(
    '/images/:key/:variant',
    {
      schema: { params: ImageParams, response: { 200: ImageBytes, 304: NotModified, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      const { key, variant } = request.params;
      const etag = `"${key}/${variant}"`;
      const format = variant.split('.')[1] as keyof typeof CONTENT_TYPES;
      reply.header('cache-control', IMMUTABLE).header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const bytes = await store.read(key, variant);
      if (!bytes) {
        reply.header('cache-control', 'no-store').removeHeader('etag');
        throw new HttpError(404, 'NOT_FOUND', 'Image not found');
      }
      return reply.type(CONTENT_TYPES[format]).send(bytes);
    },
  );

  for (const slot of SLOTS) {
    const permission: Permission = { action: 'update', resource: slot.resource };
    app.delete(
      slot.path,
      {
        config: { permission },
        schema: {
          ...(slot.singleton ? {} : { params: IdParams }),
          response: { 200: ImageAnswer, ...errorAnswers(404) },
        },
      },
      async (request) => {
        const id = idOf(slot, request.params);
        const removed = await write(request, async ({ tx, record }) => {
          const current = await readCurrent(slot, tx, id, true);
          await authorize(request, slot, current);
          if (!current) throw new HttpError(404, 'NOT_FOUND', slot.notFound);
          if (current.image === null) return null;
          await tx
            .update(slot.table)
            .set({ [columnKey(slot)]: null })
            .where(eq((slot.table as unknown as { id: PgColumn }).id, id));
          record({
            entityType: slot.entityType,
            ...logged(slot, id, current),
            shopId: current.shopId,
            action: 'update',
            before: { [slot.label]: describeImage(current.image) },
            after: { [slot.label]: null },
          });
          return current.image;
        });
        await store.release([removed]);
        return { image: null };
      },
    );
  }

  const processing = new BoundedQueue(UPLOADS_AT_ONCE, UPLOADS_WAITING);
  // One worker per upload decoded at once, started on the first upload, stopped with the app.
  const workers = imageWorkers(UPLOADS_AT_ONCE);
  app.addHook('onClose', () => workers.close());

  await app.register(async (plain) => {
    const uploads = plain.withTypeProvider<ZodTypeProvider>();
    // Only these routes read multipart bodies; every other route keeps refusing them (request-guards.ts).
    await uploads.register(fastifyMultipart, {
      limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 0, parts: 1 },
      throwFileSizeLimit: true,
    });
    // A cross-site form may send multipart without a preflight; it can never add this header.
    uploads.addHook('preValidation', async (request) => {
      if (request.headers[UPLOAD_HEADER] !== '1') {
        throw new HttpError(403, 'UPLOAD_HEADER', IMAGE_MESSAGES.uploadHeader);
      }
    });
    for (const slot of SLOTS) {
      const permission: Permission = { action: 'update', resource: slot.resource };
      uploads.put(
        slot.path,
        {
          config: { permission },
          // The whole request: the file and the form's framing.
          bodyLimit: MAX_IMAGE_BYTES + 64 * 1024,
          // Refused uploads: not one file in the field "file" (400), not multipart (415), over 10 MB (413),
          // not an image that can be used (422).
          schema: {
            ...(slot.singleton ? {} : { params: IdParams }),
            response: { 200: ImageAnswer, ...errorAnswers(400, 404, 413, 415, 422) },
          },
        },
        async (request, reply) => {
          const id = idOf(slot, request.params);
          // Who may, before any work: the record's shop decides for a manager.
          const found = await readCurrent(slot, db, id, false);
          await authorize(request, slot, found);
          if (!found) throw new HttpError(404, 'NOT_FOUND', slot.notFound);
          const image = await turnIn(processing, reply).run(() => readUpload(request, workers));
          let replaced: string | null = null;
          try {
            await store.withKey(image.key, () =>
              write(request, async ({ tx, record }) => {
                const current = await readCurrent(slot, tx, id, true);
                await authorize(request, slot, current);
                if (!current) throw new HttpError(404, 'NOT_FOUND', slot.notFound);
                await store.save(tx, image);
                await tx
                  .update(slot.table)
                  .set({ [columnKey(slot)]: image.key })
                  .where(eq((slot.table as unknown as { id: PgColumn }).id, id));
                replaced = current.image === image.key ? null : current.image;
                record({
                  entityType: slot.entityType,
                  ...logged(slot, id, current),
                  shopId: current.shopId,
                  action: 'update',
                  before: { [slot.label]: describeImage(current.image) },
                  after: { [slot.label]: describeImage(image.key) },
                });
              }),
            );
          } catch (error) {
            // Files written for a write that did not commit.
            await store.release([image.key]);
            throw error;
          } finally {
            freeVariants(image);
          }
          await store.release([replaced]);
          return { image: image.key };
        },
      );
    }
  });
};

/** The drizzle property name of the slot's column (for `.set`). */
function columnKey(slot: Slot): string {
  const columns = slot.table as unknown as Record<string, unknown>;
  const found = Object.keys(columns).find((key) => columns[key] === slot.column);
  if (!found) throw new Error(`no column for ${slot.path}`);
  return found;
}

/** The policy, for this record: a manager may change their own shop's images and products' photos. */
async function authorize(request: FastifyRequest, slot: Slot, current: Current | null): Promise<void> {
  await authorizeRecord(request, 'update', slot.resource, async () =>
    current
      ? {
          shopId: current.shopId ?? undefined,
          fields: slot.resource === 'shop' || slot.resource === 'event' ? [slot.field] : undefined,
        }
      : null,
  );
}
