/**
 * Where uploaded inputs and written exports live (private folders of the data folder), how a
 * FileRef becomes a path, and when an upload is deleted: a spreadsheet the browser uploaded holds
 * personal data, so it is deleted once the work it was uploaded for is done, and any left by an
 * earlier run when the web shell starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileRef } from '../shared/contract/files';
import { AppError } from '../shared/appError';
import type { App } from './app';
import { privateDir } from './privateFiles';

export function uploadsDir(app: App): string {
  return path.join(app.dataDir, 'uploads');
}

export function exportsDir(app: App): string {
  return privateDir(path.join(app.dataDir, 'exports'));
}

/** Deletes an uploaded file once it has been used; a path the user gave is never touched. */
export function releaseUpload(app: App, ref: FileRef): void {
  if ('uploadId' in ref) fs.rmSync(path.join(uploadsDir(app), ref.uploadId), { force: true });
}

/** Uploads left by an earlier run (a window closed half-way, a crash) are deleted at start. */
export function removeLeftoverUploads(app: App): void {
  fs.rmSync(uploadsDir(app), { recursive: true, force: true });
}

/** A file name safe on every OS, kept readable: `Transactions 2026-11-22 1405.xlsx`. */
export function exportFileName(base: string, extension: 'xlsx' | 'csv', at = new Date()): string {
  const stamp = at.toISOString().slice(0, 16).replace('T', ' ').replace(':', '');
  const clean = base.replace(/[^\w .-]+/g, '-').trim();
  return `${clean} ${stamp}.${extension}`;
}

/** The absolute path of a file the user gave. Paths are accepted from the Electron shell and the CLI only. */
export function resolveFileRef(app: App, ref: FileRef): string {
  if ('uploadId' in ref) {
    const file = path.join(uploadsDir(app), ref.uploadId);
    if (!fs.existsSync(file)) {
      throw new AppError('upload_missing', 'The uploaded file is no longer available.', 'Choose the file again.');
    }
    return file;
  }
  if (app.shell === 'web') {
    throw new AppError('path_refused', 'The browser window cannot name files on disk.', 'Choose the file with the file picker so it is uploaded.');
  }
  const file = path.resolve(ref.path);
  if (!fs.existsSync(file)) throw new AppError('file_missing', `There is no file at ${file}.`, 'Check the path and try again.');
  return file;
}

/** The original file name of a FileRef, for messages and job records. */
export function fileRefName(ref: FileRef): string {
  return ref.name ?? ('path' in ref ? path.basename(ref.path) : 'uploaded file');
}
