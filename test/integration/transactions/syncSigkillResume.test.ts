/**
 * The fault test of the sync: the real `vendesk sync` in a child process, against a sandbox 20 ms
 * away with 30,000 entries, killed with SIGKILL several times while it writes, with purchases
 * made between the kills (so the log's pages move), and run again each time. In the end the
 * mirror holds exactly the service's log: every entry, none twice.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../../src/sandbox';
import { startTestSandbox } from '../../support/testSandbox';
import { killWhen, spawnVendesk, type VendeskRun } from '../../support/vendeskProcess';

const TOKEN = 'sigkill-sync-org';
const HISTORY = 30_000;

function mirrorCount(dataDir: string): number {
  const file = path.join(dataDir, 'vendesk.db');
  if (!fs.existsSync(file)) return 0;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT COUNT(*) FROM log_entries').pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet
  }
}

async function serviceIds(baseUrl: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/logEntries?page=${page}&perPage=100`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const body = (await res.json()) as { data: { Items: { id: number }[]; TotalPages: number } };
    ids.push(...body.data.Items.map((e) => e.id));
    if (page >= body.data.TotalPages) return ids.sort((a, b) => a - b);
  }
}

async function buyAirtime(baseUrl: string, phone: string): Promise<void> {
  const res = await fetch(`${baseUrl}/purchaseAirtime`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify([{ phoneNumber: phone, amount: 100, network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]),
  });
  expect(res.status).toBe(202);
}

describe('a sync killed with SIGKILL and run again', () => {
  let sandbox: SandboxHandle;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: [TOKEN], seedHistory: HISTORY, latencyMs: 20 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-sync-kill-'));
  });

  afterAll(async () => {
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('mirrors every entry exactly once', { timeout: 240_000 }, async () => {
    const sync = (): VendeskRun => spawnVendesk(['sync', '--data-dir', dataDir, '--base-url', sandbox.url, '--json'], { HOME: dataDir, VENDESK_TOKEN: TOKEN });
    const kills: string[] = [];
    let bought = 0;
    for (const atLeast of [2_500, 9_000, 17_000, 26_000]) {
      const run = sync();
      kills.push(await killWhen(run, async () => mirrorCount(dataDir) >= atLeast));
      // New entries at the front of the log while the sync is down: every page after them moves.
      for (let i = 0; i < 3; i++) await buyAirtime(sandbox.url, `0806${String(1_000_000 + bought++).slice(-7)}`);
    }
    expect(kills.filter((k) => k === 'killed').length).toBeGreaterThanOrEqual(3);

    const last = sync();
    const code = await last.closed;
    expect(code, last.stderr).toBe(0);
    const summary = JSON.parse(last.stdout.trim()) as { resumed: boolean; inserted: number };
    expect(summary.resumed).toBe(true);

    const ids = await serviceIds(sandbox.url);
    expect(ids).toHaveLength(HISTORY + bought);
    const db = new Database(path.join(dataDir, 'vendesk.db'), { readonly: true });
    const mirrored = db.prepare('SELECT id FROM log_entries ORDER BY id').pluck().all() as number[];
    const run = db.prepare('SELECT run_started_at FROM sync_checkpoints').pluck().all();
    db.close();
    expect(mirrored).toEqual(ids);
    // The run is finished: nothing left to continue.
    expect(run).toEqual([null]);
    console.info(`kills: ${kills.join(', ')}; bought between kills: ${bought}`);
  });
});
