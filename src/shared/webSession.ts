/**
 * How the browser proves to the web shell that it is the tab the user opened from vendesk's link.
 *
 * The link carries a one-time code in its #fragment (`http://127.0.0.1:PORT/#session=…`), which
 * browsers never send to any server nor put in a Referer. The renderer takes it from there once,
 * removes it from the address bar and exchanges it (`POST /api/session`, the code in the
 * X-Vendesk-Link header) for the session secret; the code is then spent, so the link left in the
 * browser's history signs nothing in again. The tab keeps the secret in sessionStorage (per tab
 * and per origin, so per port; a reload keeps it) and sends it in the X-Vendesk-Session header on
 * every call. Nothing another local web site can see — cookies (browsers share them across
 * ports), another origin's storage, the Referer, the browser's history — carries it.
 */
export const SESSION_HEADER = 'X-Vendesk-Session';

/**
 * The id a tab gives a call (`POST /api/<operation>`) so it can cancel it while it runs:
 * `POST /api/cancel/<id>` with the same session. Ids are the caller's own; a web shell session
 * can cancel only the calls it made.
 */
export const CALL_HEADER = 'X-Vendesk-Call';

/** The header that carries a link's one-time code to `POST /api/session`. */
export const LINK_HEADER = 'X-Vendesk-Link';

/** Where a tab exchanges its link's one-time code for the session secret. */
export const SESSION_EXCHANGE_PATH = '/api/session';

/** The fragment that carries the one-time code in the printed link: `#session=<code>`. */
export const SESSION_FRAGMENT_PREFIX = '#session=';

/** The link to print: the web shell's origin with a one-time code in the fragment. */
export function sessionLink(origin: string, code: string): string {
  return `${origin}/${SESSION_FRAGMENT_PREFIX}${code}`;
}
