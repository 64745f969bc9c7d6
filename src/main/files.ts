/**
 * Where uploaded inputs and written exports live (private folders of the data folder), how a
 * FileRef becomes a path, and when an upload is deleted: a spreadsheet the browser uploaded holds
 * personal data, so it is deleted once the work it was uploaded for is done, and any left by an
 * earlier run when the web shell starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileRef } from '../shared/contract/files';
import { lagosWallClock } from '../shared/localDates';
import type { AppPart } from './appContext';
import { privateDir } from './privateFiles';

/** Where the web shell keeps the files a browser uploaded, in a data folder. */
export function uploadsDirIn(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function uploadsDir(app: AppPart<'dataDir'>): string {
  return uploadsDirIn(app.dataDir);
}

export function exportsDir(app: AppPart<'dataDir'>): string {
  return privateDir(path.join(app.dataDir, 'exports'));
}

/** Deletes an uploaded file once it has been used; a path the user gave is never touched. */
export function releaseUpload(app: AppPart<'dataDir'>, ref: FileRef): void {
  if ('uploadId' in ref) fs.rmSync(path.join(uploadsDir(app), ref.uploadId), { force: true });
}

/** Uploads left by an earlier run (a window closed half-way, a crash) are deleted at start. */
export function removeLeftoverUploads(app: AppPart<'dataDir'>): void {
  fs.rmSync(uploadsDir(app), { recursive: true, force: true });
}

/** A file name safe on every OS, kept readable, stamped in Lagos time: `Transactions 2026-11-22 1405.xlsx`. */
export function exportFileName(base: string, extension: 'xlsx' | 'csv', at = new Date()): string {
  const stamp = lagosWallClock(at).toISOString().slice(0, 16).replace('T', ' ').replace(':', '');
  const clean = base.replace(/[^\w .-]+/g, '-').trim();
  return `${clean} ${stamp}.${extension}`;
}

/** Export paths handed out in this process, so two exports under way at once never share one. */
const handedOut = new Set<string>();

/**
 * Where a new export named after `base` is written: the exports folder, a stamped name. An export
 * never replaces another: when the name is taken (two exports in the same minute) a number is
 * added — `Transactions 2026-11-22 1405 (2).xlsx`.
 */
export function exportPath(app: AppPart<'dataDir'>, base: string, extension: 'xlsx' | 'csv', at = new Date()): string {
  const dir = exportsDir(app);
  const stem = exportFileName(base, extension, at).slice(0, -(extension.length + 1));
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, `${stem}${n === 1 ? '' : ` (${n})`}.${extension}`);
    if (handedOut.has(candidate) || fs.existsSync(candidate)) continue;
    handedOut.add(candidate);
    return candidate;
  }
}

/** The absolute path of a file the user gave, as the shell's file policy allows (src/main/filePolicy.ts). */
export function resolveFileRef(app: AppPart<'files'>, ref: FileRef): string {
  return app.files.resolve(ref);
}

/** The original file name of a FileRef, for messages and job records. */
export function fileRefName(ref: FileRef): string {
  return ref.name ?? ('path' in ref ? path.basename(ref.path) : 'uploadId' in ref ? 'uploaded file' : 'chosen file');
}
