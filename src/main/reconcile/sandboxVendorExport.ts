/**
 * A vendor export for the built-in sandbox, so a new user can try Reconcile end to end: the
 * sandbox's whole log in the service's own export format — every page asked for with
 * `download=true` (GET /logEntries), whose `Download` text is the page as CSV — joined under one
 * header row and written to the exports folder.
 *
 * Only for the built-in sandbox: on a live connection the vendor export comes from the vendor
 * (its portal, or its support), never from the log vendesk itself mirrors — comparing the log
 * with itself would prove nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/appError';
import type { ExportedFile } from '../../shared/contract/files';
import type { AppPart } from '../appContext';
import { exportPath } from '../files';
import { writePrivateFile } from '../privateFiles';

/** The most entries a page of the log may hold (the spec's limit). */
const PER_PAGE = 100;

export async function writeSandboxVendorExport(app: AppPart<'client' | 'connection' | 'dataDir'>, signal?: AbortSignal): Promise<ExportedFile> {
  if (app.connection.kind !== 'sandbox') {
    throw new AppError(
      'not_sandbox',
      'Only the built-in sandbox gives its log as a vendor export; this connection is LIVE.',
      "Download the transaction export from your vendor's portal (or ask the vendor for it), then choose that file on Reconcile.",
    );
  }
  const client = app.client();
  let header: string | null = null;
  const lines: string[] = [];
  let page = await client.logDownloadPage({ perPage: PER_PAGE }, { signal });
  for (let pages = 1; ; pages++) {
    const [first, ...rows] = page.Download.split(/\r?\n/).filter((line) => line !== '');
    if (first !== undefined) {
      header ??= first;
      lines.push(...rows);
    }
    if (!page.NextPage || pages >= page.TotalPages) break;
    page = await client.logDownloadPage(page.NextPage, { signal });
  }
  if (header === null)
    throw new AppError(
      'sandbox_log_empty',
      'The sandbox has no transactions yet, so there is nothing to export.',
      'Buy something on the sandbox first (Purchases), then get the export again.',
    );
  const file = exportPath(app, 'Sandbox vendor export', 'csv');
  writePrivateFile(file, `${[header, ...lines].join('\r\n')}\r\n`);
  return { fileName: path.basename(file), path: file, bytes: fs.statSync(file).size, rows: lines.length };
}
