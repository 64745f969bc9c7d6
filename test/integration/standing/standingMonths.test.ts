/**
 * A standing order's occurrences on the service's clock, moved month by month with the sandbox's:
 * `vendesk standing run-due` buys each occurrence once on its Lagos day — day 31 on 28 February,
 * on 29 February in a leap year and on the 30th of 30-day months; a weekend day moved to the
 * working day; the last working day — and the service's own log and wallet say what was bought.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';
import { addOrder, boughtEntries, entryNaira, moveServiceTo, runDue, staffSheet, walletKobo } from './standingHelpers';

let peer: CliPeer;
let n = 0;

beforeEach(async () => {
  peer = await startCliPeer(`standing-months-${process.pid}-${++n}`, { creditDelayMs: 300 });
});
afterEach(async () => {
  await peer.close();
});

describe('standing orders month by month', { timeout: 300_000 }, () => {
  it('day 31 is bought on 31 January, 28 February, 31 March and 30 April, once each, and the service charged each once', async () => {
    await moveServiceTo(peer, '2027-01-20');
    const order = await addOrder(peer, staffSheet(peer, 'staff.csv', 2, 150), 'Staff airtime', ['--monthly-on', '31']);
    expect(order.state).toBe('active');
    expect(order.perRun).toBe(300);
    expect(order.next).toEqual({ occurrence: '2027-01-31', due: '2027-01-31' });
    expect(order.upcoming.slice(0, 4).map((u) => u.occurrence)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);

    // Before its day nothing runs.
    const early = await runDue(peer);
    expect(early.code).toBe(0);
    expect(early.report.today).toBe('2027-01-20');
    expect(early.report.ran).toEqual([]);
    expect(await boughtEntries(peer)).toHaveLength(0);

    const walletStart = await walletKobo(peer);
    for (const [day, count] of [
      ['2027-01-31', 2],
      ['2027-02-28', 4],
      ['2027-03-31', 6],
      ['2027-04-30', 8],
    ] as const) {
      await moveServiceTo(peer, day);
      const r = await runDue(peer);
      expect(r.code, r.stderr).toBe(0);
      expect(r.report.today).toBe(day);
      expect(r.report.ran.map((o) => [o.occurrence, o.state])).toEqual([[day, 'bought']]);
      expect(r.report.ran[0].jobId).toMatch(/^[0-9a-f-]{36}$/);
      // A second run the same day buys nothing more.
      const again = await runDue(peer);
      expect(again.report.ran).toEqual([]);
      expect(await boughtEntries(peer)).toHaveLength(count);
    }
    // The service's wallet paid the face value of 8 rows of ₦150 (airtime costs its face value on the sandbox, less any discount).
    const spent = walletStart - (await walletKobo(peer));
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(8 * 150_00);
  });

  it('day 31 falls on 29 February in a leap year', async () => {
    await moveServiceTo(peer, '2028-02-10');
    const order = await addOrder(peer, staffSheet(peer, 'staff.csv', 1, 100), 'Leap', ['--monthly-on', '31']);
    expect(order.next).toEqual({ occurrence: '2028-02-29', due: '2028-02-29' });
    await moveServiceTo(peer, '2028-02-28');
    expect((await runDue(peer)).report.ran).toEqual([]);
    await moveServiceTo(peer, '2028-02-29');
    const r = await runDue(peer);
    expect(r.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2028-02-29', 'bought']]);
    expect(await boughtEntries(peer)).toHaveLength(1);
  });

  it('a day on a weekend moves to the next working day, and the last working day is a Friday when the month ends on a weekend', async () => {
    // 31 Jan 2027 is a Sunday: moved to Monday 1 February. January's last working day is Friday 29th.
    await moveServiceTo(peer, '2027-01-25');
    const moved = await addOrder(peer, staffSheet(peer, 'a.csv', 1, 100), 'Moved', ['--monthly-on', '31', '--weekend', 'next']);
    expect(moved.next).toEqual({ occurrence: '2027-01-31', due: '2027-02-01' });
    const lwd = await addOrder(peer, staffSheet(peer, 'b.csv', 1, 200, 50), 'Month end', ['--last-working-day']);
    expect(lwd.next).toEqual({ occurrence: '2027-01-29', due: '2027-01-29' });

    await moveServiceTo(peer, '2027-01-29');
    expect((await runDue(peer)).report.ran.map((o) => [o.order, o.occurrence])).toEqual([['Month end', '2027-01-29']]);
    await moveServiceTo(peer, '2027-01-31');
    expect((await runDue(peer)).report.ran).toEqual([]);
    await moveServiceTo(peer, '2027-02-01');
    const r = await runDue(peer);
    expect(r.report.ran.map((o) => [o.order, o.occurrence, o.due, o.state])).toEqual([['Moved', '2027-01-31', '2027-02-01', 'bought']]);
    expect((await boughtEntries(peer)).map(entryNaira).sort((a, b) => a - b)).toEqual([100, 200]);
  });

  it('a late run keeps the next date: January 31st run on 2 February (within grace) leaves 28 February as the next', async () => {
    await moveServiceTo(peer, '2027-01-20');
    const order = await addOrder(peer, staffSheet(peer, 'staff.csv', 1, 100), 'Late', ['--monthly-on', '31']);
    await moveServiceTo(peer, '2027-02-02');
    const r = await runDue(peer);
    expect(r.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-01-31', 'bought']]);
    const shown = await peer.json<{ next: { occurrence: string } | null }>(['standing', 'show', order.orderId]);
    expect(shown.next?.occurrence).toBe('2027-02-28');
    await moveServiceTo(peer, '2027-02-28');
    expect((await runDue(peer)).report.ran.map((o) => o.occurrence)).toEqual(['2027-02-28']);
    expect(await boughtEntries(peer)).toHaveLength(2);
  });
});
