/**
 * The Electron shell — the only code that imports `electron`. It creates the window per
 * Electron's security checklist, wires the contract to ipcMain.handle (every input parsed by the
 * contract's schema in dispatch, the sender frame checked), forwards events, and keeps live
 * tokens encrypted with safeStorage.
 */
import { app as electronApp, BrowserWindow, ipcMain, session, shell } from 'electron';
import path from 'node:path';
import { createApp, type App } from './app';
import { dispatch } from './dispatch';
import { ensureBulkFollowUp } from './bulk/followUpLoop';
import { ensurePendingScheduler } from './requery';
import { electronNativeBinding } from './shell/nativeBinding';
import { SafeStorageTokenStore } from './shell/safeTokenStore';
import { CONTENT_SECURITY_POLICY } from './web/webShell';

let core: App | null = null;

const rendererUrl = process.env.ELECTRON_RENDERER_URL;
const rendererFile = path.join(__dirname, '../renderer/index.html');

/** Only our own page may call the contract. */
function isTrustedFrame(frame: Electron.WebFrameMain | null): boolean {
  if (!frame) return false;
  const url = frame.url;
  if (rendererUrl && url.startsWith(rendererUrl)) return true;
  return url.startsWith('file://') && decodeURIComponent(new URL(url).pathname).endsWith('/renderer/index.html');
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'vendesk',
    autoHideMenuBar: true,
    webPreferences: {
      preload: path.join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  // No navigation away from the app, no new windows; links open in the system browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!(rendererUrl && url.startsWith(rendererUrl))) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  if (rendererUrl) void win.loadURL(rendererUrl);
  else void win.loadFile(rendererFile);
  return win;
}

async function start(): Promise<void> {
  await electronApp.whenReady();
  // Strict CSP on every response, and no permission (camera, notifications…) is ever granted.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  electronApp.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  core = await createApp({
    dataDir: electronApp.getPath('userData'),
    shell: 'electron',
    tokenStore: new SafeStorageTokenStore(path.join(electronApp.getPath('userData'), 'tokens.json')),
    nativeBinding: electronNativeBinding(electronApp.getAppPath()),
  });
  const appCore = core;
  ensurePendingScheduler(appCore);
  ensureBulkFollowUp(appCore);

  ipcMain.handle('vendesk:call', async (event, name: unknown, input: unknown) => {
    if (!isTrustedFrame(event.senderFrame)) {
      return { ok: false, error: { code: 'untrusted_sender', message: 'This window may not call vendesk.' } };
    }
    if (typeof name !== 'string') return { ok: false, error: { code: 'invalid_input', message: 'Operation name must be text.' } };
    return dispatch(appCore, name, input);
  });
  ipcMain.handle('vendesk:reveal', (event, filePath: unknown) => {
    if (!isTrustedFrame(event.senderFrame) || typeof filePath !== 'string') return;
    const exports = path.join(appCore.dataDir, 'exports');
    if (path.dirname(path.resolve(filePath)) === exports) shell.showItemInFolder(filePath);
  });
  appCore.events.subscribe((event) => {
    for (const win of BrowserWindow.getAllWindows()) win.webContents.send('vendesk:event', event);
  });

  createWindow();
  electronApp.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

electronApp.on('window-all-closed', () => {
  if (process.platform !== 'darwin') electronApp.quit();
});
electronApp.on('before-quit', () => {
  void core?.close();
});

start().catch((error: unknown) => {
  console.error('vendesk could not start:', error instanceof Error ? error.message : error);
  electronApp.exit(1);
});
