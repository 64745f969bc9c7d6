/**
 * The preload script: exposes the contract to the renderer as `window.vendesk` and nothing else.
 * Runs sandboxed with context isolation; inputs are parsed again on the main side.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { AppEvent, CallResult } from '../shared/contract';
import type { FileRef } from '../shared/contract/files';
import type { VendeskPreloadApi } from './api';

const api: VendeskPreloadApi = {
  call: (name, input, callId) => ipcRenderer.invoke('vendesk:call', name, input, callId) as Promise<CallResult<unknown>>,
  cancel: (callId) => ipcRenderer.invoke('vendesk:cancel', callId) as Promise<{ cancelled: boolean }>,
  on: (listener) => {
    const wrapped = (_e: Electron.IpcRendererEvent, event: AppEvent) => listener(event);
    ipcRenderer.on('vendesk:event', wrapped);
    return () => ipcRenderer.removeListener('vendesk:event', wrapped);
  },
  pickFile: (request) => ipcRenderer.invoke('vendesk:pick-file', request) as Promise<FileRef | null>,
  pathForFile: (file) => webUtils.getPathForFile(file),
  reveal: (path) => ipcRenderer.invoke('vendesk:reveal', path) as Promise<void>,
};

contextBridge.exposeInMainWorld('vendesk', api);
