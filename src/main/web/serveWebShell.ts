/**
 * vendesk as the web shell: the app's services plus the built renderer on 127.0.0.1, until
 * SIGINT/SIGTERM. Started by `vendesk web` (an installed package) and by `npm start` where the
 * Electron runtime is not installed (serve.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/appError';
import { createApp } from '../app';
import { uploadsDirIn } from '../files';
import { uploadedFilesPolicy } from '../filePolicy';
import { startOnRememberedPort } from './rememberedPort';
import { startWebShell } from './webShell';

/**
 * The window's built files (`out/renderer`, made by `npm run build`) of the package this code
 * belongs to: the first folder above it that holds a package.json is the package (a checkout, or
 * vendesk installed with npm, where this code runs from out/cli).
 */
export function builtRendererDir(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'out', 'renderer');
    if (path.dirname(dir) === dir) return path.join(from, 'out', 'renderer');
  }
}

export interface ServeOptions {
  dataDir: string;
  /** The port asked for (0 = any free one); default the one remembered in the data folder. */
  port?: number;
  /** What a person reads: the address to open, how to stop. */
  say: (text: string) => void;
}

/** Serves until SIGINT or SIGTERM, then closes the shell and the app. */
export async function serveWebShell(options: ServeOptions): Promise<void> {
  const { dataDir, say } = options;
  const staticDir = builtRendererDir();
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    throw new AppError('file_missing', `The window's files are not built (${staticDir} has no index.html).`, 'In a checkout of vendesk, run: npm run build');
  }
  // The browser names files only by uploading them.
  // Pending purchases are requeried, bulk jobs' open items followed and the log synced while the app runs.
  const app = await createApp({ dataDir, shell: 'web', filePolicy: uploadedFilesPolicy(uploadsDirIn(dataDir)), background: true });
  // The same address at every start (remembered in the data folder), unless a port is asked for.
  // A link signs in one tab, once (its code is then spent): after each use the next one is said.
  let nextLink = (): void => undefined;
  const { started: shell, movedFrom } = await startOnRememberedPort(dataDir, (port) => startWebShell({ app, staticDir, port, onLinkUsed: () => nextLink() }), options.port).catch(
    async (error: unknown) => {
      await app.close();
      throw error;
    },
  );
  nextLink = () => say(`\nA browser tab signed in with the link. For another tab, open this new link (each link works once):\n\n  ${shell.openUrl}\n`);
  const moved = movedFrom === null ? '' : `\nPort ${movedFrom} is used by another program, so this address is new (it is kept for the next start).\n`;
  const badge = app.connection.kind === 'sandbox' ? 'SANDBOX (built-in test service, no money moves)' : `LIVE (${app.connection.profileName})`;
  say(
    `\nvendesk is running — ${badge}\nData folder: ${dataDir}\n\n${moved}Open this link in your browser (it signs in the tab you open it in, once; a reload keeps the tab signed in):\n\n  ${shell.openUrl}\n\nPress Ctrl-C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      say('\nStopping vendesk…\n');
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await shell.close();
  await app.close();
}
