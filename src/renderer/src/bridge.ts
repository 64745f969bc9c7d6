/**
 * The renderer's one way out: the contract. In Electron it goes through the preload's
 * `window.vendesk` (IPC); in a browser it goes to the web shell over HTTP with the session
 * cookie, and events arrive as Server-Sent Events. Pages never know which.
 */
import type { AppEvent, CallResult, EventMap, EventName, OperationInput, OperationName, OperationOutput } from '../../shared/contract';
import type { ExportedFile, FileRef } from '../../shared/contract/files';
import { AppError, asAppError } from '../../shared/appError';

type Listener = (event: AppEvent) => void;
const listeners = new Set<Listener>();
let eventSource: EventSource | null = null;

function ensureEvents(): void {
  if (window.vendesk || eventSource) return;
  eventSource = new EventSource('/api/events');
  const names: EventName[] = ['sync.progress', 'import.progress', 'job.progress', 'pending.due', 'reconcile.progress', 'contacts.progress', 'data.changed'];
  for (const name of names) {
    eventSource.addEventListener(name, (e) => {
      const payload = JSON.parse((e as MessageEvent<string>).data) as EventMap[typeof name];
      for (const l of listeners) l({ name, payload } as AppEvent);
    });
  }
}

async function callRaw(name: string, input: unknown): Promise<CallResult<unknown>> {
  if (window.vendesk) return window.vendesk.call(name, input);
  let response: Response;
  try {
    response = await fetch(`/api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(input ?? {}),
    });
  } catch {
    return { ok: false, error: { code: 'offline', message: 'vendesk is not running.', hint: 'Start it again with npm start, then reload this page.' } };
  }
  try {
    return (await response.json()) as CallResult<unknown>;
  } catch {
    return { ok: false, error: { code: 'bad_response', message: `vendesk answered ${response.status} without a result.`, hint: 'Reload the page.' } };
  }
}

export const bridge = {
  kind: (): 'electron' | 'web' => (window.vendesk ? 'electron' : 'web'),

  async call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
    const result = await callRaw(name, input);
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

  /** Turns a file the user picked into something the main side can read. */
  async fileRef(file: File): Promise<FileRef> {
    if (window.vendesk) return { path: window.vendesk.pathForFile(file), name: file.name };
    const response = await fetch(`/api/upload?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      credentials: 'same-origin',
      body: file,
    });
    const result = (await response.json()) as CallResult<{ uploadId: string; name: string }>;
    if (!result.ok) throw AppError.fromShape(result.error);
    return { uploadId: result.value.uploadId, name: file.name };
  },

  /** Saves an export where the user can find it: a download in the browser, the folder in Electron. */
  async download(file: ExportedFile): Promise<void> {
    if (window.vendesk) return window.vendesk.reveal(file.path);
    const a = document.createElement('a');
    a.href = `/api/files/${encodeURIComponent(file.fileName)}`;
    a.download = file.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
  },
};

export { AppError, asAppError };
