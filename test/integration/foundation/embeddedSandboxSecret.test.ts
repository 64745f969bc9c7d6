/**
 * Issue 13, finding 9: the embedded sandbox answers only to a secret made at each start of
 * vendesk. Another local user who knows the organisation's fixed name (it is in the source) cannot
 * change its demo wallet; vendesk keeps its demo organisation across starts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, EMBEDDED_SANDBOX_ORG } from '../../../src/main/app';
import { dispatch } from '../../../src/main/dispatch';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-embedded-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function balanceKobo(app: Awaited<ReturnType<typeof createApp>>): Promise<number> {
  const r = await dispatch(app, 'account.balance', {});
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { balanceKobo: number }).balanceKobo;
}

describe('the embedded sandbox', () => {
  it('refuses a local caller who uses the organisation’s fixed name, and keeps its wallet across starts', async () => {
    const first = await createApp({ dataDir, shell: 'test', sandboxSeedHistory: 5 });
    const url = first.connection.baseUrl;
    const before = await balanceKobo(first);
    for (const bearer of [EMBEDDED_SANDBOX_ORG, 'anything-else']) {
      const attack = await fetch(`${url}/__sandbox/wallet`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ balance: 1 }),
      });
      expect(attack.status).toBe(401);
    }
    expect(await balanceKobo(first)).toBe(before);
    await first.close();

    const second = await createApp({ dataDir, shell: 'test', sandboxSeedHistory: 5 });
    try {
      expect(second.connection.baseUrl).not.toBe('');
      expect(await balanceKobo(second)).toBe(before);
    } finally {
      await second.close();
    }
  });
});
