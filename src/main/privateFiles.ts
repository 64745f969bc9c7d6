/**
 * Everything vendesk keeps is its user's alone: files mode 600, folders 700, set explicitly, so
 * neither a umask of 022 nor a data folder that already exists with looser modes (a shared
 * folder, a copy from elsewhere) leaves the database, exports or uploads readable by others.
 * Modes are a POSIX matter; on Windows the folder's own permissions apply and nothing is done.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

const POSIX = process.platform !== 'win32';

/** Creates `dir` (and its parents) if needed and makes it private. */
export function privateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (POSIX) fs.chmodSync(dir, PRIVATE_DIR_MODE);
  return dir;
}

/** Makes an existing file private (e.g. a finished export, before it is moved into place). */
export function makePrivate(file: string): void {
  if (POSIX) fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Creates `file` empty and private if it does not exist, so a program that then opens it (SQLite:
 * its -wal and -shm files take the database's mode) never creates it with the umask's mode.
 */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  makePrivate(file);
}

/** Writes `data` to `file` (replacing it) as a private file. */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  fs.writeFileSync(file, data, { mode: PRIVATE_FILE_MODE });
  makePrivate(file);
}

/**
 * At start: creates the data folder if needed and makes it and everything in it private: every
 * folder 700, every file 600. Links are not followed. `leaveAlone` names files whose loose mode
 * must stay visible to the code that reads them (a token file others could read is refused by
 * the token store, which tells the user, rather than quietly fixed).
 */
export function secureDataFolder(dir: string, leaveAlone: (file: string, mode: number) => boolean = () => false): void {
  privateDir(dir);
  if (!POSIX) return;
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const p = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        fs.chmodSync(p, PRIVATE_DIR_MODE);
        walk(p);
      } else if (entry.isFile()) {
        const mode = fs.lstatSync(p).mode & 0o777;
        if (mode !== PRIVATE_FILE_MODE && !leaveAlone(p, mode)) fs.chmodSync(p, PRIVATE_FILE_MODE);
      }
    }
  };
  walk(dir);
}
