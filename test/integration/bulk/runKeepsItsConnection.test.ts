/**
 * A running job keeps talking to the service it was prepared for. The user switches vendesk to
 * another connection while a job's items are accepted and not settled yet: the job stops sending,
 * and nothing of it (no purchase, no search of the log for its references) goes to the other
 * service; back on the first connection every item is still there, with its reference. A batch
 * the team was still claiming when the switch came is not bought at all, anywhere, until the job
 * is resumed on its own connection.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { teamGate } from '../../../src/main/buying/teamGate';
import { createBulkService } from '../../../src/main/buying/bulkService';
import type { ProfileView } from '../../../src/shared/contract/app';
import { startLatencyProxy, type LatencyProxy } from '../../support/latencyProxy';
import type { TestApp } from '../../support/testApp';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { refusal } from '../../support/refusal';
import { advanceClocks } from '../../support/serviceClocks';
import { heldAnswer, holdMethod } from '../../support/heldAnswer';
import { until } from '../../support/until';
import { airtimeRows, allLogEntries, mtnPhone, startBulkTestApp, tempDir, writeCsv } from './bulkTestFiles';

const TOKEN_B = 'run-keeps-connection-b';

let t: TestApp;
let b: TestSandbox;
let toB: LatencyProxy;
let dir: string;
let profileA: ProfileView;
let profileB: ProfileView;

beforeEach(async () => {
  // The first service leaves accepted airtime in progress (10 minutes on its clock, which no
  // one moves here), so the job is still reading its outcomes when the user switches.
  t = await startBulkTestApp({ creditDelayMs: 600_000 });
  b = await startTestSandbox({ tokens: [TOKEN_B] });
  toB = await startLatencyProxy(b.url, 0);
  dir = tempDir();
  profileA = await t.call('profiles.save', { name: 'Service A', baseUrl: t.sandbox.url, token: t.token });
  profileB = await t.call('profiles.save', { name: 'Service B', baseUrl: toB.url, token: TOKEN_B });
  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
  await t.call('bulk.settings.set', { outcomeWaitSeconds: 600 });
});

afterEach(async () => {
  await t.close();
  await toB.close();
  await b.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('sends nothing of a running job, and asks nothing about it, at the service vendesk was switched to', async () => {
  const preview = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'staff.csv', airtimeRows(3, 100)) }, kind: 'airtime' });
  const jobId = preview.job.id;
  await t.call('bulk.confirm', { jobId, typedTotal: '300', wait: false });
  await until(async () => (await t.call('bulk.status', { jobId })).counts.accepted === 3, 'the three items to be accepted by service A');
  const references = (await t.call('bulk.items', { jobId })).items.map((i) => i.reference);
  expect(references.every((r) => typeof r === 'string' && r.length > 0)).toBe(true);

  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  // The job's own record (bulk.status refuses a job of another connection): it stops running.
  const store = t.app.service(createBulkService).reads;
  await until(() => store.job(jobId)?.state !== 'running', 'the job to stop sending once vendesk is on service B');

  const aboutTheJob = toB.exchanges.filter((e) => references.some((r) => r !== null && e.url.includes(r)) || /purchase/i.test(e.url));
  expect(aboutTheJob.map((e) => e.url)).toEqual([]);

  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
  const items = (await t.call('bulk.items', { jobId })).items;
  expect(items.map((i) => i.reference)).toEqual(references);
  expect(items.every((i) => i.state === 'accepted' || i.state === 'pending')).toBe(true);
});

it('buys an electricity row held by the team claim during a switch nowhere, and at its own service once resumed there', async () => {
  const file = writeCsv(dir, 'meters.csv', [
    ['Name', 'Meter number', 'Disco', 'Meter type', 'Amount', 'Phone'],
    ['Head office', '45011112345', 'IKEDC', 'PREPAID', 5000, '08031234567'],
  ]);
  const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'electricity' });
  const jobId = preview.job.id;
  // The team database's claim of the row, held until the user has switched (a slow team database).
  const claim = heldAnswer();
  const gate = t.app.service(teamGate);
  const teamClaim = gate.claimBeforeSend;
  gate.claimBeforeSend = () => async (batch) => {
    await claim.wait();
    return batch;
  };
  await t.call('bulk.confirm', { jobId, typedTotal: '5000', wait: false });
  await until(() => claim.asked, 'the team claim of the row');
  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  claim.release();
  const store = t.app.service(createBulkService).reads;
  await until(() => store.job(jobId)?.state !== 'running', 'the job to stop once vendesk is on service B');

  expect(toB.exchanges.filter((e) => /purchase|validateMeter/i.test(e.url)).map((e) => e.url)).toEqual([]);
  expect(await allLogEntries(b.url, TOKEN_B)).toEqual([]);
  expect(store.job(jobId)?.message).toBe(
    `Paused: vendesk is now connected to LIVE Service B, and this job runs only on the connection it was prepared for (LIVE ${t.sandbox.url}). Nothing of it was sent to the other connection. Switch back to that connection, then resume the job: the rows not sent yet wait.`,
  );
  expect(store.job(jobId)?.state).toBe('paused');
  expect(store.items(jobId).map((i) => i.state)).toEqual(['queued']);

  gate.claimBeforeSend = teamClaim;
  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
  const resumed = await t.call('bulk.resume', { jobId, wait: true });
  expect(resumed.counts.success).toBe(1);
  const bought = await allLogEntries(t.sandbox.url, t.token);
  expect(bought.map((e) => [e.type, e.amount])).toEqual([['ELECTRICITY', 'NGN 5,000.00']]);
});

it('answers a single top-up with its receipt, from its own service, when vendesk was switched while it was bought', async () => {
  const phone = mtnPhone(4242);
  const buying = t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 20_000 });
  await until(async () => (await allLogEntries(t.sandbox.url, t.token)).some((e) => e.phone_number === phone), 'service A to take the airtime');
  // The purchase's run reads service A's log for its outcome; its next read is held while the user switches.
  const outcome = holdMethod(t.app.client(), 'logEntries');
  await until(() => outcome.asked, "the run's next read of service A's log");
  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  // Service A delivers it (its 10 minutes pass on its clock); the held read then finds it there.
  await advanceClocks(t, 601);
  outcome.release();
  const receipt = await buying;
  const [entry] = (await allLogEntries(t.sandbox.url, t.token)).filter((e) => e.phone_number === phone);
  expect(receipt).toMatchObject({ phone, amountKobo: 20_000, state: 'success', reference: entry.transaction_id });
  expect(entry.status).toBe('SUCCESS');
  expect(toB.exchanges.filter((e) => e.url.includes(entry.transaction_id) || /purchase/i.test(e.url)).map((e) => e.url)).toEqual([]);
  expect(await allLogEntries(b.url, TOKEN_B)).toEqual([]);
});

it('refuses a single top-up checked on one connection when vendesk was switched before it was bought', async () => {
  const phone = mtnPhone(4343);
  // The team's answer to the gate takes a while (a slow team database): the user switches meanwhile.
  const team = holdMethod(t.app.service(teamGate), 'single');
  const buying = refusal(t.call('purchases.buyTopUp', { kind: 'airtime', phone, amountKobo: 20_000 }));
  await until(() => team.asked, 'the approval gate to be asked');
  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  team.release();
  const error = await buying;
  expect(error).toMatchObject({ code: 'connection_changed', message: expect.stringContaining('Nothing was bought') });
  expect((await allLogEntries(t.sandbox.url, t.token)).filter((e) => e.phone_number === phone)).toEqual([]);
  expect(await allLogEntries(b.url, TOKEN_B)).toEqual([]);
  expect(toB.exchanges.filter((e) => /purchase/i.test(e.url)).map((e) => e.url)).toEqual([]);
});

it('confirms nothing when vendesk was switched while the team and the wallet were asked', async () => {
  const preview = await t.call('bulk.prepare', { file: { path: writeCsv(dir, 'late.csv', airtimeRows(2, 100, 50)) }, kind: 'airtime' });
  const jobId = preview.job.id;
  // The team database answers the gate slowly: the user switches meanwhile.
  const gate = t.app.service(teamGate);
  const approvalFor = gate.approvalFor;
  const team = holdMethod(gate, 'approvalFor');
  const confirming = refusal(t.call('bulk.confirm', { jobId, typedTotal: '200', wait: true }));
  await until(() => team.asked, 'the team gate at confirm');
  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  team.release();
  expect(await confirming).toMatchObject({ code: 'job_other_connection', message: expect.stringContaining('prepared for another connection') });
  gate.approvalFor = approvalFor;

  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
  expect((await t.call('bulk.status', { jobId })).state).toBe('draft');
  expect(await allLogEntries(t.sandbox.url, t.token)).toEqual([]);
  expect(await allLogEntries(b.url, TOKEN_B)).toEqual([]);
});

it('saves no draft when vendesk was switched while the file was checked against the service', async () => {
  // Service A's log (read for the duplicate check) answers slowly: the user switches meanwhile.
  const log = holdMethod(t.app.client(), 'logEntries');
  const preparing = refusal(t.call('bulk.prepare', { file: { path: writeCsv(dir, 'switched.csv', airtimeRows(2, 100, 80)) }, kind: 'airtime' }));
  await until(() => log.asked, "the check of service A's log");
  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  log.release();
  expect(await preparing).toMatchObject({
    code: 'connection_changed',
    message: expect.stringContaining('Nothing was saved or bought'),
    hint: expect.stringContaining('check the file again'),
  });
  expect(await t.call('bulk.list', {})).toEqual([]);
  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
  expect(await t.call('bulk.list', {})).toEqual([]);
});
