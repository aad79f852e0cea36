// Reading and writing the CSV files of bulk import and export (docs/decisions/022): what a spreadsheet
// writes and reads (UTF-8 with a BOM, commas, quotes), formula injection kept out, and a clear message
// for every way a file can be wrong.
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse } from 'csv-parse';
import { COLUMNS, IMPORT_MAX_BYTES, type ImportKind, REQUIRED_COLUMNS } from '../../../shared/transfer';
import { HttpError } from '../../errors';

/** What a spreadsheet needs to open a CSV file as UTF-8 rather than its local code page. */
export const UTF8_BOM = '\uFEFF';

/** What a spreadsheet runs as a formula at the start of a cell (or trims, then runs what follows). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
/**
 * After these a spreadsheet may start a new cell or line inside our cell: a `;` or a tab (the separator of
 * spreadsheets set up for it, which split a quoted cell too — a quote counts only at a field's start) and
 * a line break (readers that split lines first).
 */
const CELL_BREAK = new Set([';', '\t', '\r', '\n']);

/**
 * A cell as written to a file: wherever a spreadsheet could start a cell (its start, and after each
 * CELL_BREAK) with what it would run as a formula, a `'` goes first (OWASP's advice) — `a;=1+1` is written
 * `a;'=1+1`. A `'` there gets one too, so that reading strips exactly one and a round trip gives the
 * value back.
 */
export function escapeCell(value: string): string {
  let out = '';
  let atStart = true;
  for (const char of value) {
    if (atStart && (FORMULA_START.has(char) || char === "'")) out += "'";
    out += char;
    atStart = CELL_BREAK.has(char);
  }
  return out;
}

/** A cell as read from a file: the export's escapes taken off again. */
export function unescapeCell(value: string): string {
  let out = '';
  let atStart = true;
  for (let i = 0; i < value.length; i++) {
    const next = value[i + 1] ?? '';
    // the escape: dropped, and what it escaped is kept as it is
    if (atStart && value[i] === "'" && (FORMULA_START.has(next) || next === "'")) i++;
    const char = value[i] as string;
    out += char;
    atStart = CELL_BREAK.has(char);
  }
  return out;
}

/** A file that cannot be read at all: 400 with what to do about it. */
export const badFile = (message: string) => new HttpError(400, 'BAD_FILE', message);

/**
 * The file's bytes as text: UTF-8, with or without a BOM. Anything else is named (UTF-16 by its BOM;
 * otherwise the first line that is not UTF-8, as a spreadsheet's "CSV" in a Windows code page is), and
 * so is a NUL byte (`refuseNul`).
 */
export function decodeFile(bytes: Uint8Array): string {
  if (bytes.length === 0) throw badFile('The file is empty');
  if (bytes.length > IMPORT_MAX_BYTES) throw tooLarge();
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw badFile('The file is UTF-16 text; save it as "CSV UTF-8" and upload it again');
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const lossy = new TextDecoder('utf-8').decode(body);
    const line = lossy.slice(0, lossy.indexOf('\uFFFD')).split('\n').length;
    throw badFile(
      `The file is not UTF-8 text (line ${line} is not); save it as "CSV UTF-8" and upload it again`,
    );
  }
  refuseNul(body);
  return text;
}

/**
 * A NUL (a zero byte) is no character of any cell, and the database's text cannot hold one: a file with
 * one is refused, naming its line (as a text editor counts them), before it is stored. UTF-16 saved
 * without its BOM has one after every Latin letter.
 */
function refuseNul(body: Uint8Array): void {
  const at = body.indexOf(0);
  if (at === -1) return;
  let line = 1;
  for (let from = body.indexOf(0x0a); from !== -1 && from < at; from = body.indexOf(0x0a, from + 1)) line++;
  throw badFile(
    `Line ${line} holds a NUL character (a zero byte), which a CSV file cannot hold; remove it (or save the file as "CSV UTF-8") and upload it again`,
  );
}

/**
 * The file's bytes without their BOM, checked as `decodeFile` checks them (UTF-8, no NUL) but without
 * making them a string (an upload of 40 MB would hold the event loop while decoded): the server stores
 * the bytes as they are and the check's worker reads them as text.
 */
export function utf8Body(bytes: Uint8Array): Buffer {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start);
  // decodeFile says what is wrong, and where (UTF-16's bytes are never UTF-8 either).
  if (bytes.length === 0 || bytes.length > IMPORT_MAX_BYTES || !isUtf8(body)) decodeFile(bytes);
  refuseNul(body);
  return body;
}

/** UTF-8 bytes as text, a chunk at a time as the reader asks (a character split between chunks kept whole). */
export async function* textChunks(bytes: Uint8Array, chunkBytes = 64 * 1024): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for (let at = 0; at < bytes.length; at += chunkBytes)
    yield decoder.decode(bytes.subarray(at, at + chunkBytes), { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

export const tooLarge = () =>
  new HttpError(
    413,
    'FILE_TOO_LARGE',
    `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB; split it into smaller files`,
  );

/** A header cell as a column name: any case, spaces as underscores ("Opening Hours" → opening_hours). */
const columnName = (cell: string) => cell.trim().toLowerCase().replace(/\s+/g, '_');

/** One data row: its line in the file (the header is line 1) and its cells by column. */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

/** Checks the header row: every column known, none twice, the required ones there. */
export function checkHeader(kind: ImportKind, header: string[]): string[] {
  const columns = header.map(columnName);
  const known: readonly string[] = COLUMNS[kind];
  if (columns.length === 1 && /[;\t|]/.test(header[0] ?? '')) {
    const separator = header[0]?.includes(';') ? 'semicolons' : header[0]?.includes('\t') ? 'tabs' : 'bars';
    throw badFile(
      `The columns are separated by ${separator}; use commas (save as "CSV UTF-8 (comma delimited)")`,
    );
  }
  const unknown = columns.filter((column) => !known.includes(column));
  if (unknown.length > 0) {
    throw badFile(
      `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Columns: ${known.join(', ')}`,
    );
  }
  const twice = columns.filter((column, i) => columns.indexOf(column) !== i);
  if (twice.length > 0) throw badFile(`Column ${twice[0]} appears twice`);
  const missing = REQUIRED_COLUMNS[kind].filter((column) => !columns.includes(column));
  if (
    (kind === 'products' || kind === 'offers') &&
    !columns.includes('shop') &&
    !columns.includes('shop_code')
  )
    missing.unshift('shop or shop_code');
  if (missing.length > 0) {
    throw badFile(`Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  }
  return columns;
}

/** csv-parse's refusals, said for a person with a spreadsheet. */
function csvProblem(error: CsvError, headerCells: number): HttpError {
  const line = error.lines ?? 1;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return badFile(`A quote opened on line ${line} is never closed`);
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return badFile(
        `Line ${line} has ${(error.record as unknown[] | undefined)?.length ?? 'a different number of'} cells; the header has ${headerCells || 'another number'}`,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return badFile(`Line ${line}: a quote inside a quoted cell must be doubled ("")`);
    default:
      return badFile(`Line ${line} cannot be read as CSV`);
  }
}

/** The header's cells, counted roughly (for a message only). */
const headerWidth = (text: string) => (text.split(/\r?\n/, 1)[0] ?? '').split(',').length;

/** How many rows are read between two turns of the event loop: each slice takes a few milliseconds. */
const SLICE_ROWS = 200;
const CHUNK_CHARS = 64 * 1024;

/** A file's text: whole, or in chunks (the check's worker reads it from the database a chunk at a time). */
export type CsvSource = string | AsyncIterable<string>;

/**
 * The rows of a CSV text, the header checked first. Fed to the parser in chunks and yielded in slices
 * with a turn of the event loop between them, so reading 200,000 rows never blocks other requests.
 */
export async function* readRows(kind: ImportKind, source: CsvSource): AsyncGenerator<CsvRow> {
  let first = '';
  async function* chunks() {
    if (typeof source === 'string') {
      first = source.slice(0, CHUNK_CHARS);
      for (let at = 0; at < source.length; at += CHUNK_CHARS) yield source.slice(at, at + CHUNK_CHARS);
      return;
    }
    for await (const chunk of source) {
      if (!first) first = chunk.slice(0, CHUNK_CHARS);
      yield chunk;
    }
  }
  const text = Readable.from(chunks());
  const parser = text.pipe(parse({ relax_column_count: false, skip_empty_lines: true, info: true }));
  // A chunk that cannot be read (the check's query for it failed) fails the rows: pipe() does not pass
  // the source's errors on. Once the rows have ended (a parse error, the reader done), a read still in
  // flight that fails afterwards (its connection closed) is nobody's: without this listener it crashed
  // the check's process.
  text.on('error', (error) => parser.destroy(error));
  let columns: string[] | null = null;
  let sinceTurn = 0;
  let crlfInQuotes = 0;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (columns === null) {
        columns = checkHeader(kind, item.record);
        continue;
      }
      // Where the record starts: where it ends, less the line breaks inside its quoted cells. csv-parse
      // counts a CR LF inside quotes as two lines, so its count runs ahead by one for each so far.
      const breaks = item.record.reduce((n, cell) => n + (cell.match(/\r\n|\n|\r/g)?.length ?? 0), 0);
      crlfInQuotes += item.record.reduce((n, cell) => n + (cell.match(/\r\n/g)?.length ?? 0), 0);
      const cells: Record<string, string> = {};
      columns.forEach((column, i) => {
        cells[column] = unescapeCell(item.record[i] ?? '');
      });
      yield { line: item.info.lines - crlfInQuotes - breaks, cells };
      if (++sinceTurn >= SLICE_ROWS) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  } catch (error) {
    if (error instanceof CsvError) throw csvProblem(error, columns?.length ?? headerWidth(first));
    throw error;
  } finally {
    parser.destroy();
    text.destroy();
  }
  if (columns === null) throw badFile('The file is empty');
}
