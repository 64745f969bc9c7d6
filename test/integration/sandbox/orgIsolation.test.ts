/**
 * Issue 23, item 15: the sandbox's latency and fault controls (`/__sandbox/latency`,
 * `/__sandbox/faults`) apply to the organisation that set them only. The attack: another token —
 * another organisation of the same sandbox — sets 60 s of latency and faults on every endpoint;
 * vendesk (its own organisation) is still answered, while the attacker's own request is still held.
 * Nothing here is timed: the proof is the order in which the two answers arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../../support/sandboxControl';
import { startTestApp, type TestApp } from '../../support/testApp';

const ATTACKER = 'made-up-token-of-another-organisation';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A request as the attacker's organisation; `settled` says whether its answer has come. */
function attackerRequest(pathname: string): { settled: () => boolean; abort: () => void; done: Promise<unknown> } {
  const controller = new AbortController();
  let settled = false;
  const done = fetch(`${t.sandbox.url}${pathname}`, { headers: { Authorization: `Bearer ${ATTACKER}` }, signal: controller.signal })
    .then((r) => r.text())
    .catch(() => undefined)
    .finally(() => (settled = true));
  return { settled: () => settled, abort: () => controller.abort(), done };
}

describe('another organisation cannot slow or break vendesk’s', () => {
  it('60 s of latency set by another token holds that token’s answers only', async () => {
    const attacker = new SandboxControl(t.sandbox.url, ATTACKER);
    await attacker.setLatency(60_000);
    expect(await attacker.latency()).toBe(60_000);
    // The attacker's own request is held for its 60 s…
    const held = attackerRequest('/accountBalance');
    try {
      // …while vendesk's organisation is answered, several times over, and its own setting is untouched.
      for (let i = 0; i < 3; i++) {
        const wallet = await t.call('account.balance', {});
        expect(wallet.balanceKobo).toBeGreaterThan(0);
      }
      expect(held.settled()).toBe(false);
      expect(await t.sandboxControl.latency()).toBe(0);
    } finally {
      held.abort();
      await held.done;
    }
  });

  it('faults set by another token fail that token’s requests only', async () => {
    const attacker = new SandboxControl(t.sandbox.url, ATTACKER);
    for (const path of ['/accountBalance', '/purchaseAirtime', '/logEntries']) await attacker.addFault({ path, status: 503, count: 1000 });
    await attacker.setLatency(0);
    const refused = await fetch(`${t.sandbox.url}/accountBalance`, { headers: { Authorization: `Bearer ${ATTACKER}` } });
    expect(refused.status).toBe(503);
    expect((await t.call('account.balance', {})).balanceKobo).toBeGreaterThan(0);
    expect(await t.sandboxControl.faults()).toEqual([]);
  });
});
