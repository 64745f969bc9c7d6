/**
 * The Dashboard's cost-centre split is read one read at a time (src/main/dashboard/monthByCostCentre.ts):
 * a request made while a read is under way gets the read after it, never the one that began
 * before the request (it may miss what was just written: a sync's last page, a cost centre changed).
 */
import { describe, expect, it } from 'vitest';
import { latestReads } from '../../../src/main/dashboard/monthByCostCentre';

/** A read whose answers are given by the test, in order. */
function controlledReads() {
  const pending: ((value: string) => void)[] = [];
  let started = 0;
  const read = () =>
    new Promise<string>((resolve) => {
      started++;
      pending.push(resolve);
    });
  return { read, started: () => started, answer: (value: string) => pending.shift()!(value) };
}

/** Lets the event loop turn until `done` (a state, not a time), a hundred turns at most. */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100 && !done(); turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(done()).toBe(true);
}

describe('one read at a time, the latest for whoever asked', () => {
  it('gives requests made during a read the next read, started when it ends and shared by all of them', async () => {
    const reads = latestReads<string>();
    const r = controlledReads();
    const first = reads('month', r.read);
    // Asked while the first read is under way (after a write it may not see): not the first read's answer.
    const second = reads('month', r.read);
    const third = reads('month', r.read);
    expect(r.started()).toBe(1);
    r.answer('before the write');
    expect(await first).toBe('before the write');
    await turnsUntil(() => r.started() === 2);
    r.answer('after the write');
    expect(await second).toBe('after the write');
    expect(await third).toBe('after the write');
    // Nothing under way now: the next request starts a read of its own at once.
    const fourth = reads('month', r.read);
    expect(r.started()).toBe(3);
    r.answer('later');
    expect(await fourth).toBe('later');
  });

  it('keeps other keys apart, and a failed read does not stop the next', async () => {
    const reads = latestReads<string>();
    const r = controlledReads();
    const march = reads('march', r.read);
    const april = reads('april', r.read);
    expect(r.started()).toBe(2);
    const failing = reads('march', () => Promise.reject(new Error('the database is busy')));
    r.answer('march figures');
    r.answer('april figures');
    expect(await march).toBe('march figures');
    expect(await april).toBe('april figures');
    await expect(failing).rejects.toThrow('the database is busy');
    const again = reads('march', r.read);
    r.answer('march again');
    expect(await again).toBe('march again');
  });
});
