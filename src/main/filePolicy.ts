/**
 * Which files the main side may open when the renderer or the CLI names one (a FileRef). The shell
 * decides and injects its policy into the App (`createApp({ filePolicy })`); services only call
 * `resolveFileRef` and never ask which shell they run in.
 *
 * - CLI and tests: the user names paths on the command line (namedPathsPolicy, the default).
 * - Web shell: only files the browser uploaded, by upload id (uploadedFilesPolicy).
 * - Electron: only files the user chose in vendesk's open-file dialog since the app started, by the
 *   handle main issued for each (src/main/shell/pickedFiles.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../shared/appError';
import type { FileRef } from '../shared/contract/files';

export interface FilePolicy {
  /** The absolute path of the file the ref names; throws an AppError the user can act on otherwise. */
  resolve(ref: FileRef): string;
}

/** The CLI and tests: paths, as the user typed them. */
export const namedPathsPolicy: FilePolicy = {
  resolve(ref) {
    if (!('path' in ref)) throw new AppError('path_required', 'Name the file by its path.', 'Give the path of the spreadsheet on this computer.');
    const file = path.resolve(ref.path);
    if (!fs.existsSync(file)) throw new AppError('file_missing', `There is no file at ${file}.`, 'Check the path and try again.');
    return file;
  },
};

/** The web shell: files the browser uploaded into `dir` (POST /api/upload), by their upload id. */
export function uploadedFilesPolicy(dir: string): FilePolicy {
  return {
    resolve(ref) {
      if (!('uploadId' in ref)) {
        throw new AppError('path_refused', 'The browser window cannot name files on disk.', 'Choose the file with the file picker so it is uploaded.');
      }
      const file = path.join(dir, ref.uploadId);
      if (!fs.existsSync(file)) throw new AppError('upload_missing', 'The uploaded file is no longer available.', 'Choose the file again.');
      return file;
    },
  };
}
