/**
 * Ctrl-C during `vendesk sync` against a slow service (a latency proxy in front of the sandbox):
 * the real CLI in a child process gets SIGINT, stops asking the service, exits 1 with the error
 * code `cancelled` (one JSON document with --json), and the next `vendesk sync` carries on and
 * ends with every entry of the service's own log exactly once.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/main/app';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startLatencyProxy, type LatencyProxy } from '../../support/latencyProxy';
import { allLogEntries } from '../../support/serviceLogEntries';
import { runVendesk, spawnVendesk } from '../../support/vendeskProcess';

const TOKEN = `interrupt-${randomUUID()}`;
let sandbox: SandboxHandle;
let proxy: LatencyProxy;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, tokens: [TOKEN], seedHistory: 3000, quiet: true });
  proxy = await startLatencyProxy(sandbox.url, 150);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-interrupt-'));
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const args = (...command: string[]) => ['--data-dir', dataDir, '--base-url', proxy.url, '--json', ...command];
const env = () => ({ HOME: dataDir, VENDESK_TOKEN: TOKEN });
const logRequests = () => proxy.exchanges.filter((e) => e.url.startsWith('/logEntries')).length;

describe('vendesk sync, interrupted with Ctrl-C', () => {
  it('stops cleanly with exit 1 and the code `cancelled`; the next sync completes with every entry once', async () => {
    const run = spawnVendesk(args('sync'), env());
    for (let i = 0; i < 6000 && logRequests() < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(logRequests()).toBeGreaterThanOrEqual(3);
    run.child.kill('SIGINT');
    expect(await run.closed).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      error: { code: 'cancelled', message: 'The sync was stopped.', hint: 'Run `vendesk sync` again; it carries on from the last page saved.' },
    });
    // The process is gone and asked nothing more; far fewer pages than 3000 entries need were read.
    const asked = logRequests();
    await new Promise((r) => setTimeout(r, 500));
    expect(logRequests()).toBe(asked);
    expect(asked).toBeLessThan(25);

    const again = await runVendesk(args('sync'), env());
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ resumed: true });

    // The mirror the CLI wrote, against the service's own log: every transaction once.
    const app = await createApp({ dataDir, shell: 'test', connection: { baseUrl: proxy.url, token: TOKEN, kind: 'live' } });
    try {
      const mirrored = app.db.prepare('SELECT transaction_id FROM log_entries WHERE profile_id = ?').pluck().all(app.connection.profileId) as string[];
      const service = await allLogEntries(sandbox.url, TOKEN);
      expect(mirrored).toHaveLength(service.length);
      expect(new Set(mirrored)).toEqual(new Set(service.map((e) => e.transaction_id)));
    } finally {
      await app.close();
    }
  }, 180_000);
});
