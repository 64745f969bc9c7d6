/**
 * This browser tab's session with the web shell (src/shared/webSession.ts explains the scheme).
 *
 * The printed link carries a one-time code in its #fragment. It is taken from there once — as the
 * page loads, or when a link is pasted into a tab that already shows vendesk (only the fragment
 * changes) — removed from the address bar, and exchanged for the session secret, which is kept
 * in sessionStorage: per tab and per origin, so a reload keeps it, another port's page cannot
 * read it, and a tab opened without a link has none. The code is spent by the exchange, so the
 * link left in the browser's history signs nothing in again. A link vendesk refuses (used, or
 * from an earlier run), or a call the web shell refuses with 401, drops the session: the tab then
 * shows how to sign in.
 */
import { LINK_HEADER, SESSION_EXCHANGE_PATH, SESSION_FRAGMENT_PREFIX, SESSION_HEADER } from '../../shared/webSession';

const STORAGE_KEY = 'vendesk.session';

/**
 * `signed-in`: a secret is kept; `signing-in`: a link's code is being exchanged; `none`: never had
 * one; `stale`: vendesk refused the link or the secret it had.
 */
export type SessionState = 'signed-in' | 'signing-in' | 'none' | 'stale';

const watchers = new Set<(state: SessionState) => void>();
let refused = false;
let exchanging = 0;

function stored(): string | null {
  return window.sessionStorage.getItem(STORAGE_KEY);
}

function notify(): void {
  const state = sessionState();
  for (const watch of watchers) watch(state);
}

/** Trades a link's one-time code for the session secret; null when vendesk refuses it. */
async function exchange(code: string): Promise<string | null> {
  try {
    const response = await fetch(SESSION_EXCHANGE_PATH, { method: 'POST', credentials: 'omit', cache: 'no-store', headers: { [LINK_HEADER]: code } });
    if (!response.ok) return null;
    const body = (await response.json()) as { ok?: boolean; value?: { session?: unknown } };
    return body.ok && typeof body.value?.session === 'string' ? body.value.session : null;
  } catch {
    return null;
  }
}

/** Takes the one-time code out of a `#session=…` address, if there is one, and signs in with it. */
async function adoptFromAddress(): Promise<void> {
  const { hash, pathname, search } = window.location;
  if (!hash.startsWith(SESSION_FRAGMENT_PREFIX)) return;
  const code = hash.slice(SESSION_FRAGMENT_PREFIX.length);
  // The address bar (and this tab's history entry) no longer shows the code.
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  if (code === '') {
    notify();
    return;
  }
  // The link opened in this tab is what signs it in: whatever it had before is dropped.
  window.sessionStorage.removeItem(STORAGE_KEY);
  exchanging++;
  notify();
  const secret = await exchange(code);
  exchanging--;
  if (secret !== null) {
    window.sessionStorage.setItem(STORAGE_KEY, secret);
    refused = false;
  } else {
    refused = true;
  }
  notify();
}

export function sessionState(): SessionState {
  if (stored() !== null) return 'signed-in';
  if (exchanging > 0) return 'signing-in';
  return refused ? 'stale' : 'none';
}

/** Called with the new state whenever it changes; returns the unsubscribe function. */
export function watchSession(watch: (state: SessionState) => void): () => void {
  watchers.add(watch);
  return () => {
    watchers.delete(watch);
  };
}

/** The header that signs a call to the web shell (none when the tab has no session). */
export function sessionHeaders(): Record<string, string> {
  const secret = stored();
  return secret === null ? {} : { [SESSION_HEADER]: secret };
}

/** The web shell answered 401: the secret this tab kept is not (or no longer) vendesk's. */
export function sessionRefused(): void {
  // A call made while the link is being exchanged had no session yet: the exchange decides.
  if (exchanging > 0) return;
  if (stored() === null && refused) return;
  window.sessionStorage.removeItem(STORAGE_KEY);
  refused = true;
  notify();
}

/** Runs once when the bridge loads in a browser, before the first render. */
export function startWebSession(): void {
  void adoptFromAddress();
  window.addEventListener('hashchange', () => void adoptFromAddress());
}
