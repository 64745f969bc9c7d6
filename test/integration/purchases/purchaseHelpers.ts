/** Shared steps of the purchase and requery tests. */
import { runCli } from '../../../src/cli/main';
import { startTestApp, type TestApp } from '../../support/testApp';
import { createPendingScheduler } from '../../../src/main/pending';
import type { LogEntry, PageObject } from '../../../src/shared/wire';

/** A vendesk whose requery loop the test drives by hand, with ₦1,000,000 in the wallet. */
export async function startPurchaseTestApp(): Promise<TestApp> {
  const t = await startTestApp();
  pauseLoop(t);
  await t.sandboxControl.setWallet(1_000_000);
  return t;
}

/**
 * A vendesk whose requery loop the test drives by hand, where airtime stays in progress at the
 * service for 10 minutes of its clock and a top-up does not wait for it: its receipt says pending,
 * and vendesk keeps following it.
 */
export async function startPendingTopUpApp(): Promise<TestApp> {
  const t = await startTestApp({ creditDelayMs: 600_000 });
  pauseLoop(t);
  await t.call('bulk.settings.set', { outcomeWaitSeconds: 0 });
  return t;
}

export { advanceClocks, lagosDayWithRoom } from '../../support/serviceClocks';

/** The tests drive the requery loop by hand; the automatic one must not race them. */
export function pauseLoop(t: TestApp): void {
  t.app.service(createPendingScheduler).pause();
}

/** One pass of the requery loop, now; the loop is paused again afterwards. */
export async function tickRequeryLoop(t: TestApp): Promise<void> {
  const loop = t.app.service(createPendingScheduler);
  loop.resume();
  try {
    await loop.tick();
  } finally {
    loop.pause();
  }
}

/** `vendesk ARGS --json` in process, against the test's sandbox and data folder. */
export async function cli(t: TestApp, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, '--base-url', t.sandbox.url, '--data-dir', t.dataDir, '--json'], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { VENDESK_TOKEN: t.token },
  });
  return { code, stdout, stderr };
}

export async function walletKobo(t: TestApp): Promise<number> {
  return (await t.call('account.balance', {})).balanceKobo;
}

/** The sandbox's own log entry with this transaction id (read straight from the service, not vendesk). */
export async function serviceLogEntry(t: TestApp, transactionId: string): Promise<LogEntry | undefined> {
  const url = new URL(`${t.sandbox.url}/logEntries`);
  url.searchParams.set('search', transactionId);
  url.searchParams.set('perPage', '100');
  const answer = (await (await fetch(url, { headers: { Authorization: `Bearer ${t.token}` } })).json()) as { data: PageObject<LogEntry> };
  return answer.data.Items.find((e) => e.transaction_id === transactionId);
}

export const PHONE = '08031234567';
let seq = 100;
/** A fresh meter or smartcard number ending in `ending` (the sandbox's test numbers). */
export function account(ending: string): string {
  seq++;
  return `45${String(seq).padStart(5, '0')}${ending}`;
}
