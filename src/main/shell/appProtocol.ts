/**
 * The renderer is served from `app://vendesk/` (a privileged standard, secure scheme registered
 * with protocol.handle in index.ts) instead of file://, so its origin is its own and no other file
 * on disk shares it. This module is the pure part: which file of the build folder a request names.
 */
import path from 'node:path';
import { APP_HOST, APP_SCHEME } from './rendererOrigin';

/**
 * The file under `root` that an app:// request names, or null — another host, credentials, a
 * malformed or NUL-carrying path, a backslash (a separator on Windows), or anything that would
 * leave the build folder. `/` is index.html.
 */
export function appAssetPath(root: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username !== '' || url.password !== '') return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = path.posix.normalize(`/${decoded}`);
  const base = path.resolve(root);
  const file = path.resolve(base, `.${relative === '/' ? '/index.html' : relative}`);
  return file.startsWith(base + path.sep) ? file : null;
}
