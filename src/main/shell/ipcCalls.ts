/**
 * The contract over Electron's IPC: `vendesk:call` (name, input, call id) dispatches one
 * operation, `vendesk:cancel` (call id) cancels one of the same window's calls while it runs.
 * Only a trusted frame may do either, and the calls are kept per window (its webContents), so a
 * window can cancel only its own. Written against the few members of ipcMain it uses, so a test
 * can drive it with a fake.
 */
import type { App } from '../appContext';
import { inFlightCalls } from './inFlightCalls';

/** What of an IPC event is read: who sent it. */
export interface CallerEvent {
  sender: { id: number };
}

/** The part of Electron's ipcMain used here. */
export interface IpcMainLike<E extends CallerEvent> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => unknown): void;
}

export function handleContractCalls<E extends CallerEvent>(ipc: IpcMainLike<E>, app: App, isTrusted: (event: E) => boolean): void {
  const calls = inFlightCalls(app);
  const owner = (event: E) => `window:${event.sender.id}`;
  ipc.handle('vendesk:call', async (event, name: unknown, input: unknown, callId: unknown) => {
    if (!isTrusted(event)) {
      return { ok: false, error: { code: 'untrusted_sender', message: 'This window may not call vendesk.' } };
    }
    if (typeof name !== 'string') return { ok: false, error: { code: 'invalid_input', message: 'Operation name must be text.' } };
    return calls.dispatch(app, owner(event), callId, name, input);
  });
  ipc.handle('vendesk:cancel', (event, callId: unknown) => ({ cancelled: isTrusted(event) && calls.cancel(owner(event), callId) }));
}
