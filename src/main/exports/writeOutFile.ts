/**
 * Writing a file the user named (the CLI's `--out`), in a folder vendesk does not own — possibly a
 * shared one (/tmp, a team share) where another user may have planted a link. So the write never
 * follows a link and never replaces a file unless asked (issue 23, item 13):
 *
 * - the content goes to a temporary file created in the same folder with O_EXCL | O_NOFOLLOW
 *   (never an existing file or link), mode 600;
 * - a new file is put in place with link(2), which refuses any name that exists by then (a link
 *   planted meanwhile included) and follows nothing; a file system without hard links gets an
 *   O_EXCL copy instead;
 * - replacing (`replace: true`, the CLI's `--force`) is a rename(2) over the old name, which
 *   replaces the name itself and never writes through a link; the old file's permission bits
 *   are kept, so a file others were allowed to read stays readable;
 * - a link, a folder or anything else than a plain file at the name is refused with a sentence.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/appError';
import { PRIVATE_FILE_MODE } from '../privateFiles';

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const POSIX = process.platform !== 'win32';

export interface WriteOutOptions {
  /** Replace a plain file already at the name (`--force`); a link or folder is refused even then. */
  replace?: boolean;
  /** A file name for the sentence about a folder ("…, e.g. FOLDER/logs.xlsx"). */
  example?: string;
}

/**
 * What is at `target` now, as a refusal: null when the name may be written (free, or a plain
 * file and `replace`). Commands call it before their work, so a refusal comes before the export
 * is made; `writeOutFile` checks again as it writes.
 */
export function outFileRefusal(target: string, options: WriteOutOptions = {}): AppError | null {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return folderRefusal(target);
    if (isCode(error, 'ENOTDIR'))
      return new AppError('out_folder_missing', `${path.dirname(target)} is not a folder, so vendesk cannot write ${target}.`, 'Give a file name in an existing folder.');
    throw error;
  }
  if (stat.isSymbolicLink()) {
    return new AppError(
      'out_is_link',
      `${target} is a symbolic link; vendesk does not write through links (it could be pointing at another file).`,
      'Give the name of a new file, or remove the link first.',
    );
  }
  if (stat.isDirectory()) {
    return new AppError(
      'out_is_folder',
      `${target} is a folder; give a file name, e.g. ${path.join(target, options.example ?? 'export.xlsx')}.`,
      'Give a file name in that folder.',
    );
  }
  if (!stat.isFile()) return new AppError('out_not_file', `${target} is not a plain file, so vendesk will not write to it.`, 'Give the name of a new file.');
  if (!options.replace)
    return new AppError('out_exists', `${target} already exists; vendesk does not replace a file unless told to.`, 'Give another file name, or add --force to replace it.');
  return null;
}

/**
 * Writes the file at `source` to `target` as described at the top; answers the absolute path.
 * Throws the refusal of `outFileRefusal` (as an AppError) when the name cannot be written.
 */
export function writeOutFile(source: string, target: string, options: WriteOutOptions = {}): string {
  const file = path.resolve(target);
  const refusal = outFileRefusal(file, options);
  if (refusal) throw refusal;
  const existing = lstatOrNull(file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
  const fd = openExclusive(tmp, file);
  try {
    try {
      copyInto(source, fd);
      // A replaced file keeps its permission bits; a new one is the owner's alone.
      if (POSIX) fs.fchmodSync(fd, existing ? existing.mode & 0o777 : PRIVATE_FILE_MODE);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (existing) placeOver(tmp, file, options);
    else placeNew(tmp, file, options);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return file;
}

function placeNew(tmp: string, file: string, options: WriteOutOptions): void {
  try {
    fs.linkSync(tmp, file);
  } catch (error) {
    if (isCode(error, 'EEXIST'))
      throw outFileRefusal(file, options) ?? new AppError('out_exists', `${file} appeared while vendesk was writing it; nothing was replaced.`, 'Run the command again.');
    if (!isCode(error, 'EPERM') && !isCode(error, 'ENOTSUP') && !isCode(error, 'EOPNOTSUPP') && !isCode(error, 'ENOSYS')) throw writeError(error, file);
    // No hard links here (FAT, some shares): an exclusive copy, which refuses a name that exists.
    try {
      fs.copyFileSync(tmp, file, fs.constants.COPYFILE_EXCL);
    } catch (copyError) {
      if (isCode(copyError, 'EEXIST')) throw outFileRefusal(file, options) ?? copyError;
      throw writeError(copyError, file);
    }
  }
}

function placeOver(tmp: string, file: string, options: WriteOutOptions): void {
  // Between the check and here the name may have become a link or a folder: check again, then
  // rename, which would replace a link itself rather than write through it.
  const refusal = outFileRefusal(file, options);
  if (refusal) throw refusal;
  try {
    fs.renameSync(tmp, file);
  } catch (error) {
    throw outFileRefusal(file, options) ?? writeError(error, file);
  }
}

function openExclusive(tmp: string, file: string): number {
  try {
    return fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW, PRIVATE_FILE_MODE);
  } catch (error) {
    throw writeError(error, file);
  }
}

function copyInto(source: string, fd: number): void {
  const input = fs.openSync(source, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = fs.readSync(input, buffer, 0, buffer.length, null);
      if (n === 0) break;
      let done = 0;
      while (done < n) done += fs.writeSync(fd, buffer, done, n - done);
    }
  } finally {
    fs.closeSync(input);
  }
}

function folderRefusal(target: string): AppError | null {
  const dir = path.dirname(target);
  const stat = statOrNull(dir);
  if (!stat)
    return new AppError(
      'out_folder_missing',
      `The folder ${dir} does not exist, so vendesk cannot write ${target}.`,
      'Create the folder first, or give a file name in an existing folder.',
    );
  if (!stat.isDirectory()) return new AppError('out_folder_missing', `${dir} is not a folder, so vendesk cannot write ${target}.`, 'Give a file name in an existing folder.');
  return null;
}

function writeError(error: unknown, file: string): AppError {
  if (isCode(error, 'EACCES') || isCode(error, 'EPERM'))
    return new AppError('out_not_writable', `vendesk may not write ${file} (permission denied).`, 'Give a file name in a folder you can write to.');
  if (isCode(error, 'ENOSPC'))
    return new AppError('out_not_writable', `The disk holding ${file} is full; nothing was written.`, 'Free some space or give a file name on another disk.');
  if (error instanceof AppError) return error;
  return new AppError('out_not_writable', `vendesk could not write ${file}: ${error instanceof Error ? error.message : String(error)}.`, 'Give another file name.');
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}
