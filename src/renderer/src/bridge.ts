/**
 * The renderer's one way out: the contract. In Electron it goes through the preload's
 * `window.vendesk` (IPC); in a browser it goes to the web shell over HTTP, every request signed
 * with this tab's session header (./webSession.ts), and events arrive as Server-Sent Events read
 * from a fetch() body. Pages never know which.
 */
import type { AppEvent, CallResult, EventMap, EventName, OperationInput, OperationName, OperationOutput } from '../../shared/contract';
import { isEventName } from '../../shared/contract/events';
import type { ExportedFile, FileRef } from '../../shared/contract/files';
import { AppError, asAppError } from '../../shared/appError';
import { splitEventStream } from '../../shared/eventStream';
import { electronFileRef, startElectronFilePicks } from './electronFilePicks';
import { CALL_HEADER } from '../../shared/webSession';
import { sessionHeaders, sessionRefused, sessionState, startWebSession, watchSession, type SessionState } from './webSession';

type Listener = (event: AppEvent) => void;
const listeners = new Set<Listener>();
/** How long to wait before reconnecting the event stream after it dropped. */
const EVENTS_RETRY_MS = 2000;
let streaming = false;

if (window.vendesk) startElectronFilePicks(window.vendesk);
else startWebSession();

/** A request to the web shell with this tab's session; a 401 means the tab is no longer signed in. */
async function webFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { ...init, credentials: 'omit', headers: { ...(init.headers as Record<string, string> | undefined), ...sessionHeaders() } });
  if (response.status === 401) sessionRefused();
  return response;
}

/** A web shell answer that is not a result, as the error the user sees. */
function badResponse(status: number): AppError {
  return new AppError('bad_response', `vendesk answered ${status} without a result.`, 'Reload the page.');
}

/** The failure of a web shell request that answered with an error, as the error the user sees. */
async function failureOf(response: Response): Promise<AppError> {
  try {
    const body = (await response.json()) as CallResult<unknown>;
    if (!body.ok) return AppError.fromShape(body.error);
  } catch {
    // Not a JSON error body.
  }
  return badResponse(response.status);
}

/** Reads the event stream for as long as the tab is signed in, reconnecting when it drops. */
async function streamEvents(): Promise<void> {
  if (streaming) return;
  streaming = true;
  try {
    while (sessionState() === 'signed-in') {
      try {
        const response = await webFetch('/api/events', { headers: { Accept: 'text/event-stream' }, cache: 'no-store' });
        if (response.ok && response.body) {
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let rest = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const split = splitEventStream(rest + value);
            rest = split.rest;
            for (const e of split.events) {
              // An event this build does not know (a newer vendesk behind the tab) is skipped.
              if (!isEventName(e.name)) continue;
              const event = { name: e.name, payload: JSON.parse(e.data) as unknown } as AppEvent;
              for (const l of listeners) l(event);
            }
          }
        } else {
          await response.body?.cancel();
        }
      } catch {
        // vendesk stopped or the connection dropped: try again shortly.
      }
      if (sessionState() !== 'signed-in') break;
      await new Promise((resolve) => window.setTimeout(resolve, EVENTS_RETRY_MS));
    }
  } finally {
    streaming = false;
  }
}

function ensureEvents(): void {
  if (window.vendesk) return;
  void streamEvents();
}

if (!window.vendesk) {
  // A tab signed in again (the link pasted into it) gets its events back.
  watchSession((state) => {
    if (state === 'signed-in' && listeners.size > 0) ensureEvents();
  });
}

/** Asks vendesk to stop the call with this id (this window's own); it then answers `cancelled`. */
function cancelCall(callId: string): void {
  if (window.vendesk) void window.vendesk.cancel(callId).catch(() => undefined);
  else void webFetch(`/api/cancel/${callId}`, { method: 'POST' }).catch(() => undefined);
}

async function callRaw(name: string, input: unknown, signal?: AbortSignal): Promise<CallResult<unknown>> {
  if (signal?.aborted) return { ok: false, error: { code: 'cancelled', message: 'Cancelled before it was sent.' } };
  // A call that may be cancelled carries an id; aborting the signal cancels it by that id.
  const callId = signal ? crypto.randomUUID() : undefined;
  const cancel = () => callId && cancelCall(callId);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await sendCall(name, input, callId);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

async function sendCall(name: string, input: unknown, callId: string | undefined): Promise<CallResult<unknown>> {
  if (window.vendesk) return window.vendesk.call(name, input, callId);
  let response: Response;
  try {
    response = await webFetch(`/api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(callId ? { [CALL_HEADER]: callId } : {}) },
      body: JSON.stringify(input ?? {}),
    });
  } catch {
    return { ok: false, error: { code: 'offline', message: 'vendesk is not running.', hint: 'Start it again with npm start, then reload this page.' } };
  }
  try {
    return (await response.json()) as CallResult<unknown>;
  } catch {
    return { ok: false, error: badResponse(response.status).toShape() };
  }
}

export const bridge = {
  kind: (): 'electron' | 'web' => (window.vendesk ? 'electron' : 'web'),

  /** Whether this window may use vendesk (always, in Electron; a browser tab needs the link). */
  sessionState: (): SessionState => (window.vendesk ? 'signed-in' : sessionState()),

  /** Follows sessionState(); returns the unsubscribe function. */
  watchSession: (watch: (state: SessionState) => void): (() => void) => (window.vendesk ? () => {} : watchSession(watch)),

  /**
   * Calls one operation. With `signal` (an AbortController's), aborting it cancels the call in
   * vendesk: the call then fails with the code `cancelled`.
   */
  async call<N extends OperationName>(name: N, input: OperationInput<N>, options: { signal?: AbortSignal } = {}): Promise<OperationOutput<N>> {
    const result = await callRaw(name, input, options.signal);
    if (!result.ok) throw AppError.fromShape(result.error);
    return result.value as OperationOutput<N>;
  },

  on<N extends EventName>(name: N, handler: (payload: EventMap[N]) => void): () => void {
    const listener: Listener = (event) => {
      if (event.name === name) handler(event.payload as EventMap[N]);
    };
    if (window.vendesk) return window.vendesk.on(listener);
    ensureEvents();
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Turns a file the user picked into something the main side can read: an upload, or main's handle in Electron. */
  async fileRef(file: File): Promise<FileRef> {
    if (window.vendesk) return electronFileRef(window.vendesk, file);
    const response = await webFetch(`/api/upload?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: file,
    });
    if (!response.ok) throw await failureOf(response);
    const result = (await response.json()) as CallResult<{ uploadId: string; name: string }>;
    if (!result.ok) throw AppError.fromShape(result.error);
    return { uploadId: result.value.uploadId, name: file.name };
  },

  /**
   * Saves an export where the user can find it: a download in the browser, the folder in Electron.
   * A link cannot carry the session header, so the browser fetches the file with it and saves it
   * from memory (a blob: address only this tab can open).
   */
  async download(file: ExportedFile): Promise<void> {
    if (window.vendesk) return window.vendesk.reveal(file.path);
    const response = await webFetch(`/api/files/${encodeURIComponent(file.fileName)}`, { cache: 'no-store' });
    if (!response.ok) throw await failureOf(response);
    const url = URL.createObjectURL(await response.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = file.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Revoked later, not at once: the browser may still be reading it into the download.
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
};

export { AppError, asAppError };
