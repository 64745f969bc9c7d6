/**
 * Before each run an order's rows are checked against the catalog of the day (issue 40): a plan the
 * provider repriced or withdrew since the order was confirmed is a row that waits, with its reason,
 * and the other rows are bought. The provider's change is made on the sandbox
 * (`/__sandbox/catalog`), and the service's log says what was bought.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';
import { mtnPhone, writeCsv } from '../bulk/bulkTestFiles';
import { boughtEntries, moveServiceTo, runDue } from './standingHelpers';

let peer: CliPeer;
let n = 0;

beforeEach(async () => {
  peer = await startCliPeer(`standing-catalog-${process.pid}-${++n}`, { creditDelayMs: 300 });
});
afterEach(async () => {
  await peer.close();
});

describe("a standing order's rows against the catalog of the day", { timeout: 300_000 }, () => {
  it('a repriced plan and a withdrawn plan wait with their reasons; the unchanged plan is bought once', async () => {
    await moveServiceTo(peer, '2027-03-01');
    const file = writeCsv(peer.dir, 'data.csv', [
      ['Phone', 'Plan', 'Amount'],
      [mtnPhone(0), 'MTN-2GB-30D', 1500],
      [mtnPhone(1), 'MTN-1GB-7D', 800],
      [mtnPhone(2), 'MTN-10GB-30D', 4500],
    ]);
    const add = await peer.run(['standing', 'add', file, '--kind', 'data', '--name', 'Data allowance', '--monthly-on', '3', '--yes', '--confirm-total', '6800']);
    expect(add.code, add.stderr).toBe(0);

    // Between confirmation and the run, the provider reprices one plan and withdraws another.
    await peer.control.changeCatalog({ catalog: 'data', productCode: 'MTN-2GB-30D', amount: 1800 });
    await peer.control.changeCatalog({ catalog: 'data', productCode: 'MTN-1GB-7D', withdrawn: true });
    await moveServiceTo(peer, '2027-03-03', 10);
    const r = await runDue(peer);

    expect(r.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-03-03', 'bought']]);
    const [run] = r.report.ran;
    expect(run.job).toMatchObject({ items: 1, success: 1 });
    const waiting = new Map(run.waitingRows.map((w) => [w.phone, w]));
    expect([...waiting.keys()].sort()).toEqual([mtnPhone(0), mtnPhone(1)].sort());
    expect(waiting.get(mtnPhone(0))?.reason).toContain('now costs ₦1,800.00, not ₦1,500.00');
    expect(waiting.get(mtnPhone(1))?.reason).toMatch(/MTN-1GB-7D is not in the catalog/);
    // The service bought the unchanged plan, once, at its price; nothing at the old or new price of the others.
    const bought = await boughtEntries(peer);
    expect(bought.map((e) => [e.phone_number, e.amount])).toEqual([[mtnPhone(2), 'NGN 4,500.00']]);
  });
});
