/**
 * The Electron shell — the only code that imports `electron`. It creates the window per
 * Electron's security checklist, serves the renderer from its own app:// origin, wires the
 * contract to ipcMain.handle (./shell/ipcCalls.ts: every input parsed by the contract's schema in
 * dispatch, the sender frame checked, a window's calls cancellable by their id), forwards events, opens files only through its own dialog, and keeps live tokens
 * encrypted with safeStorage where there is a keyring.
 */
import { app as electronApp, BrowserWindow, dialog, ipcMain, net, Notification, protocol, safeStorage, session, shell } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isAllowedExternalUrl } from '../shared/externalLinks';
import { standingNotice, tellsSystem } from '../shared/standingNotice';
import { createApp } from './app';
import type { App } from './appContext';
import { appAssetPath } from './shell/appProtocol';
import { handleContractCalls } from './shell/ipcCalls';
import { electronNativeBinding } from './shell/nativeBinding';
import { PickedFiles } from './shell/pickedFiles';
import { APP_ENTRY_URL, APP_SCHEME, isRendererUrl } from './shell/rendererOrigin';
import { SafeStorageTokenStore } from './shell/safeTokenStore';
import { sealedTeamPasswordStore } from './shell/teamPasswordStore';
import { EnvFirstTokenStore } from './store/tokenStore';
import { CONTENT_SECURITY_POLICY } from './web/webShell';

let core: App | null = null;

/** Set by electron-vite in development only: the dev server's address. */
const rendererUrl = process.env.ELECTRON_RENDERER_URL;
const rendererDir = path.join(__dirname, '../renderer');

// app:// is a standard, secure origin of its own (registered before the app is ready, as Electron requires).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

/** Only our own page, in its top frame, may call the contract. */
function isTrustedFrame(frame: Electron.WebFrameMain | null): boolean {
  return !!frame && frame.parent === null && isRendererUrl(frame.url, rendererUrl);
}

/** Serves the build folder on app://vendesk/, with the strict CSP; nothing outside it. */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = appAssetPath(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const response = await net.fetch(pathToFileURL(file).toString());
      const headers = new Headers(response.headers);
      headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      headers.set('X-Content-Type-Options', 'nosniff');
      return new Response(response.body, { status: response.status, headers });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
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
  // No navigation away from the app, no new windows; the links vendesk shows open in the system browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!isRendererUrl(url, rendererUrl)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void win.loadURL(rendererUrl ?? APP_ENTRY_URL);
  return win;
}

/** The operating system's notification of a standing order's run, in the words of the window's notice. */
function showStandingNotification(payload: Parameters<typeof standingNotice>[0]): void {
  const { title, body } = standingNotice(payload);
  const notification = new Notification({ title, body, silent: false });
  notification.on('click', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
    void win.webContents.executeJavaScript("window.location.hash = '/standing'").catch(() => undefined);
  });
  notification.show();
}

async function start(): Promise<void> {
  await electronApp.whenReady();
  serveRenderer();
  // Strict CSP on every response, and no permission (camera, notifications…) is ever granted or reported as granted.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  electronApp.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  // Main opens only the files the user chose in its dialog (handles), never a path the renderer names.
  const pickedFiles = new PickedFiles();
  core = await createApp({
    dataDir: electronApp.getPath('userData'),
    shell: 'electron',
    // VENDESK_TOKEN wins at the address in VENDESK_BASE_URL, as in the other shells: the way to a
    // live profile where there is no keyring.
    tokenStore: new EnvFirstTokenStore(
      new SafeStorageTokenStore(path.join(electronApp.getPath('userData'), 'tokens.json'), safeStorage),
      process.env.VENDESK_TOKEN,
      process.env.VENDESK_BASE_URL,
    ),
    // The team database password too, in the keychain (the web shell and the CLI keep a 0600 file).
    teamPasswordStore: sealedTeamPasswordStore(electronApp.getPath('userData'), safeStorage),
    filePolicy: pickedFiles,
    nativeBinding: electronNativeBinding(electronApp.getAppPath()),
    // Pending purchases are requeried, bulk jobs' open items followed and the log synced while the window is open.
    background: true,
  });
  const appCore = core;

  handleContractCalls(ipcMain, appCore, (event) => isTrustedFrame(event.senderFrame));
  ipcMain.handle('vendesk:pick-file', async (event, request: unknown) => {
    if (!isTrustedFrame(event.senderFrame)) return null;
    const win = BrowserWindow.fromWebContents(event.sender);
    return pickedFiles.choose(request, (options) => (win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options)));
  });
  ipcMain.handle('vendesk:reveal', (event, filePath: unknown) => {
    if (!isTrustedFrame(event.senderFrame) || typeof filePath !== 'string') return;
    const exports = path.join(appCore.dataDir, 'exports');
    if (path.dirname(path.resolve(filePath)) === exports) shell.showItemInFolder(filePath);
  });
  appCore.events.subscribe((event) => {
    for (const win of BrowserWindow.getAllWindows()) win.webContents.send('vendesk:event', event);
  });
  // A standing order's occurrence that ended or waits is told by the operating system too (plain text:
  // a notification renders no markup), in the words of the window's notice; a click opens its page.
  appCore.events.on('standing.occurrence', (p) => {
    if (tellsSystem(p.outcome) && Notification.isSupported()) showStandingNotification(p);
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
