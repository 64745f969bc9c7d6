/**
 * The calls a window or a web session has under way, by the id the caller gave each one, so that
 * the caller can cancel one of them (an AbortSignal through dispatch). Calls are kept per owner —
 * one Electron window, one web shell session — and a cancel names its owner too: a caller can
 * only ever cancel its own calls; another owner's id finds nothing.
 */
import type { CallResult } from '../../shared/contract';
import { AppError } from '../../shared/appError';
import type { App, AppPart } from '../appContext';
import { dispatch, toErrorShape } from '../dispatch';

/** What a caller may use as a call id: 8 to 64 letters, digits, `-` or `_` (a UUID fits). */
const CALL_ID = /^[A-Za-z0-9_-]{8,64}$/;

export function isCallId(value: unknown): value is string {
  return typeof value === 'string' && CALL_ID.test(value);
}

export class InFlightCalls {
  private readonly calls = new Map<string, AbortController>();

  private static key(owner: string, callId: string): string {
    return `${owner}\n${callId}`;
  }

  /**
   * Dispatches one call; with a call id it is kept under its owner while it runs, so `cancel` can
   * abort it. Without one it runs as before (it cannot be cancelled by id).
   */
  async dispatch(app: App, owner: string, callId: unknown, name: string, input: unknown): Promise<CallResult<unknown>> {
    if (callId === undefined || callId === null) return dispatch(app, name, input);
    if (!isCallId(callId)) {
      return {
        ok: false,
        error: toErrorShape(new AppError('invalid_input', 'The call id must be 8 to 64 letters, digits, - or _.', 'Update vendesk: the window and the app are out of step.')),
      };
    }
    const key = InFlightCalls.key(owner, callId);
    if (this.calls.has(key)) {
      return { ok: false, error: toErrorShape(new AppError('invalid_input', 'A call with this id is already running.', 'Give every call its own id.')) };
    }
    const controller = new AbortController();
    this.calls.set(key, controller);
    try {
      return await dispatch(app, name, input, { signal: controller.signal });
    } finally {
      this.calls.delete(key);
    }
  }

  /** Aborts the owner's call with this id; false when the owner has no such call under way. */
  cancel(owner: string, callId: unknown): boolean {
    if (!isCallId(callId)) return false;
    const controller = this.calls.get(InFlightCalls.key(owner, callId));
    if (!controller) return false;
    controller.abort();
    return true;
  }

  /** Aborts every call under way (the app is closing). */
  cancelAll(): void {
    for (const controller of this.calls.values()) controller.abort();
  }
}

export function createInFlightCalls(app: AppPart<'onClose'>): InFlightCalls {
  const calls = new InFlightCalls();
  app.onClose(() => calls.cancelAll());
  return calls;
}

/** The app's one table of calls under way, shared by its shells. */
export function inFlightCalls(app: AppPart<'service'>): InFlightCalls {
  return app.service(createInFlightCalls);
}
