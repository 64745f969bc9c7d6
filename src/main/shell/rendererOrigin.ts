/**
 * Where vendesk's own renderer lives, and whether a URL is it. The packaged renderer is served from
 * `app://vendesk/` (./appProtocol.ts); in development (electron-vite dev) from the dev server's
 * address. Origins are compared parsed, never by prefix: `http://localhost:5173@evil.example/`
 * starts with the dev server's address but is evil.example.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'vendesk';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Whether `url` is a page of vendesk's renderer: app://vendesk/…, or the dev server's origin when one is given. */
export function isRendererUrl(url: string, devServerUrl?: string): boolean {
  const u = parse(url);
  if (!u || u.username !== '' || u.password !== '') return false;
  if (devServerUrl) {
    const dev = parse(devServerUrl);
    return !!dev && (dev.protocol === 'http:' || dev.protocol === 'https:') && u.protocol === dev.protocol && u.host === dev.host;
  }
  return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
}
