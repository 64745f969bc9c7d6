/**
 * Starts vendesk as the web shell (serveWebShell.ts) with the default data folder and the port
 * in VENDESK_PORT (else the remembered one). Used by `npm start` where the Electron runtime is not
 * installed. Runs until Ctrl-C.
 */
import { defaultDataDir } from '../dataDir';
import { serveWebShell } from './serveWebShell';

serveWebShell({
  dataDir: defaultDataDir(),
  port: process.env.VENDESK_PORT ? Number(process.env.VENDESK_PORT) : undefined,
  say: (text) => process.stdout.write(text),
}).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`vendesk could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
