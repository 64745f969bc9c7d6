/**
 * The service's clock in tests: the sandbox's, and vendesk's estimate of it, moved together; and
 * "today" read from it (never from this computer's clock), with room before Lagos midnight.
 */
import { createServiceClock } from '../../src/main/api/serviceClock';
import type { TestApp } from './testApp';

/** Moves the sandbox's clock and vendesk's service clock forward together. */
export async function advanceClocks(t: TestApp, seconds: number): Promise<void> {
  await t.sandboxControl.advanceClock(seconds);
  t.app.service(createServiceClock).advance(seconds * 1000);
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

/**
 * Moves both clocks to 01:00 Lagos on the first day of next month (on the sandbox's clock): a month
 * of the test's own. Answers it (`YYYY-MM`), the month after it, and when each starts (epoch ms).
 */
export async function toNextMonth(t: TestApp): Promise<{ month: string; next: string; monthStartMs: number; nextStartMs: number }> {
  const lagosMs = 3_600_000;
  const now = Date.parse((await t.sandboxControl.clock()).now);
  const lagos = new Date(now + lagosMs);
  const monthStartMs = Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth() + 1, 1) - lagosMs;
  const nextStartMs = Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth() + 2, 1) - lagosMs;
  const ym = (ms: number) => new Date(ms + lagosMs).toISOString().slice(0, 7);
  await advanceClocks(t, Math.ceil((monthStartMs + lagosMs - now) / 1000));
  return { month: ym(monthStartMs), next: ym(nextStartMs), monthStartMs, nextStartMs };
}
