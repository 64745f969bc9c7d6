/**
 * What an operation changes is declared next to it in the contract (`invalidates`), and dispatch
 * tells the windows after it succeeds (`data.changed` with those topics) — never after a refusal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../../../src/shared/contract';
import type { AppEvent } from '../../../src/shared/contract/events';
import { startTestApp, type TestApp } from '../../support/testApp';

let t: TestApp;
let changed: string[][];
let off: () => void;

beforeEach(async () => {
  t = await startTestApp();
  changed = [];
  off = t.app.events.subscribe((e: AppEvent) => {
    if (e.name === 'data.changed') changed.push([...(e.payload as AppEvent<'data.changed'>['payload']).topics]);
  });
});

afterEach(async () => {
  off();
  await t.close();
});

describe('declared invalidation', () => {
  it('the operations that change jobs, bulk settings and reconciliation say so in the contract', () => {
    expect(operations['bulk.settings.set'].invalidates).toEqual(['bulk.settings']);
    for (const name of ['bulk.prepare', 'bulk.cancel', 'bulk.resolveItems', 'bulk.discard'] as const) expect(operations[name].invalidates, name).toEqual(['jobs']);
    expect(operations['reconcile.resolve'].invalidates).toEqual(['reconcile']);
  });

  it('a successful call tells the windows once, with the declared topics', async () => {
    await t.call('bulk.settings.set', { batchSize: 7 });
    expect(changed).toEqual([['bulk.settings']]);
    expect((await t.call('bulk.settings.get', {})).batchSize).toBe(7);
  });

  it('a refused call tells nobody anything changed', async () => {
    await expect(t.call('bulk.settings.set', { batchSize: 0 })).rejects.toThrow(/Batch size/);
    await expect(t.call('bulk.discard', { jobId: 'no-such-job' })).rejects.toThrow();
    expect(changed).toEqual([]);
  });
});
