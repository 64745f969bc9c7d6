/**
 * This browser tab's session with the web shell (src/shared/webSession.ts explains the scheme).
 *
 * The printed link carries the secret in its #fragment. It is taken from there once — as the page
 * loads, or when the link is pasted into a tab that already shows vendesk (only the fragment
 * changes) — removed from the address bar, and kept in sessionStorage: per tab and per origin, so
 * a reload keeps it, another port's page cannot read it, and a tab opened without the link has
 * none. A call the web shell refuses with 401 drops it: the tab then shows how to sign in.
 */
import { SESSION_FRAGMENT_PREFIX, SESSION_HEADER } from '../../shared/webSession';

const STORAGE_KEY = 'vendesk.session';

/** `signed-in`: a secret is kept; `none`: never had one; `stale`: vendesk refused the one it had. */
export type SessionState = 'signed-in' | 'none' | 'stale';

const watchers = new Set<(state: SessionState) => void>();
let refused = false;

function stored(): string | null {
  return window.sessionStorage.getItem(STORAGE_KEY);
}

function notify(): void {
  const state = sessionState();
  for (const watch of watchers) watch(state);
}

/** Takes the secret out of a `#session=…` address, if there is one. */
function adoptFromAddress(): void {
  const { hash, pathname, search } = window.location;
  if (!hash.startsWith(SESSION_FRAGMENT_PREFIX)) return;
  const secret = hash.slice(SESSION_FRAGMENT_PREFIX.length);
  // The address bar (and this tab's history entry) no longer shows the secret.
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  if (secret !== '') {
    window.sessionStorage.setItem(STORAGE_KEY, secret);
    refused = false;
  }
  notify();
}

export function sessionState(): SessionState {
  if (stored() !== null) return 'signed-in';
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
  if (stored() === null && refused) return;
  window.sessionStorage.removeItem(STORAGE_KEY);
  refused = true;
  notify();
}

/** Runs once when the bridge loads in a browser, before the first render. */
export function startWebSession(): void {
  adoptFromAddress();
  window.addEventListener('hashchange', adoptFromAddress);
}
