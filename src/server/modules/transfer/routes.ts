import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  COLUMNS,
  EXPORT_KINDS,
  ExportQuery,
  IMPORT_KINDS,
  IMPORT_MAX_BYTES,
  ImportConfirmInput,
  type ImportKind,
  ImportRun,
  ImportStartQuery,
  TEMPLATE_EXAMPLE,
} from '../../../shared/transfer';
import type { Db, WorkerConnection } from '../../db/client';
import { errorAnswers, HttpError } from '../../errors';
import type { QueueTicket } from '../../lib/bounded-queue';
import { placeOrBusy } from '../../lib/jobs/limiter';
import { mallToday } from '../../lib/mall-time';
import { actorOf } from '../../write-path';
import { badFile, readRows, textChunks, tooLarge, utf8Body } from './csv';
import { csvText, exportStream } from './export';
import { IMPORTS_AT_ONCE, importRunStore } from './runs';

const RunParams = z.strictObject({ id: z.uuid('Import not found') });
const KindParams = z.strictObject({ kind: z.enum(IMPORT_KINDS, { error: 'Unknown kind of import' }) });
const ImportRunList = z.object({ items: z.array(ImportRun) });

/** A download's headers: CSV in UTF-8, saved under `name`, never cached (it is a person's data). */
/**
 * A file to save as `name` (RFC 6266): a plain-ASCII `filename` for old clients, and the name itself in
 * `filename*` (UTF-8, percent-encoded). A header holds no other characters: "商店-errors.csv" made it throw.
 */
function download(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`,
    'cache-control': 'no-store',
  };
}

/**
 * /api/export/<kind> and /api/imports (docs/decisions/022): admins only (the policy's `import`
 * resource). The upload is the CSV file itself as the request body (text/csv), parsed by this plugin
 * alone with its own size limit; every other route keeps JSON-only bodies and the 64 KB limit.
 */
/** A CSV file's answer (UTF-8 with a byte-order mark; written, never serialized). */
const CsvFile = {
  description: 'A CSV file: UTF-8 with a byte-order mark, every data cell quoted',
  // the file's text, or a stream of it (exports): written as it is, never serialized
  content: {
    'text/csv': { schema: z.custom<string | Readable>(() => true).meta({ contentMediaType: 'text/csv' }) },
  },
};

export const transferRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => Date;
  timeZone: string;
  leaseSeconds?: number;
  /** The import checks' own connection to the database (`Database.workerConnection`). */
  workerConnection: WorkerConnection;
}> = async (app, { db, now, timeZone, leaseSeconds, workerConnection }) => {
  const runs = importRunStore(db, now, leaseSeconds, workerConnection, timeZone);
  // The checks' child processes end with the server (tests open and close many apps).
  app.addHook('onClose', () => runs.close());
  const today = () => mallToday(timeZone, now());

  // The file as bytes: its encoding is checked before anything reads it as text.
  app.addContentTypeParser(
    ['text/csv', 'application/csv', 'application/vnd.ms-excel'],
    (request, payload, done) => {
      readUpload(payload, request.headers['content-length']).then(
        (body) => done(null, body),
        (error: Error) => done(error, undefined),
      );
    },
  );

  for (const kind of EXPORT_KINDS) {
    app.get(
      `/export/${kind}`,
      {
        config: { permission: { action: 'read', resource: 'import' } },
        schema: { querystring: ExportQuery[kind], response: { 200: CsvFile } },
      },
      async (request, reply) => {
        const stamp = now().toISOString().slice(0, 10);
        reply.headers(download(`${kind}-${stamp}.csv`));
        return reply.send(
          exportStream(db, kind, request.query as Record<string, unknown>, { today: today(), timeZone }),
        );
      },
    );
  }

  app.get(
    '/imports/template/:kind',
    {
      config: { permission: { action: 'read', resource: 'import' } },
      schema: { params: KindParams, response: { 200: CsvFile } },
    },
    async (request, reply) => {
      const { kind } = request.params;
      const columns = COLUMNS[kind];
      const example = columns.map((column) => TEMPLATE_EXAMPLE[kind][column] ?? '');
      // The rules are not rows of the file (they would be read as data): the import page shows them.
      reply.headers(download(`${kind}-template.csv`));
      return reply.send(csvText(columns, [example]));
    },
  );

  app.post(
    '/imports',
    {
      config: { permission: { action: 'create', resource: 'import' } },
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        querystring: ImportStartQuery,
        body: z.instanceof(Buffer, { error: 'Send the CSV file as the body, with Content-Type: text/csv' }),
        response: { 202: ImportRun },
      },
    },
    async (request, reply) => {
      // Each step in a turn of the event loop of its own (the body's last bytes and its validation came
      // in this one): together, on a large file, they held the loop ~20 ms (decision 022).
      await nextTurn();
      const body = await checkUpload(request.query.kind, request.body);
      await nextTurn();
      const run = await runs.start(
        actorOf(request),
        request.query.kind,
        request.query.fileName,
        body,
        placeFor(runs, reply),
      );
      return reply.status(202).send(run);
    },
  );

  app.get(
    '/imports',
    {
      config: { permission: { action: 'read', resource: 'import' } },
      schema: { response: { 200: ImportRunList } },
    },
    async () => ({ items: await runs.list() }),
  );

  app.get(
    '/imports/:id',
    {
      config: { permission: { action: 'read', resource: 'import' } },
      schema: { params: RunParams, response: { 200: ImportRun } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const run = await runs.get(request.params.id);
      // The run published in a job process: its changes reach this server's caches by notification. Whoever
      // reads "done" here and searches next sees the import, not the directory before it.
      if (run.status === 'done') await app.sessionChanges?.sync();
      return run;
    },
  );

  app.get(
    '/imports/:id/errors',
    {
      config: { permission: { action: 'read', resource: 'import' } },
      schema: { params: RunParams, response: { 200: CsvFile } },
    },
    async (request, reply) => {
      const { run, refused } = await runs.refused(request.params.id);
      const rows = refused.flatMap((row) =>
        row.errors.map((error) => [String(row.line), error.column, error.message]),
      );
      reply.headers(download(`${run.fileName.replace(/\.csv$/i, '')}-errors.csv`));
      return reply.send(csvText(['line', 'column', 'message'], rows));
    },
  );

  app.post(
    '/imports/:id/confirm',
    {
      config: { permission: { action: 'create', resource: 'import' } },
      // 409: another import is running, the run is not previewed yet, it has refused rows (and not
      // "valid rows only"), or the directory changed since its preview
      schema: {
        params: RunParams,
        body: ImportConfirmInput,
        response: { 202: ImportRun, ...errorAnswers(409) },
      },
    },
    async (request, reply) => {
      const run = await runs.confirm(
        actorOf(request),
        request.params.id,
        request.body.validOnly,
        placeFor(runs, reply),
      );
      return reply.status(202).send(run);
    },
  );
};

/**
 * The upload checked before its run is stored, so that a wrong file is a 400 at once: its size, UTF-8
 * (kept as bytes: stored as they are, read as text by the check), its header and first row (the rest is
 * the check's). Answers the bytes without their BOM.
 */
async function checkUpload(kind: ImportKind, bytes: Buffer): Promise<Buffer> {
  if (bytes.length > IMPORT_MAX_BYTES) throw tooLarge();
  const body = utf8Body(bytes);
  for await (const _row of readRows(kind, textChunks(body, HEADER_CHUNK_BYTES))) break;
  return body;
}

/**
 * Runs the upload's check and its query's validation on each kind's template a few times: their first
 * runs compile csv-parse's parser, the streams and zod's checks (9-45 ms for a first header read here),
 * which would otherwise hold the event loop during the first import after a start. The server's start
 * (main.ts) awaits it before it listens; tests skip it.
 */
export async function warmUploadCheck(rounds = 4): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const kind of IMPORT_KINDS) {
      ImportStartQuery.parse({ kind, fileName: `${kind}.csv` });
      const example = COLUMNS[kind].map((column) => TEMPLATE_EXAMPLE[kind][column] ?? '');
      await checkUpload(kind, Buffer.from(csvText(COLUMNS[kind], [example, example])));
    }
  }
}

/**
 * Bytes decoded at a time while the upload's header and first row are read. The parser reads each chunk
 * whole, so this is how much of the file the event loop parses to answer: 1 KB holds a header and a
 * first row of most files (a longer row takes more chunks); 8 KB was about 100 rows more.
 */
const HEADER_CHUNK_BYTES = 1024;

/**
 * The upload's bytes, copied as they arrive into one buffer of the declared length: no list of chunks
 * joined at the end (a 14 MB copy in one turn of the event loop). Over the limit: 413, at once when the
 * length says so, else as soon as the bytes do.
 */
async function readUpload(payload: AsyncIterable<Buffer>, declared: string | undefined): Promise<Buffer> {
  const length = declared === undefined ? Number.NaN : Number(declared);
  if (length > IMPORT_MAX_BYTES) throw tooLarge();
  if (Number.isSafeInteger(length) && length >= 0) {
    const body = Buffer.allocUnsafe(length);
    let at = 0;
    for await (const chunk of payload) {
      if (at + chunk.length > length) throw badFile('The upload is longer than its Content-Length');
      chunk.copy(body, at);
      at += chunk.length;
    }
    return at === length ? body : body.subarray(0, at);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of payload) {
    total += chunk.length;
    if (total > IMPORT_MAX_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/** A place among the imports this server runs at once, or 503 + Retry-After when they are taken. */
function placeFor(runs: { reserve(): QueueTicket | null }, reply: FastifyReply): QueueTicket {
  return placeOrBusy(
    runs,
    reply,
    () =>
      new HttpError(
        503,
        'IMPORTS_BUSY',
        `This server is already checking or running ${IMPORTS_AT_ONCE} imports. Try again when one of them is done.`,
      ),
  );
}
