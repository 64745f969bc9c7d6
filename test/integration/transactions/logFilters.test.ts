/**
 * The Transactions filters through dispatch, after a real sync of a seeded sandbox: the choices
 * are the networks, providers and statuses of the service's own log (every disco, SHOWMAX), each
 * choice finds exactly its rows, and reversed dates are refused with one sentence in
 * logs.query, logs.totals, logs.export and the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../../support/refusal';
import { sandboxLog } from '../../support/sandboxRecords';
import { startTestApp, type TestApp } from '../../support/testApp';
import { wireTextToKobo } from '../../../src/shared/money';
import { cli } from '../purchases/purchaseHelpers';

const REVERSED = 'The From date 20 Nov 2026 is after the To date 1 Nov 2026. Swap them, or change one of them.';

describe('Transactions filters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ seedHistory: 600 });
    await t.call('sync.run', {});
  });
  afterAll(async () => {
    await t.close();
  });

  it("offers the networks and statuses of the service's log, and each finds exactly its rows", async () => {
    const log = await sandboxLog(t);
    const facets = await t.call('logs.facets', {});
    const expected = new Map<string, Set<string>>();
    for (const e of log) {
      const type = e.type.toUpperCase();
      expected.set(type, (expected.get(type) ?? new Set()).add(e.network));
    }
    expect(Object.fromEntries(facets.networks.map((g) => [g.type, g.networks]))).toEqual(
      Object.fromEntries([...expected].map(([type, set]) => [type, [...set].sort((a, b) => a.localeCompare(b))])),
    );
    expect([...facets.statuses].sort()).toEqual([...new Set(log.map((e) => e.status))].sort());

    const discos = facets.networks.find((g) => g.type === 'ELECTRICITY')?.networks ?? [];
    expect(discos.length).toBeGreaterThan(3);
    expect(facets.networks.find((g) => g.type === 'CABLETV')?.networks).toContain('SHOWMAX');

    for (const network of [discos[discos.length - 1], 'SHOWMAX']) {
      const theirs = log.filter((e) => e.network === network);
      const totals = await t.call('logs.totals', { filter: { network } });
      expect(totals.count).toBe(theirs.length);
      // Spend counts successful and pending entries; failed ones were refunded and are stated apart.
      const face = (entries: typeof theirs) => entries.reduce((sum, e) => sum + (wireTextToKobo(e.amount) ?? NaN), 0);
      expect(totals.amountKobo).toBe(face(theirs.filter((e) => e.status !== 'FAILED')));
      expect(totals.refunded.amountKobo).toBe(face(theirs.filter((e) => e.status === 'FAILED')));
    }
  });

  it('refuses reversed dates with one sentence in logs.query, logs.totals and logs.export', async () => {
    const filter = { from: '2026-11-20', to: '2026-11-01' };
    for (const call of [
      t.call('logs.query', { filter, sort: 'time_desc', offset: 0, limit: 10 }),
      t.call('logs.totals', { filter }),
      t.call('logs.export', { filter, sort: 'time_desc', format: 'csv' }),
    ]) {
      const error = await refusal(call);
      expect(error.code).toBe('invalid_input');
      expect(error.message).toBe(REVERSED);
    }
  });

  it('says which field is wrong in a sentence when an input is malformed', async () => {
    const limit = await refusal(t.call('logs.query', { filter: {}, sort: 'time_desc', offset: 0, limit: 5000 }));
    expect(limit.message).toBe('Limit: Must be 1000 or less.');
    const day = await refusal(t.call('logs.totals', { filter: { from: '20/11/2026' } }));
    expect(day.message).toBe('From: Write dates as YYYY-MM-DD.');
    const kind = await refusal(t.call('logs.totals', { filter: { status: 'DONE' as never } }));
    expect(kind.message).toBe('Status: Must be one of: SUCCESS, FAILED, PENDING.');
    const type = await refusal(t.call('logs.query', { filter: {}, sort: 'time_desc', offset: 'ten' as never, limit: 10 }));
    expect(type.message).toBe('Offset: Expected a number, not text.');
  });

  it('gives the same sentence from the CLI, as a usage error', async () => {
    for (const args of [['logs'], ['export', 'logs', '--out', 'x.csv'], ['sync']]) {
      const r = await cli(t, [...args, '--from', '2026-11-20', '--to', '2026-11-01']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(REVERSED);
    }
  });
});
