// Whether the built command (out/cli, from `npm run build`) is at least as new as the sources it is
// built from. Used by bin/vendesk.mjs to choose the build or the sources, and by npm start, the
// packed-install test and the start-up bench to build first when it is not.
import fs from 'node:fs';
import path from 'node:path';

/** The folders of src/ the command's code comes from (an installed package has none of them). */
export const CLI_SOURCES = ['cli', 'main', 'shared', 'sandbox'];

/** The newest modification time of a file under `dir` (0 when it does not exist). */
export function newestMtime(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let newest = 0;
  for (const entry of entries) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** The built command's entry file under the package's root folder. */
export function builtCli(root) {
  return path.join(root, 'out', 'cli', 'index.js');
}

/** True when out/cli/index.js exists and no file of the command's sources is newer. */
export function cliBuildIsCurrent(root) {
  let builtAt;
  try {
    builtAt = fs.statSync(builtCli(root)).mtimeMs;
  } catch {
    return false;
  }
  return CLI_SOURCES.every((dir) => newestMtime(path.join(root, 'src', dir)) <= builtAt);
}
