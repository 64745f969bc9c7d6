/** What the preload script exposes to the renderer as `window.vendesk` (Electron shell only). */
import type { AppEvent, CallResult } from '../shared/contract';
import type { FileRef } from '../shared/contract/files';

export interface VendeskPreloadApi {
  /** One operation of the contract; with `callId`, `cancel(callId)` can stop it while it runs. */
  call(name: string, input: unknown, callId?: string): Promise<CallResult<unknown>>;
  /** Cancels this window's call with that id; `cancelled` is false when none such runs. */
  cancel(callId: string): Promise<{ cancelled: boolean }>;
  on(listener: (event: AppEvent) => void): () => void;
  /**
   * Opens vendesk's open-file dialog (in main). The chosen file comes back as a handle main issued
   * (the only way the renderer can name a file); null when the user cancels.
   */
  pickFile(request: { accept?: string; defaultPath?: string }): Promise<FileRef | null>;
  /** The path of a file dropped on the page (Electron's webUtils.getPathForFile): where the dialog opens. */
  pathForFile(file: File): string;
  /** Shows an exported file in the system's file manager. */
  reveal(path: string): Promise<void>;
}

declare global {
  interface Window {
    vendesk?: VendeskPreloadApi;
  }
}
