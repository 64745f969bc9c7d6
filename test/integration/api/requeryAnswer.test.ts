/**
 * The one requery rule (src/main/api/requeryAnswer.ts), which a single electricity or cable
 * purchase and a bulk item both follow: what each of the service's answers means and when vendesk
 * asks again. Every answer comes from the sandbox over real HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { askRequery } from '../../../src/main/api/requeryAnswer';
import type { VendingClient } from '../../../src/main/api/vendingClient';
import { startHarness, type Harness } from './sandboxHarness';

let h: Harness;
afterEach(async () => {
  await h.close();
});

/** A pending electricity purchase of the meter (the sandbox's meters ending 0000 succeed, 1111 fail and 2222 stay pending). */
async function pendingPurchase(client: VendingClient, meter: string): Promise<string> {
  const disco = (await client.electricityCatalog())[0];
  const result = await client.purchaseElectricity({ amount: Math.max(2000, disco.minAmount), meter, phone: '08031234567', disco: disco.productCode, vendType: 'PREPAID' });
  expect(result.kind).toBe('pending');
  return result.reference;
}

describe('the requery rule', () => {
  it('before 2 min 1 s: ask again when the service says; then SUCCESS with the token', async () => {
    h = await startHarness();
    const reference = await pendingPurchase(h.client, '12345670000');
    const early = await askRequery(h.client, reference, 1);
    expect(early).toMatchObject({ kind: 'later', why: 'too_early' });
    // The moment vendesk asks again is the one the service named: its clock moved that far, it answers.
    const wait = early.kind === 'later' ? early.nextInMs : 0;
    expect(wait % 1000).toBe(0);
    await h.advanceClock(wait / 1000);
    const settled = await askRequery(h.client, reference, 1);
    expect(settled).toMatchObject({ kind: 'success' });
    expect(settled.kind === 'success' && settled.token).toMatch(/\d/);
  });

  it('FAILED settles it as failed', async () => {
    h = await startHarness();
    const reference = await pendingPurchase(h.client, '12345671111');
    await h.advanceClock(121);
    expect(await askRequery(h.client, reference, 1)).toEqual({ kind: 'failed' });
  });

  it('PENDING: again after 1, 2, 4 … minutes; when the service answers no more, it goes to support', async () => {
    h = await startHarness();
    const reference = await pendingPurchase(h.client, '12345672222');
    await h.advanceClock(121);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const verdict = await askRequery(h.client, reference, attempt);
      expect(verdict.kind).toBe('pending');
      if (verdict.kind === 'pending') waits.push(verdict.nextInMs / 60_000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    expect(await askRequery(h.client, reference, 6)).toMatchObject({ kind: 'support', error: { httpStatus: 429 } });
  });

  it('an unknown reference is not found; an unreachable provider is asked again in a minute', async () => {
    h = await startHarness();
    expect(await askRequery(h.client, 'REQ-DOES-NOT-EXIST', 1)).toMatchObject({ kind: 'not_found', error: { httpStatus: 404 } });
    const reference = await pendingPurchase(h.client, '12345670000');
    await h.advanceClock(121);
    await h.fault('/requeryTransaction', 502, 10);
    expect(await askRequery(h.client, reference, 1)).toMatchObject({ kind: 'later', why: 'provider_unreachable', nextInMs: 60_000 });
  });
});
