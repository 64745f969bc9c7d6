/**
 * Starts vendesk as the web shell: the app's services plus the renderer on 127.0.0.1.
 * Used by `npm start` where the Electron runtime is not installed. Runs until Ctrl-C.
 */
import path from 'node:path';
import { createApp } from '../app';
import { defaultDataDir } from '../dataDir';
import { uploadsDirIn } from '../files';
import { uploadedFilesPolicy } from '../filePolicy';
import { startOnRememberedPort } from './rememberedPort';
import { startWebShell } from './webShell';

async function main(): Promise<void> {
  const dataDir = defaultDataDir();
  // The browser names files only by uploading them.
  // Pending purchases are requeried, bulk jobs' open items followed and the log synced while the app runs.
  const app = await createApp({ dataDir, shell: 'web', filePolicy: uploadedFilesPolicy(uploadsDirIn(dataDir)), background: true });
  // The same address at every start (remembered in the data folder), unless VENDESK_PORT asks for one.
  const wanted = process.env.VENDESK_PORT ? Number(process.env.VENDESK_PORT) : undefined;
  const staticDir = path.resolve(__dirname, '../../../out/renderer');
  // A link signs in one tab, once (its code is then spent): after each use the next one is printed.
  let nextLink = (): void => undefined;
  const { started: shell, movedFrom } = await startOnRememberedPort(dataDir, (port) => startWebShell({ app, staticDir, port, onLinkUsed: () => nextLink() }), wanted);
  nextLink = () => process.stdout.write(`\nA browser tab signed in with the link. For another tab, open this new link (each link works once):\n\n  ${shell.openUrl}\n`);
  const moved = movedFrom === null ? '' : `\nPort ${movedFrom} is used by another program, so this address is new (it is kept for the next start).\n`;
  const badge = app.connection.kind === 'sandbox' ? 'SANDBOX (built-in test service, no money moves)' : `LIVE (${app.connection.profileName})`;
  process.stdout.write(
    `\nvendesk is running — ${badge}\nData folder: ${dataDir}\n\n${moved}Open this link in your browser (it signs in the tab you open it in, once; a reload keeps the tab signed in):\n\n  ${shell.openUrl}\n\nPress Ctrl-C to stop.\n`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping vendesk…\n');
    void shell
      .close()
      .then(() => app.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`vendesk could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
