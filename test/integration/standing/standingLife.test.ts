/**
 * A standing order's life through `vendesk standing`: confirmed once (`--yes`, and on a LIVE
 * connection the per-run total typed — a wrong one keeps nothing); a dry run buys and records
 * nothing; a new version (who changed what, when) is what the next occurrence buys; paused, its day
 * passes unbought and is skipped on resume; ended, it buys nothing more and keeps its history. The
 * sandbox's log says what was bought.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';
import { mtnPhone } from '../bulk/bulkTestFiles';
import { addOrder, boughtEntries, entryNaira, moveServiceTo, runDue, staffSheet, type AddedOrder } from './standingHelpers';

let peer: CliPeer;
let n = 0;

beforeEach(async () => {
  peer = await startCliPeer(`standing-life-${process.pid}-${++n}`, { creditDelayMs: 300 });
});
afterEach(async () => {
  await peer.close();
});

describe('a standing order from confirmation to its end', { timeout: 300_000 }, () => {
  it('is confirmed only with --yes and, on a LIVE connection, the per-run total typed; a refused order leaves nothing', async () => {
    const sheet = staffSheet(peer, 'staff.csv', 3, 500);
    const noYes = await peer.run(['standing', 'add', sheet.file, '--kind', 'airtime', '--name', 'Staff', '--monthly-on', '25']);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/--yes/);
    const wrong = await peer.run(['standing', 'add', sheet.file, '--kind', 'airtime', '--name', 'Staff', '--monthly-on', '25', '--yes', '--confirm-total', '1000']);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ error: { code: 'confirmation_mismatch' } });
    expect(wrong.stderr).toContain('₦1,500.00');
    const noMonth = await peer.run(['standing', 'add', sheet.file, '--kind', 'airtime', '--name', 'Staff', '--monthly-on', '32', '--yes', '--confirm-total', '1500']);
    expect(noMonth.code).toBe(2);
    expect(await peer.json<unknown[]>(['standing', 'list'])).toEqual([]);
  });

  it('a dry run buys and records nothing; the run after it buys', async () => {
    await moveServiceTo(peer, '2027-05-01');
    await addOrder(peer, staffSheet(peer, 'staff.csv', 2, 100), 'Staff', ['--monthly-on', '3']);
    await moveServiceTo(peer, '2027-05-03');
    const dry = await runDue(peer, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.report.dryRun).toBe(true);
    expect(dry.report.ran.map((o) => [o.occurrence, o.state, o.jobId])).toEqual([['2027-05-03', 'waiting', null]]);
    expect(dry.report.ran[0].why).toMatch(/Would be bought now \(dry run\): 2 row\(s\), ₦200\.00 face value/);
    expect(await boughtEntries(peer)).toHaveLength(0);
    const real = await runDue(peer);
    expect(real.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-05-03', 'bought']]);
    expect(await boughtEntries(peer)).toHaveLength(2);
  });

  it('a new version is what the next occurrence buys, and the versions say who changed what', async () => {
    await moveServiceTo(peer, '2027-05-01');
    const order = await addOrder(peer, staffSheet(peer, 'v1.csv', 2, 100), 'Staff', ['--monthly-on', '3']);
    await moveServiceTo(peer, '2027-05-03');
    await runDue(peer);
    const v2 = staffSheet(peer, 'v2.csv', 3, 200);
    const edit = await peer.run(['standing', 'edit', order.orderId, v2.file, '--yes', '--confirm-total', String(v2.total)]);
    expect(edit.code, edit.stderr).toBe(0);
    const edited = JSON.parse(edit.stdout) as AddedOrder;
    expect(edited.versions.map((v) => v.version)).toEqual(expect.arrayContaining([1, 2]));
    const second = edited.versions.find((v) => v.version === 2);
    expect(second?.change).toMatch(/rows/);
    expect(second?.changedBy).toBeTruthy();
    await moveServiceTo(peer, '2027-06-03');
    const r = await runDue(peer);
    expect(r.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-06-03', 'bought']]);
    const amounts = (await boughtEntries(peer)).map(entryNaira).sort((a, b) => a - b);
    expect(amounts).toEqual([100, 100, 200, 200, 200]);
  });

  it('paused, its day passes unbought and is skipped on resume; ended, it buys nothing more and keeps its history', async () => {
    await moveServiceTo(peer, '2027-05-01');
    const order = await addOrder(peer, staffSheet(peer, 'staff.csv', 1, 100), 'Staff', ['--monthly-on', '3']);
    const paused = await peer.json<AddedOrder>(['standing', 'pause', order.orderId]);
    expect(paused.state).toBe('paused');
    await moveServiceTo(peer, '2027-05-03');
    expect((await runDue(peer)).report.ran).toEqual([]);
    expect(await boughtEntries(peer)).toHaveLength(0);
    await moveServiceTo(peer, '2027-05-04');
    const resumed = await peer.json<AddedOrder>(['standing', 'resume', order.orderId]);
    expect(resumed.state).toBe('active');
    expect(resumed.occurrences.map((o) => [o.occurrence, o.state])).toEqual([['2027-05-03', 'skipped']]);
    expect(resumed.occurrences[0].why).toMatch(/paused on its day/);
    expect(resumed.next?.occurrence).toBe('2027-06-03');
    expect((await runDue(peer)).report.ran).toEqual([]);
    expect(await boughtEntries(peer)).toHaveLength(0);

    await moveServiceTo(peer, '2027-06-03');
    expect((await runDue(peer)).report.ran.map((o) => o.occurrence)).toEqual(['2027-06-03']);
    const ended = await peer.json<AddedOrder>(['standing', 'end', order.orderId]);
    expect(ended.state).toBe('ended');
    expect(ended.next).toBeNull();
    await moveServiceTo(peer, '2027-07-03');
    expect((await runDue(peer)).report.ran).toEqual([]);
    expect(await boughtEntries(peer)).toHaveLength(1);
    const again = await peer.run(['standing', 'resume', order.orderId]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'standing_state' } });
    const shown = await peer.json<AddedOrder>(['standing', 'show', order.orderId]);
    expect(shown.occurrences.map((o) => [o.occurrence, o.state])).toEqual([
      ['2027-06-03', 'bought'],
      ['2027-05-03', 'skipped'],
    ]);
  });

  it('before a run its rows are checked again: a row bought elsewhere in the last 24 hours waits with its reason, the others are bought', async () => {
    await moveServiceTo(peer, '2027-05-01');
    await addOrder(peer, staffSheet(peer, 'staff.csv', 3, 100), 'Staff', ['--monthly-on', '3']);
    await moveServiceTo(peer, '2027-05-03', 9);
    // The first row's phone and amount, bought by hand an hour before the occurrence.
    const single = await peer.run(['buy', 'airtime', '--phone', mtnPhone(0), '--amount', '100', '--yes']);
    expect(single.code, single.stderr).toBe(0);
    await moveServiceTo(peer, '2027-05-03', 10);
    const r = await runDue(peer);
    expect(r.report.ran.map((o) => [o.occurrence, o.state])).toEqual([['2027-05-03', 'bought']]);
    expect(r.report.ran[0].job).toMatchObject({ items: 2, success: 2 });
    expect(r.report.ran[0].waitingRows).toHaveLength(1);
    expect(r.report.ran[0].waitingRows[0]).toMatchObject({ row: 2, phone: mtnPhone(0), amount: 100 });
    expect(r.report.ran[0].waitingRows[0].reason).toBeTruthy();
    // The service: the phone bought once (by hand), the two others once each.
    const phones = (await boughtEntries(peer)).map((e) => e.phone_number).sort();
    expect(phones).toEqual([mtnPhone(0), mtnPhone(1), mtnPhone(2)].sort());
  });

  it('takes its rows from a finished bulk job, and buys them again on its day', async () => {
    await moveServiceTo(peer, '2027-05-01');
    const sheet = staffSheet(peer, 'april.csv', 2, 300);
    const job = await peer.json<{ jobId: string }>(['bulk', 'submit', sheet.file, '--kind', 'airtime', '--yes', '--confirm-total', String(sheet.total)]);
    const r = await peer.run(['standing', 'add', '--from-job', job.jobId, '--name', 'Like April', '--monthly-on', '3', '--yes', '--confirm-total', String(sheet.total)]);
    expect(r.code, r.stderr).toBe(0);
    const order = JSON.parse(r.stdout) as AddedOrder & { items: number; rows: { phone: string; amount: number }[] };
    expect(order.perRun).toBe(600);
    expect(order.rows.map((x) => [x.phone, x.amount])).toEqual([
      [mtnPhone(0), 300],
      [mtnPhone(1), 300],
    ]);
    await moveServiceTo(peer, '2027-05-03');
    const due = await runDue(peer);
    expect(
      due.report.ran.map((o) => [o.occurrence, o.state]),
      JSON.stringify(due.report),
    ).toEqual([['2027-05-03', 'bought']]);
    expect((await boughtEntries(peer)).map(entryNaira)).toEqual([300, 300, 300, 300]);
  });

  it('says what it did in words a person reads, without --json', async () => {
    await moveServiceTo(peer, '2027-05-01');
    const order = await addOrder(peer, staffSheet(peer, 'staff.csv', 1, 100), 'Staff "allowance"\u001b[31m', ['--monthly-on', '3']);
    await moveServiceTo(peer, '2027-05-03');
    const r = await peer.run(['standing', 'run-due'], 'globals first', { json: false });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Today is 3 May 2027.');
    expect(r.stdout).toMatch(/Ran:\n {2}3 May 2027: bought — job [0-9a-f-]{36}: 1\/1 successful, ₦100\.00 bought/);
    // The order's name is free text: it reaches the terminal escaped, never as a control sequence.
    expect(r.stdout).not.toContain('\u001b');
    const list = await peer.run(['standing', 'list'], 'globals first', { json: false });
    expect(list.stdout).toContain(order.orderId);
    expect(list.stdout).not.toContain('\u001b');
  });
});
