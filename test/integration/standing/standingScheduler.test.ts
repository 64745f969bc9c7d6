/**
 * The open desktop's runner of standing orders: its timer is set for the start of the next due
 * Lagos day on the service's clock (it sleeps until then, asking the service nothing), it runs the
 * occurrence when the service's clock reaches that day, and plans the next month's afterwards; an
 * order paused is not planned. The sandbox's log says what was bought.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStandingScheduler } from '../../../src/main/standing/standingScheduler';
import { lagosDayStartMs } from '../../../src/shared/localDates';
import { advanceClocks } from '../../support/serviceClocks';
import { sandboxLog } from '../../support/sandboxRecords';
import { startTestApp, type TestApp } from '../../support/testApp';
import { until } from '../../support/until';
import { airtimeRows, fastJobs, tempDir, writeCsv } from '../bulk/bulkTestFiles';

let t: TestApp;

/** Moves the sandbox's clock and this app's estimate of it to `hour` o'clock in Lagos on `day`. */
async function moveTo(day: string, hour = 10): Promise<void> {
  const now = Date.parse((await t.sandboxControl.clock()).now);
  const target = Date.parse(`${day}T${String(hour - 1).padStart(2, '0')}:00:00.000Z`);
  expect(target).toBeGreaterThan(now);
  await advanceClocks(t, Math.ceil((target - now) / 1000));
}

beforeEach(async () => {
  t = await startTestApp({ creditDelayMs: 300 });
  fastJobs(t.app);
  await t.call('bulk.settings.set', { outcomeWaitSeconds: 30, uncertainSafeDelaySeconds: 1 });
});
afterEach(async () => {
  await t.close();
});

describe('the desktop’s standing order runner', () => {
  it('sleeps until the due day, buys the occurrence when the service’s clock reaches it, then plans the next month', { timeout: 600_000 }, async () => {
    await moveTo('2027-03-01');
    const file = writeCsv(tempDir(), 'staff.csv', airtimeRows(2, 100));
    const draft = await t.call('standing.prepare', {
      name: 'Staff airtime',
      kind: 'airtime',
      file: { path: file },
      recurrence: { kind: 'monthly', day: 5 },
      keepDuplicates: false,
      skipInvalid: false,
    });
    await t.call('standing.confirm', { orderId: draft.order.id });

    const told: string[] = [];
    t.app.events.on('standing.occurrence', (p) => told.push(`${p.outcome}: ${p.message}`));
    const scheduler = t.app.service(createStandingScheduler);
    scheduler.start();
    await until(() => scheduler.running() === null && scheduler.nextWakeAt() === lagosDayStartMs('2027-03-05'), 'the runner planned 5 March');
    expect(await sandboxLog(t)).toHaveLength(0);

    await moveTo('2027-03-05');
    await until(async () => (await sandboxLog(t)).filter((e) => e.status !== 'FAILED').length === 2, 'the occurrence of 5 March bought');
    await until(() => scheduler.running() === null && scheduler.nextWakeAt() === lagosDayStartMs('2027-04-05'), 'the runner planned 5 April');
    const shown = await t.call('standing.show', { orderId: draft.order.id });
    expect(shown.lastRun?.scheduledDay).toBe('2027-03-05');
    expect(shown.lastRun?.outcome).toBe('bought');
    // What a window and the operating system are told, in words.
    await until(() => told.includes('bought: Staff airtime (5 Mar 2027) was bought: 2 row(s) successful.'), `told it was bought (told: ${told.join(' | ')})`);

    // Paused, nothing is planned; resumed, April is.
    await t.call('standing.pause', { orderId: draft.order.id });
    await until(() => scheduler.nextWakeAt() === null, 'nothing planned while paused');
    await t.call('standing.resume', { orderId: draft.order.id });
    await until(() => scheduler.nextWakeAt() === lagosDayStartMs('2027-04-05'), 'April planned again');
    await scheduler.stop();
    expect(await sandboxLog(t)).toHaveLength(2);
  });
});
