/** Shared steps of the purchase and requery tests. */
import { runCli } from '../../../src/cli/main';
import { startTestApp, type TestApp } from '../../support/testApp';
import { createPendingScheduler, createServiceClock } from '../../../src/main/pending';
import type { LogEntry, PageObject } from '../../../src/shared/wire';

/** A vendesk whose requery loop the test drives by hand, with ₦1,000,000 in the wallet. */
export async function startPurchaseTestApp(): Promise<TestApp> {
  const t = await startTestApp();
  pauseLoop(t);
  await t.sandboxControl.setWallet(1_000_000);
  return t;
}

/** Moves the sandbox's clock and vendesk's service clock forward together. */
export async function advanceClocks(t: TestApp, seconds: number): Promise<void> {
  await t.sandboxControl.advanceClock(seconds);
  t.app.service(createServiceClock).advance(seconds * 1000);
}

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

/**
 * Today's Lagos day on the sandbox's clock. When fewer than `marginMinutes` are left before Lagos
 * midnight, both clocks are first moved just past it, so a test that reads "today" before and after
 * its work reads the same day however long the work takes on a busy machine.
 */
export async function lagosDayWithRoom(t: TestApp, marginMinutes = 30): Promise<string> {
  const lagosMs = Date.parse((await t.sandboxControl.clock()).now) + 3_600_000;
  const leftMs = 86_400_000 - (lagosMs % 86_400_000);
  if (leftMs >= marginMinutes * 60_000) return new Date(lagosMs).toISOString().slice(0, 10);
  await advanceClocks(t, Math.ceil(leftMs / 1000) + 60);
  return new Date(lagosMs + leftMs + 60_000).toISOString().slice(0, 10);
}
