/**
 * Personalised messages from a contacts sheet (docs/messaging.md, *Personalised messages from a
 * contacts sheet*): the sheet is read as a contacts import reads it (Phone and Name columns,
 * numbers normalized, repeats and invalid rows explained), the text's placeholders are matched to
 * its columns, and each row's message is filled from that row by `fillPlaceholders` — one rule for
 * the preview, the job and the tests. Nothing is sent half-filled: a placeholder naming no column
 * refuses the whole send, a row with an empty value for one is listed (left out, or the send
 * stops), a cell holding a hidden character refuses its row, as every import does.
 */
import { AppError } from '../../shared/appError';
import { quotedList } from '../../shared/excerpt';
import type { FileRef } from '../../shared/contract/files';
import type { IncompleteRow, MessageJobView, RowProblem, SheetMessagesPreview } from '../../shared/contract/messaging';
import { columnFor, fillPlaceholders, headingKey, parseMessageText, placeholderText } from '../../shared/messagePlaceholders';
import { messageCost } from '../../shared/messagingCost';
import type { App } from '../appContext';
import { releaseUpload } from '../files';
import { hiddenCellTextFor, hiddenInCell, textFromCell, type CellValue } from '../imports';
import { readContactsSheet, type ContactsSheet } from './contactsImport';
import { costChanged } from './paidSends';
import { createPersonalisedMessages, type PersonalisedMessage } from './personalisedMessages';

/** Rows explained in an answer; the counts are always complete. */
const ROWS_SHOWN = 200;
/** Filled messages shown before sending. */
const SAMPLE = 5;
/** The longest message: 10 pages. */
const MAX_MESSAGE_CHARS = 1600;

interface SheetMessages {
  preview: SheetMessagesPreview;
  /** Every complete row's message, in the sheet's order. */
  messages: (PersonalisedMessage & { row: number })[];
  fileHash: string;
  /** Placeholders no column matches. */
  unknown: string[];
  /** Every incomplete row (the preview shows the first). */
  incomplete: IncompleteRow[];
}

/** A cell as a placeholder puts it in a message: text as typed, a whole number as digits, a date as DD/MM/YYYY. */
function placeholderValue(cell: CellValue): string {
  if (cell instanceof Date) {
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(cell.getUTCDate())}/${two(cell.getUTCMonth() + 1)}/${cell.getUTCFullYear()}`;
  }
  if (typeof cell === 'number' && !Number.isInteger(cell)) return String(Number(cell.toPrecision(15)));
  return textFromCell(cell);
}

/** The column each placeholder fills from: its heading, else (`{name}`, `{phone}`) the column the importer reads as Name or Phone. */
function placeholderColumns(placeholders: readonly string[], sheet: ContactsSheet): { name: string; column: number | null; ambiguous: number[] }[] {
  const { headers } = sheet.table;
  return placeholders.map((name) => {
    const match = columnFor(name, headers);
    if (match.kind === 'column') return { name, column: match.index, ambiguous: [] };
    if (match.kind === 'ambiguous') return { name, column: null, ambiguous: match.indexes };
    const key = headingKey(name);
    const alias = key === 'name' ? sheet.mapping.name : key === 'phone' ? sheet.mapping.phone : null;
    return { name, column: alias, ambiguous: [] };
  });
}

/** Reads the sheet and fills the text for each of its rows. */
export async function readSheetMessages(app: App, input: { file: FileRef; sheet?: string; text: string }, signal?: AbortSignal): Promise<SheetMessages> {
  const sheet = await readContactsSheet(app, input.file, input.sheet, undefined, signal);
  const { table, mapping, validation } = sheet;
  const parsed = parseMessageText(input.text);
  const columns = parsed.ok ? placeholderColumns(parsed.placeholders, sheet) : [];
  const unknown = columns.filter((c) => c.column === null).map((c) => c.name);
  const usable = parsed.ok && unknown.length === 0;

  const invalid: RowProblem[] = validation.invalid.map((r) => ({ row: r.row, message: r.issues.map((i) => i.message).join('; ') }));
  const incomplete: IncompleteRow[] = [];
  const messages: SheetMessages['messages'] = [];
  if (usable) {
    const cellsOf = new Map(table.rows.map((r) => [r.row, r.cells]));
    for (const contact of validation.valid) {
      const cells = cellsOf.get(contact.row) ?? [];
      const values: Record<string, string> = {};
      let refused: string | null = null;
      for (const { name, column } of columns) {
        if (column === null) continue;
        if (column === mapping.phone) {
          values[name] = contact.phone;
          continue;
        }
        const cell = cells[column] ?? null;
        const hidden = typeof cell === 'string' ? hiddenInCell(cell) : null;
        if (hidden && !hidden.ok) {
          refused = hiddenCellTextFor(`"${table.headers[column]}"`, column, hidden.character);
          break;
        }
        values[name] = placeholderValue(hidden ? hidden.text : cell);
      }
      if (refused) {
        invalid.push({ row: contact.row, message: `Row ${contact.row}: ${refused}; fix or exclude the row` });
        continue;
      }
      const filled = fillPlaceholders(parsed, values);
      if (!filled.ok) {
        incomplete.push({ row: contact.row, phone: contact.phone, empty: filled.empty });
        continue;
      }
      const length = [...filled.text].length;
      if (length > MAX_MESSAGE_CHARS) {
        invalid.push({
          row: contact.row,
          message: `Row ${contact.row}: the message for ${contact.phone} would be ${length.toLocaleString('en-NG')} characters, more than the 1,600 (10 pages) a message can hold; shorten its values or the text; fix or exclude the row`,
        });
        continue;
      }
      messages.push({ row: contact.row, phone: contact.phone, text: filled.text });
    }
    invalid.sort((a, b) => a.row - b.row);
  }
  const pages = messages.map((m) => messageCost({ text: m.text, recipients: 1, emails: 0 }));
  const preview: SheetMessagesPreview = {
    fileName: sheet.fileName,
    format: sheet.format,
    sheetNames: sheet.sheetNames,
    sheet: table.sheetName,
    headers: table.headers,
    phoneColumn: mapping.phone === null ? null : (table.headers[mapping.phone] ?? null),
    rows: table.rows.length,
    textProblems: parsed.ok ? [] : parsed.problems.map((p) => p.message),
    placeholders: columns.map((c) => ({ name: c.name, column: c.column === null ? null : (table.headers[c.column] ?? null) })),
    sample: messages.slice(0, SAMPLE).map((m, i) => ({ row: m.row, phone: m.phone, text: m.text, pages: pages[i].pages })),
    messages: messages.length,
    smsKobo: pages.reduce((sum, p) => sum + p.smsKobo, 0),
    pages: {
      fewest: pages.length ? Math.min(...pages.map((p) => p.pages)) : 0,
      most: pages.length ? Math.max(...pages.map((p) => p.pages)) : 0,
      total: pages.reduce((sum, p) => sum + p.pages, 0),
    },
    incompleteCount: incomplete.length,
    incomplete: incomplete.slice(0, ROWS_SHOWN),
    invalidCount: invalid.length,
    invalid: invalid.slice(0, ROWS_SHOWN),
    duplicateCount: validation.duplicates.length,
    duplicates: validation.duplicates
      .slice(0, ROWS_SHOWN)
      .map((d) => ({ row: d.row, message: `Row ${d.row}: ${d.phone} is already on row ${d.firstRow}; it receives one message, row ${d.firstRow}'s` })),
  };
  return { preview, messages, fileHash: sheet.fileHash, unknown, incomplete };
}

/** `Row 4 ({Data allowance}), Row 9 ({Name}, {Month})` for the first few incomplete rows. */
function incompleteList(rows: readonly IncompleteRow[]): string {
  const shown = rows.slice(0, 5).map((r) => `Row ${r.row} (${r.empty.map(placeholderText).join(', ')})`);
  return rows.length > 5 ? `${shown.join(', ')} and ${(rows.length - 5).toLocaleString('en-NG')} more` : shown.join(', ');
}

/**
 * Sends each complete row of the sheet its own message, as a job (personalisedMessages.ts), once
 * the text, the rows and the cost the user confirmed are checked again on the file as it is now.
 */
export async function sendSheetMessages(
  app: App,
  input: { file: FileRef; sheet?: string; text: string; senderId: string; skipEmpty: boolean; skipInvalid: boolean; confirmedTotalKobo: number; wait: boolean },
  signal?: AbortSignal,
): Promise<MessageJobView> {
  const session = app.session();
  const read = await readSheetMessages(app, input, signal);
  const { preview } = read;
  if (preview.textProblems.length > 0) {
    throw new AppError('message_text_invalid', preview.textProblems.join(' '), 'Correct the text, then send again. Nothing was sent.');
  }
  if (read.unknown.length > 0) {
    const some = read.unknown.length === 1;
    throw new AppError(
      'placeholder_unknown',
      `The text uses ${read.unknown.map(placeholderText).join(', ')}, but the sheet has no column ${some ? 'with that heading' : 'with those headings'} (or has two). Its columns are ${quotedList(preview.headers)}. Nothing was sent.`,
      `Write a placeholder as a column's heading in braces, like {${preview.headers[0] ?? 'Name'}}, or rename the column in the sheet.`,
      { placeholders: preview.placeholders },
    );
  }
  if (read.incomplete.length > 0 && !input.skipEmpty) {
    const n = read.incomplete.length;
    throw new AppError(
      'rows_incomplete',
      `${n.toLocaleString('en-NG')} row${n === 1 ? ' has' : 's have'} an empty value for a placeholder: ${incompleteList(read.incomplete)}. Nothing was sent.`,
      'Fill in those cells and send again, or leave those rows out.',
      { incomplete: preview.incomplete },
    );
  }
  if (preview.invalidCount > 0 && !input.skipInvalid) {
    const n = preview.invalidCount;
    throw new AppError(
      'invalid_rows',
      `${n.toLocaleString('en-NG')} row${n === 1 ? '' : 's'} of the sheet cannot be sent a message (${preview.invalid[0].message}${n > 1 ? ', …' : ''}). Nothing was sent.`,
      'Fix those rows and send again, or leave them out.',
      { invalid: preview.invalid },
    );
  }
  if (read.messages.length === 0) {
    throw new AppError('rows_incomplete', 'No row of the sheet can be sent a message. Nothing was sent.', 'Check the rows listed, fill in the sheet and send again.');
  }
  if (preview.smsKobo !== input.confirmedTotalKobo) {
    throw costChanged(preview.smsKobo, input.confirmedTotalKobo, `${preview.messages.toLocaleString('en-NG')} message(s)`, { preview });
  }
  const jobs = app.service(createPersonalisedMessages);
  const id = await jobs.create(session, {
    senderId: input.senderId,
    messages: read.messages,
    label: preview.fileName,
    origin: 'sheet',
    fileHash: read.fileHash,
    text: input.text,
    confirmedTotalKobo: input.confirmedTotalKobo,
  });
  // The job holds every message: an uploaded file has served.
  releaseUpload(app, input.file);
  // A sheet's messages carry no source key: a job is always written.
  if (id === null) throw new Error('A job of messages from a sheet was not written.');
  return jobs.start(session, id, { wait: input.wait, signal });
}
