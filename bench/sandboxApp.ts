/** A bench's app on a data folder of its own, connected to an embedded sandbox over real HTTP; both stopped and the folder removed after `run`. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/main/app';
import type { App } from '../src/main/appContext';
import { startTestSandbox, type TestSandbox } from '../test/support/testSandbox';

export async function withSandboxApp(name: string, run: (app: App, sandbox: TestSandbox, dataDir: string) => Promise<void>): Promise<void> {
  const sandbox = await startTestSandbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vendesk-${name}-bench-`));
  const app = await createApp({ dataDir, shell: 'cli', connection: { baseUrl: sandbox.url, token: 'bench', kind: 'sandbox' } });
  try {
    await run(app, sandbox, dataDir);
  } finally {
    await app.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs a bench's `main`, printing what stopped it and failing the process. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
