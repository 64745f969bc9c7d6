/** Shared steps of the purchase and requery tests. */
import type { TestApp } from '../../support/testApp';
import { createPendingScheduler, createServiceClock } from '../../../src/main/requery';

/** Moves the sandbox's clock and vendesk's service clock forward together. */
export async function advanceClocks(t: TestApp, seconds: number): Promise<void> {
  await t.control('clock', { advanceSeconds: seconds });
  t.app.service(createServiceClock).advance(seconds * 1000);
}

/** The tests drive the requery loop by hand; the automatic one must not race them. */
export function pauseLoop(t: TestApp): void {
  t.app.service(createPendingScheduler).pause();
}

export async function walletKobo(t: TestApp): Promise<number> {
  return (await t.call('account.balance', {})).balanceKobo;
}

export const PHONE = '08031234567';
let seq = 100;
/** A fresh meter or smartcard number ending in `ending` (the sandbox's test numbers). */
export function account(ending: string): string {
  seq++;
  return `45${String(seq).padStart(5, '0')}${ending}`;
}
