/**
 * Which service addresses a live API token may be sent to. A live address is `https://`; plain
 * `http://` is accepted only for this computer (127.0.0.1, localhost, ::1: a local test service
 * or proxy), with a warning, because a token sent over plain HTTP elsewhere can be read on the
 * way. One rule for the Settings form, the saved profiles and the command line's `--base-url`.
 */

export type AddressCheck = { ok: true; warning: string | null } | { ok: false; reason: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function checkServiceAddress(address: string): AddressCheck {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return { ok: false, reason: 'Enter the service address as a full URL, like https://api.example.com' };
  }
  if (url.username || url.password) return { ok: false, reason: 'The service address must not carry a user name or password; the API token is entered on its own.' };
  if (url.protocol === 'https:') return { ok: true, warning: null };
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname.toLowerCase())) {
    return { ok: true, warning: 'Plain http:// on this computer: fine for a local test service, never for the real one (use its https:// address).' };
  }
  if (url.protocol === 'http:') {
    return {
      ok: false,
      reason: `A live service address must start with https:// (the API token would travel unencrypted to ${url.host}). Plain http:// is accepted only for this computer (127.0.0.1 or localhost).`,
    };
  }
  return { ok: false, reason: 'The service address must start with https://' };
}
