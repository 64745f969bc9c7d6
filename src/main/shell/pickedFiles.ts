/**
 * The Electron shell's file policy: main opens only files the user chose in vendesk's open-file
 * dialog since the app started. Each choice gets a random handle, kept in memory; the renderer
 * passes the handle back, never a path. A path, or a handle main did not issue, is refused with one
 * message and without looking at the disk, so the refusal says nothing about what exists there.
 *
 * No `electron` import: index.ts passes Electron's dialog in, and tests pass a fake one.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../shared/appError';
import type { FileRef } from '../../shared/contract/files';
import type { FilePolicy } from '../filePolicy';

/** What the renderer may ask of the dialog: which file types, and where to start (a dropped file). */
export const pickFileRequestSchema = z.object({
  accept: z.string().max(1000).optional(),
  defaultPath: z.string().max(4096).optional(),
});
export type PickFileRequest = z.infer<typeof pickFileRequestSchema>;

export interface OpenDialogOptions {
  title: string;
  properties: ['openFile'];
  filters?: { name: string; extensions: string[] }[];
  defaultPath?: string;
}

/** Electron's dialog.showOpenDialog, or a fake of it. */
export type ShowOpenDialog = (options: OpenDialogOptions) => Promise<{ canceled: boolean; filePaths: string[] }>;

const NOT_CHOSEN = () => new AppError('file_not_chosen', 'vendesk opens only files you choose in its file dialog.', 'Choose the file again with the Choose button.');

/** The dialog's options for a request: the file types of an `accept` list (".csv,.xlsx,text/csv"). */
export function openDialogOptions(request: PickFileRequest): OpenDialogOptions {
  const extensions = [
    ...new Set(
      (request.accept ?? '')
        .split(',')
        .map((a) => a.trim().toLowerCase())
        .filter((a) => /^\.[a-z0-9]+$/.test(a))
        .map((a) => a.slice(1)),
    ),
  ];
  return {
    title: 'Choose a file for vendesk',
    properties: ['openFile'],
    ...(extensions.length > 0 ? { filters: [{ name: `Spreadsheets (${extensions.map((e) => `.${e}`).join(', ')})`, extensions }] } : {}),
    ...(request.defaultPath ? { defaultPath: request.defaultPath } : {}),
  };
}

export class PickedFiles implements FilePolicy {
  private readonly chosen = new Map<string, string>();

  /** Shows the open-file dialog; the chosen file gets a handle, a cancelled dialog gives null. */
  async choose(request: unknown, showOpenDialog: ShowOpenDialog): Promise<FileRef | null> {
    const parsed = pickFileRequestSchema.safeParse(request ?? {});
    const result = await showOpenDialog(openDialogOptions(parsed.success ? parsed.data : {}));
    const file = result.filePaths[0];
    if (result.canceled || !file) return null;
    const fileHandle = randomBytes(16).toString('hex');
    this.chosen.set(fileHandle, path.resolve(file));
    return { fileHandle, name: path.basename(file) };
  }

  resolve(ref: FileRef): string {
    const file = 'fileHandle' in ref ? this.chosen.get(ref.fileHandle) : undefined;
    if (file === undefined) throw NOT_CHOSEN();
    if (!fs.existsSync(file)) throw new AppError('file_missing', `The file you chose, ${path.basename(file)}, is no longer there.`, 'Choose it again.');
    return file;
  }
}
