/**
 * Contacts from a CSV or XLSX file into a phonebook, through the one spreadsheet importer:
 * numbers normalized, repeats in the file dropped, invalid rows explained; then the numbers the
 * phonebook does not hold yet are uploaded in chunks with progress, so re-importing the same
 * file adds nothing twice. Each uploaded number is remembered locally with its file and row.
 */
import { excerpt, quotedList } from '../../shared/excerpt';
import type { ContactsImportResult, ContactsPreview, RowProblem } from '../../shared/contract/messaging';
import type { FileRef } from '../../shared/contract/files';
import { AppError } from '../../shared/appError';
import type { App, AppPart } from '../appContext';
import { fileRefName, releaseUpload, resolveFileRef } from '../files';
import {
  detectMapping,
  inspectSpreadsheet,
  readFirstTable,
  isImportError,
  noHeaderForKind,
  readSpreadsheet,
  validateContactRows,
  type ColumnMapping,
  type ContactRow,
  type ContactValidation,
  type SheetTable,
} from '../imports';
import { createMessagingService, serviceKeyOf, type MessagingService } from './messagingService';

/** Contacts per /createContact request: small enough to show progress, large enough to be quick. */
export const CONTACTS_CHUNK = 500;
/** Rows explained in an answer; the counts are always complete. */
const PROBLEMS_SHOWN = 200;

/** What a file read gives: the preview's description of the file, plus its hash and every row checked. */
interface ReadContacts extends Pick<ContactsPreview, 'fileName' | 'format' | 'sheetNames' | 'sheet' | 'headers' | 'phoneColumn' | 'nameColumn' | 'rows'> {
  fileHash: string;
  validation: ContactValidation;
}

/** A contacts sheet as read: the file, its table, the Phone and Name columns, and every row checked. */
export interface ContactsSheet {
  fileName: string;
  fileHash: string;
  format: 'csv' | 'xlsx';
  sheetNames: string[];
  table: SheetTable;
  mapping: ColumnMapping;
  validation: ContactValidation;
}

/**
 * Reads a contacts sheet through the one importer (the named sheet, else the first that holds a
 * table) and checks every row: numbers normalized, repeats and invalid rows explained.
 */
export async function readContactsSheet(
  app: AppPart<'files'>,
  file: FileRef,
  sheet: string | undefined,
  onRows?: (rows: number) => void,
  signal?: AbortSignal,
): Promise<ContactsSheet> {
  const path = resolveFileRef(app, file);
  try {
    const info = await inspectSpreadsheet(path);
    if (sheet && info.format === 'xlsx' && !info.sheetNames.includes(sheet)) {
      throw new AppError('import_no_sheet', `The workbook has no sheet called "${excerpt(sheet)}" (it has ${quotedList(info.sheetNames)}).`, 'Choose one of its sheets.');
    }
    // No sheet named: the first that holds a table (a workbook may open on a notes sheet).
    const table = sheet ? await readSpreadsheet(path, { sheet, signal, onProgress: onRows }) : await readFirstTable(path, info.sheetNames, { signal, onProgress: onRows });
    const mapping = detectMapping(table.headers, 'contacts');
    const validation = validateContactRows(table, mapping);
    return { fileName: fileRefName(file), fileHash: table.fileHash || info.fileHash, format: info.format, sheetNames: info.sheetNames, table, mapping, validation };
  } catch (error) {
    return importFailure(noHeaderForKind(error, 'contacts'));
  }
}

function importFailure(error: unknown): never {
  if (isImportError(error)) throw new AppError(`import_${error.code}`, error.message, 'Fix the file and import it again.');
  throw error;
}

export class ContactsImporter {
  private readonly running = new Map<number, AbortController>();

  constructor(
    private readonly app: App,
    private readonly messaging: MessagingService,
  ) {}

  private async read(file: FileRef, sheet: string | undefined, onRows?: (rows: number) => void, signal?: AbortSignal): Promise<ReadContacts> {
    const read = await readContactsSheet(this.app, file, sheet, onRows, signal);
    const header = (i: number | null) => (i === null ? null : (read.table.headers[i] ?? null));
    return {
      fileName: read.fileName,
      fileHash: read.fileHash,
      format: read.format,
      sheetNames: read.sheetNames,
      sheet: read.table.sheetName,
      headers: read.table.headers,
      phoneColumn: header(read.mapping.phone),
      nameColumn: header(read.mapping.name),
      rows: read.table.rows.length,
      validation: read.validation,
    };
  }

  private problems(v: ContactValidation): { invalid: RowProblem[]; duplicates: RowProblem[] } {
    return {
      invalid: v.invalid.slice(0, PROBLEMS_SHOWN).map((r) => ({ row: r.row, message: r.issues.map((i) => i.message).join('; ') })),
      duplicates: v.duplicates.slice(0, PROBLEMS_SHOWN).map((d) => ({ row: d.row, message: d.message })),
    };
  }

  private lastImport(phoneBookId: number, fileHash: string): string | null {
    const row = this.app.db
      .prepare("SELECT finished_at FROM messaging_imports WHERE service_key = ? AND phonebook_id = ? AND file_hash = ? AND state = 'done' ORDER BY id DESC LIMIT 1")
      .get(serviceKeyOf(this.app), phoneBookId, fileHash) as { finished_at: string } | undefined;
    return row?.finished_at ?? null;
  }

  async preview(input: { file: FileRef; sheet?: string; phoneBookId?: number }): Promise<ContactsPreview> {
    const read = await this.read(input.file, input.sheet);
    let alreadyInPhonebook: number | null = null;
    let importedBefore: string | null = null;
    if (input.phoneBookId !== undefined) {
      const listed = (await this.messaging.getPhonebookOrExplain(input.phoneBookId)).contacts;
      // Unknown (null) when the service does not list the phonebook's contacts.
      const existing = listed ? new Set(listed.map((c) => c.phoneNumber)) : null;
      alreadyInPhonebook = existing ? read.validation.valid.filter((c) => existing.has(c.phone)).length : null;
      importedBefore = this.lastImport(input.phoneBookId, read.fileHash);
    }
    const { invalid, duplicates } = this.problems(read.validation);
    return {
      fileName: read.fileName,
      format: read.format,
      sheetNames: read.sheetNames,
      sheet: read.sheet,
      headers: read.headers,
      phoneColumn: read.phoneColumn,
      nameColumn: read.nameColumn,
      rows: read.rows,
      valid: read.validation.valid.length,
      invalidCount: read.validation.invalid.length,
      invalid,
      duplicateCount: read.validation.duplicates.length,
      duplicates,
      sample: read.validation.valid.slice(0, 10),
      alreadyInPhonebook,
      importedBefore,
    };
  }

  cancel(phoneBookId: number): boolean {
    const controller = this.running.get(phoneBookId);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /**
   * How many of the uploaded numbers the phonebook holds now, for answers that did not count them:
   * the service's own record when it lists the contacts, else every uploaded one, said so.
   */
  private async countUploaded(phoneBookId: number, uploaded: ContactRow[], before: Set<string>): Promise<{ added: number; note: string }> {
    const after = (await this.messaging.getPhonebookOrExplain(phoneBookId)).contacts;
    if (after === null) {
      return {
        added: uploaded.length,
        note: `The service did not say how many contacts it added; vendesk counts the ${uploaded.length.toLocaleString('en-NG')} it uploaded as added.`,
      };
    }
    const now = new Set(after.map((c) => c.phoneNumber));
    const counted = uploaded.filter((c) => now.has(c.phone) && !before.has(c.phone)).length;
    const missing = uploaded.filter((c) => !now.has(c.phone)).length;
    return {
      added: counted,
      note:
        `The service did not say how many contacts it added; vendesk counted them in the phonebook afterwards (${counted.toLocaleString('en-NG')}).` +
        (missing > 0 ? ` ${missing.toLocaleString('en-NG')} uploaded number${missing === 1 ? ' is' : 's are'} not in the phonebook: import the file again to retry them.` : ''),
    };
  }

  async import(input: { file: FileRef; sheet?: string; phoneBookId: number }, options: { signal?: AbortSignal } = {}): Promise<ContactsImportResult> {
    const { phoneBookId } = input;
    if (this.running.has(phoneBookId)) {
      throw new AppError('import_running', `Contacts are already being uploaded into phonebook ${phoneBookId}.`, 'Wait for that upload to finish, or cancel it.');
    }
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    this.running.set(phoneBookId, controller);
    const started = Date.now();
    const progress = (done: number, total: number | null, message: string) => this.app.events.emit('contacts.progress', { phoneBookId, done, total, message });
    let importId: number | null = null;
    try {
      progress(0, null, 'Reading the file…');
      const phonebook = await this.messaging.getPhonebookOrExplain(phoneBookId);
      const read = await this.read(input.file, input.sheet, (rows) => progress(0, null, `Reading the file: ${rows.toLocaleString('en-NG')} rows`), signal);
      const existing = new Set((phonebook.contacts ?? []).map((c) => c.phoneNumber));
      const toUpload: ContactRow[] = read.validation.valid.filter((c) => !existing.has(c.phone));
      let skipped = read.validation.valid.length - toUpload.length;
      importId = Number(
        this.app.db
          .prepare(
            `INSERT INTO messaging_imports (service_key, phonebook_id, file_name, file_hash, rows, valid, invalid, state, started_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?)`,
          )
          .run(
            serviceKeyOf(this.app),
            phoneBookId,
            read.fileName,
            read.fileHash,
            read.rows,
            read.validation.valid.length,
            read.validation.invalid.length,
            new Date(started).toISOString(),
          ).lastInsertRowid,
      );
      const remember = this.app.db.prepare(
        'INSERT OR REPLACE INTO messaging_contact_uploads (service_key, phonebook_id, phone, file_hash, row, uploaded_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const serviceKey = serviceKeyOf(this.app);
      let added = 0;
      let chunks = 0;
      let cancelled = false;
      const total = toUpload.length;
      const notes: string[] = [];
      if (phonebook.contacts === null)
        notes.push("The service does not list the phonebook's contacts, so vendesk could not tell which numbers it already held; it uploaded every valid one.");
      const uncounted: ContactRow[] = [];
      const name = phonebook.name ?? `phonebook ${phoneBookId}`;
      progress(0, total, total ? `Uploading ${total.toLocaleString('en-NG')} contacts into ${name}` : 'Nothing new to upload');
      for (let i = 0; i < toUpload.length; i += CONTACTS_CHUNK) {
        if (signal.aborted) {
          cancelled = true;
          break;
        }
        const chunk = toUpload.slice(i, i + CONTACTS_CHUNK);
        const answer = await this.app.client().createContacts(
          chunk.map((c) => ({ name: c.name, phoneNumber: c.phone })),
          phoneBookId,
        );
        chunks++;
        // Counts the answer does not give are established from the phonebook after the upload.
        const chunkAdded = answer.added ?? (answer.skipped !== null ? chunk.length - answer.skipped : null);
        if (chunkAdded === null) uncounted.push(...chunk);
        else {
          added += chunkAdded;
          skipped += answer.skipped ?? chunk.length - chunkAdded;
        }
        const at = new Date().toISOString();
        this.app.db.transaction(() => {
          for (const c of chunk) remember.run(serviceKey, phoneBookId, c.phone, read.fileHash, c.row, at);
        })();
        const done = Math.min(i + chunk.length, total);
        progress(done, total, `Uploaded ${done.toLocaleString('en-NG')} of ${total.toLocaleString('en-NG')} contacts`);
      }
      if (uncounted.length > 0) {
        const counted = await this.countUploaded(phoneBookId, uncounted, existing);
        added += counted.added;
        notes.push(counted.note);
      }
      const durationMs = Date.now() - started;
      this.app.db
        .prepare('UPDATE messaging_imports SET added = ?, skipped = ?, state = ?, finished_at = ? WHERE id = ?')
        .run(added, skipped, cancelled ? 'cancelled' : 'done', new Date().toISOString(), importId);
      // Imported (or cancelled part-way): an uploaded file has served; a failed import keeps it for a retry.
      releaseUpload(this.app, input.file);
      const { invalid } = this.problems(read.validation);
      return {
        phoneBookId,
        fileName: read.fileName,
        rows: read.rows,
        valid: read.validation.valid.length,
        added,
        skipped,
        invalidCount: read.validation.invalid.length,
        invalid,
        duplicateCount: read.validation.duplicates.length,
        cancelled,
        chunks,
        durationMs,
        notes,
      };
    } catch (error) {
      if (importId !== null) {
        this.app.db
          .prepare("UPDATE messaging_imports SET state = 'failed', error = ?, finished_at = ? WHERE id = ?")
          .run(error instanceof Error ? error.message : String(error), new Date().toISOString(), importId);
      }
      if (signal.aborted && (error as { name?: string } | null)?.name === 'AbortError') {
        throw new AppError('cancelled', 'The contacts import was cancelled before anything was uploaded.', 'Import the file again when ready.');
      }
      throw error;
    } finally {
      this.running.delete(phoneBookId);
    }
  }
}

export function createContactsImporter(app: App): ContactsImporter {
  return new ContactsImporter(app, app.service(createMessagingService));
}
