import { parse } from 'csv-parse/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Synonym, SynonymInput, SynonymList } from '../../../shared/insights';
import type { Db } from '../../db/client';
import { errorAnswers, HttpError, NoContent } from '../../errors';
import { routeWriter } from '../../write-path';
import {
  synonymName,
  synonymNotFound,
  synonymRepository,
  synonymSnapshot,
  synonymWriteError,
} from './repository';

const IdParams = z.strictObject({ id: z.uuid('Not found') });

/** Rows one synonyms file may have: a mall's list is dozens, not thousands. */
export const SYNONYM_IMPORT_MAX_ROWS = 2_000;
const IMPORT_BODY_LIMIT = 256 * 1024;
const SynonymImportResult = z.object({ created: z.number().int(), updated: z.number().int() });

/** The file's rows as inputs, or a 400 naming each row that is wrong (nothing is written then). */
function synonymRows(text: string): SynonymInput[] {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true });
  } catch {
    throw new HttpError(400, 'BAD_FILE', 'This is not a CSV file the import can read');
  }
  const [header, ...rows] = records;
  const columns = (header ?? []).map((cell) => cell.trim().toLowerCase());
  const termAt = columns.indexOf('term');
  const replacementAt = columns.indexOf('replacement');
  if (termAt < 0 || replacementAt < 0)
    throw new HttpError(400, 'BAD_FILE', 'The file needs the columns term and replacement');
  if (rows.length > SYNONYM_IMPORT_MAX_ROWS)
    throw new HttpError(400, 'BAD_FILE', `At most ${SYNONYM_IMPORT_MAX_ROWS} synonyms in one file`);
  const fields: Record<string, string> = {};
  const inputs: SynonymInput[] = [];
  rows.forEach((row, index) => {
    const parsed = SynonymInput.safeParse({ term: row[termAt] ?? '', replacement: row[replacementAt] ?? '' });
    // Row numbers as a spreadsheet shows them: the header is row 1.
    if (!parsed.success) fields[`row ${index + 2}`] = parsed.error.issues[0]?.message ?? 'Invalid row';
    else inputs.push(parsed.data);
  });
  const first = Object.entries(fields)[0];
  if (first) throw new HttpError(400, 'VALIDATION', `${first[0]}: ${first[1]}`, fields);
  return inputs;
}

/**
 * Search synonyms (docs/decisions/035): the mall office adds "loo → toilets" and every server's search
 * uses it at once (the table's trigger raises the catalogue version; search reads the synonyms per version).
 */
export const synonymRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => Date }> = async (app, { db, now }) => {
  const repository = synonymRepository(db);
  const write = routeWriter(db, now, synonymWriteError);

  app.get(
    '/',
    {
      config: { permission: { action: 'read', resource: 'synonym' } },
      schema: { response: { 200: SynonymList } },
    },
    async () => ({ items: await repository.list() }),
  );

  app.post(
    '/',
    {
      config: { permission: { action: 'create', resource: 'synonym' } },
      schema: { body: SynonymInput, response: { 201: Synonym, ...errorAnswers(409) } },
    },
    async (request, reply) => {
      const synonym = await write(request, async ({ tx, record }) => {
        const created = await repository.insert(tx, request.body);
        record({
          entityType: 'synonym',
          entityId: created.id,
          entityName: synonymName(created),
          action: 'create',
          after: synonymSnapshot(created),
        });
        return created;
      });
      return reply.status(201).send(synonym);
    },
  );

  // The synonyms kind of the CSV import (docs/import-export.md): the file exported from
  // /api/export/synonyms, edited and sent back. All or nothing; each row upserted by its term, audited.
  app.addContentTypeParser(
    ['text/csv', 'application/csv'],
    { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/import',
    {
      config: { permission: { action: 'create', resource: 'synonym' } },
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        body: z.string({ error: 'Send the CSV file as the body, with Content-Type: text/csv' }),
        response: { 200: SynonymImportResult, ...errorAnswers(409) },
      },
    },
    async (request) => {
      const inputs = synonymRows(request.body);
      return write(request, async ({ tx, record }) => {
        let created = 0;
        let updated = 0;
        for (const input of inputs) {
          const { before, after } = await repository.upsert(tx, input);
          if (before) {
            if (before.replacement === after.replacement) continue;
            updated += 1;
            record({
              entityType: 'synonym',
              entityId: after.id,
              entityName: synonymName(after),
              action: 'update',
              before: synonymSnapshot(before),
              after: synonymSnapshot(after),
            });
          } else {
            created += 1;
            record({
              entityType: 'synonym',
              entityId: after.id,
              entityName: synonymName(after),
              action: 'create',
              after: synonymSnapshot(after),
            });
          }
        }
        return { created, updated };
      });
    },
  );

  app.delete(
    '/:id',
    {
      config: { permission: { action: 'delete', resource: 'synonym' } },
      schema: { params: IdParams, response: { 204: NoContent, ...errorAnswers(404) } },
    },
    async (request, reply) => {
      await write(request, async ({ tx, record }) => {
        const deleted = await repository.delete(tx, request.params.id);
        if (!deleted) throw synonymNotFound();
        record({
          entityType: 'synonym',
          entityId: deleted.id,
          entityName: synonymName(deleted),
          action: 'delete',
          before: synonymSnapshot(deleted),
        });
      });
      return reply.status(204).send();
    },
  );
};
