/** What the preload script exposes to the renderer as `window.vendesk` (Electron shell only). */
import type { AppEvent, CallResult } from '../shared/contract';

export interface VendeskPreloadApi {
  call(name: string, input: unknown): Promise<CallResult<unknown>>;
  on(listener: (event: AppEvent) => void): () => void;
  /** The path of a file the user picked (Electron's webUtils.getPathForFile). */
  pathForFile(file: File): string;
  /** Shows an exported file in the system's file manager. */
  reveal(path: string): Promise<void>;
}

declare global {
  interface Window {
    vendesk?: VendeskPreloadApi;
  }
}
