/**
 * Writing a file the user named (the CLI's `--out`), in a folder vendesk does not own — possibly a
 * shared one (/tmp, a team share) where another user may have planted a link. So the write never
 * follows a link and never replaces a file unless asked (issue 23, item 13; issue 37, item 6):
 *
 * - no part of the path may be a link: not the name itself, not its folder, not any folder above
 *   it (a link `/tmp/reports` → someone's folder would send the export there). The refusal names
 *   the link and, when the folder can be reached without it, the real path to give instead (on
 *   macOS `/tmp` itself is a link to `/private/tmp`: give `/private/tmp/…`);
 * - the content goes to a temporary file created in the same folder with O_EXCL | O_NOFOLLOW
 *   (never an existing file or link), mode 600;
 * - a new file is put in place with link(2), which refuses any name that exists by then (a link
 *   planted meanwhile included) and follows nothing; a file system without hard links gets an
 *   O_EXCL copy instead;
 * - replacing (`replace: true`, the CLI's `--force`) is a rename(2) over the old name, which
 *   replaces the name itself and never writes through a link. The new file is mode 600 like any
 *   new one: the old file's bits are not kept, so an export replacing a world-writable (666) file
 *   is not left for others to change;
 * - a link, a folder or anything else than a plain file at the name is refused with a sentence.
 *
 * Checking the path and then writing by name would leave a window: between the check and the
 * write, someone who may rename a folder on the path could put a link in its place. Node has no
 * openat(2), so the folder is opened once (O_DIRECTORY | O_NOFOLLOW; on Linux O_PATH, which needs
 * no read permission) and then checked: no folder on the path is a link, and the path leads to the
 * very folder opened (same device and inode) — so whatever was followed to open it, the folder held
 * is the one at the path the user gave, reached without a link. On Linux every later step names
 * files through `/proc/self/fd/N/…`, which the kernel resolves to that open folder whatever happens
 * to its path meanwhile: the window is closed. Where there is no /proc (macOS, BSD) the same check
 * is made again after the write, and a new file written into a folder that changed meanwhile is
 * removed again. That narrows the window there rather than closing it (a replaced file cannot be
 * put back), and only someone who may rename a folder on the path can use it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/appError';
import { PRIVATE_FILE_MODE } from '../privateFiles';

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const POSIX = process.platform !== 'win32';
/** Linux's O_PATH (the same value on every architecture Node runs on): opens a folder without needing to read it. */
const O_PATH = 0o10000000;

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
  return folderRefusal(target) ?? nameRefusal(lstatOrNull(target), target, options);
}

/** The refusal for what `stat` (lstat of `target`, null: nothing there) says is at the name. */
function nameRefusal(stat: fs.Stats | null, target: string, options: WriteOutOptions): AppError | null {
  if (!stat) return null;
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
  const folder = pinFolder(path.dirname(file), file);
  const name = folder.at(path.basename(file));
  const tmp = folder.at(`.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
  try {
    const existing = lstatOrNull(name);
    const fd = openExclusive(tmp, file);
    let written: fs.Stats;
    try {
      copyInto(source, fd);
      // New or replacing, the export is the owner's alone: a replaced file's bits are not kept.
      if (POSIX) fs.fchmodSync(fd, PRIVATE_FILE_MODE);
      fs.fsyncSync(fd);
      written = fs.fstatSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (existing) placeOver(tmp, name, file, options);
    else placeNew(tmp, name, file, options);
    folder.confirm(name, existing ? null : written);
  } finally {
    fs.rmSync(tmp, { force: true });
    folder.close();
  }
  return file;
}

/** The folder a file is written in, held open while it is written. */
interface PinnedFolder {
  /** The path by which `name` in this folder is reached from now on. */
  at(name: string): string;
  /** Throws when the write may have gone elsewhere (removing `created`, a new file, if it did). */
  confirm(name: string, created: fs.Stats | null): void;
  close(): void;
}

/** Opens `dir` (the folder of `file`) as described at the top. */
function pinFolder(dir: string, file: string): PinnedFolder {
  if (!POSIX) return { at: (name) => path.join(dir, name), confirm: () => undefined, close: () => undefined };
  const linux = process.platform === 'linux';
  let fd: number;
  try {
    fd = fs.openSync(dir, (linux ? O_PATH : fs.constants.O_RDONLY) | fs.constants.O_DIRECTORY | NOFOLLOW);
  } catch (error) {
    throw folderRefusal(file) ?? writeError(error, file);
  }
  const close = () => fs.closeSync(fd);
  const pinned = fs.fstatSync(fd);
  // The path, walked without following links, leads to the folder held open.
  const same = () => {
    const now = lstatOrNull(dir);
    return folderRefusal(file) === null && now !== null && now.dev === pinned.dev && now.ino === pinned.ino;
  };
  if (!same()) {
    close();
    throw folderRefusal(file) ?? folderMoved(file);
  }
  const via = `/proc/self/fd/${fd}`;
  if (linux && readlinkOrNull(via) !== null) return { at: (name) => `${via}/${name}`, confirm: () => undefined, close };
  return {
    at: (name) => path.join(dir, name),
    confirm(name, created) {
      if (same()) return;
      const now = lstatOrNull(name);
      if (created && now && now.ino === created.ino && now.dev === created.dev) fs.rmSync(name, { force: true });
      throw folderRefusal(file) ?? folderMoved(file);
    },
    close,
  };
}

function folderMoved(file: string): AppError {
  return new AppError(
    'out_is_link',
    `The folder of ${file} was moved or replaced while vendesk was writing it, so nothing was written there.`,
    'Check the folder, then run the command again.',
  );
}

/**
 * The refusal for the folders on the way to `target`: each must be a real folder, none a link.
 * Walked from the root down, so the sentence names the first link on the path.
 */
function folderRefusal(target: string): AppError | null {
  const dir = path.dirname(target);
  const chain: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    chain.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of chain) {
    const stat = lstatOrNull(at);
    if (!stat)
      return new AppError(
        'out_folder_missing',
        `The folder ${dir} does not exist, so vendesk cannot write ${target}.`,
        'Create the folder first, or give a file name in an existing folder.',
      );
    if (stat.isSymbolicLink()) return linkedFolder(at, target);
    if (!stat.isDirectory()) return new AppError('out_folder_missing', `${at} is not a folder, so vendesk cannot write ${target}.`, 'Give a file name in an existing folder.');
  }
  return null;
}

/** `link`, a folder on the way to `target`, is a symbolic link: the sentence, and the real path when there is one. */
function linkedFolder(link: string, target: string): AppError {
  const real = realpathOrNull(path.dirname(target));
  // The real path comes from the file system (anyone may name a folder): shown only when it is plain text.
  const instead = real && !/[\p{Cc}\p{Cf}]/u.test(real) ? `If ${real} is where you mean to write, give that path: ${path.join(real, path.basename(target))}.` : null;
  return new AppError(
    'out_is_link',
    `${link} is a symbolic link; vendesk does not write through links (a link in a shared folder could send the file into another folder).`,
    instead ?? 'Give a file name in a folder reached without links.',
  );
}

/** Puts the written file (`tmp`) at `name` (`file`, as the user named it, for the sentences). */
function placeNew(tmp: string, name: string, file: string, options: WriteOutOptions): void {
  try {
    fs.linkSync(tmp, name);
  } catch (error) {
    if (isCode(error, 'EEXIST'))
      throw (
        nameRefusal(lstatOrNull(name), file, options) ??
        new AppError('out_exists', `${file} appeared while vendesk was writing it; nothing was replaced.`, 'Run the command again.')
      );
    if (!isCode(error, 'EPERM') && !isCode(error, 'ENOTSUP') && !isCode(error, 'EOPNOTSUPP') && !isCode(error, 'ENOSYS')) throw writeError(error, file);
    // No hard links here (FAT, some shares): an exclusive copy, which refuses a name that exists.
    try {
      fs.copyFileSync(tmp, name, fs.constants.COPYFILE_EXCL);
    } catch (copyError) {
      if (isCode(copyError, 'EEXIST')) throw nameRefusal(lstatOrNull(name), file, options) ?? writeError(copyError, file);
      throw writeError(copyError, file);
    }
  }
}

function placeOver(tmp: string, name: string, file: string, options: WriteOutOptions): void {
  // Between the check and here the name may have become a link or a folder: check again, then
  // rename, which would replace a link itself rather than write through it.
  const refusal = nameRefusal(lstatOrNull(name), file, options);
  if (refusal) throw refusal;
  try {
    fs.renameSync(tmp, name);
  } catch (error) {
    throw nameRefusal(lstatOrNull(name), file, options) ?? writeError(error, file);
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

function writeError(error: unknown, file: string): AppError {
  if (isCode(error, 'EACCES') || isCode(error, 'EPERM'))
    return new AppError('out_not_writable', `vendesk may not write ${file} (permission denied).`, 'Give a file name in a folder you can write to.');
  if (isCode(error, 'ENOSPC'))
    return new AppError('out_not_writable', `The disk holding ${file} is full; nothing was written.`, 'Free some space or give a file name on another disk.');
  if (error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return new AppError('out_not_writable', `vendesk could not write ${file}${code ? ` (${code})` : ''}.`, 'Give another file name.');
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

function readlinkOrNull(link: string): string | null {
  try {
    return fs.readlinkSync(link);
  } catch {
    return null;
  }
}

function realpathOrNull(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}
