/**
 * How the browser proves to the web shell that it is the tab the user opened from vendesk's link.
 *
 * The link carries the session secret in its #fragment (`http://127.0.0.1:PORT/#session=…`), which
 * browsers never send to any server nor put in a Referer. The renderer takes it from there once,
 * removes it from the address bar, keeps it in sessionStorage (per tab and per origin, so per
 * port) and sends it in this header on every call. Nothing another local web site can see — cookies
 * (browsers share them across ports), another origin's storage, the Referer — carries it.
 */
export const SESSION_HEADER = 'X-Vendesk-Session';

/**
 * The id a tab gives a call (`POST /api/<operation>`) so it can cancel it while it runs:
 * `POST /api/cancel/<id>` with the same session. Ids are the caller's own; a web shell session
 * can cancel only the calls it made.
 */
export const CALL_HEADER = 'X-Vendesk-Call';

/** The fragment that carries the secret in the printed link: `#session=<secret>`. */
export const SESSION_FRAGMENT_PREFIX = '#session=';

/** The link to print: the web shell's origin with the secret in the fragment. */
export function sessionLink(origin: string, secret: string): string {
  return `${origin}/${SESSION_FRAGMENT_PREFIX}${secret}`;
}
