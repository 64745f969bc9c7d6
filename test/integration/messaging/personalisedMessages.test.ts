/**
 * Personalised SMS from a contacts sheet (issue 40): each row's own text from the sheet's columns,
 * a preview with each message's pages and charge before anything is sent, refused rows named, and
 * each recipient sent their message exactly once — checked in the sandbox's outbox (what the
 * service delivered) and its wallet (what it charged), even when answers are lost on the way back
 * or requests never arrive.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxView } from '../../../src/sandbox/control';
import { AppError } from '../../../src/shared/appError';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { advanceClocks } from '../../support/serviceClocks';
import { startTestApp, type TestApp } from '../../support/testApp';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { until } from '../../support/until';
import { startDroppingProxy, type DroppingProxy } from '../purchases/droppingProxy';
import { tempDir } from './contactsFiles';

const TEXT = 'Hello {Name}, your {Month} data allowance of {Data allowance} has been sent.';

function writeSheet(lines: string[]): string {
  const file = path.join(tempDir(), 'allowances.csv');
  fs.writeFileSync(file, ['Name,Phone Number,Data allowance,Month', ...lines].join('\n') + '\n');
  return file;
}

const SHEET = [
  'Ada Obi,08031234501,2GB,November',
  'Musa Bello,2348031234502,1.5GB,November',
  'Chioma Eze,+234 803 123 4503,,November', // row 4: no allowance
  'Tunde Ade,0803123,1GB,November', // row 5: not a Nigerian number
  'Ada Obi again,08031234501,2GB,November', // row 6: a repeat of row 2
  'Ngozi Umeh,08031234506,10GB,November',
];

async function smsTo(t: TestApp, phone: string): Promise<OutboxView[]> {
  return (await t.sandboxControl.outbox()).filter((o) => o.channel === 'sms' && o.to === phone);
}

describe('personalised messages from a contacts sheet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('previews each row’s own message with its pages and charge, and names the rows it leaves out and why', async () => {
    const file = writeSheet(SHEET);
    const preview = await t.call('messaging.sheet.preview', { file: { path: file }, text: TEXT });
    expect(preview.placeholders).toEqual([
      { name: 'Name', column: 'Name' },
      { name: 'Month', column: 'Month' },
      { name: 'Data allowance', column: 'Data allowance' },
    ]);
    expect(preview.sample).toEqual([
      { row: 2, phone: '08031234501', text: 'Hello Ada Obi, your November data allowance of 2GB has been sent.', pages: 1 },
      { row: 3, phone: '08031234502', text: 'Hello Musa Bello, your November data allowance of 1.5GB has been sent.', pages: 1 },
      { row: 7, phone: '08031234506', text: 'Hello Ngozi Umeh, your November data allowance of 10GB has been sent.', pages: 1 },
    ]);
    expect(preview).toMatchObject({ rows: 6, messages: 3, smsKobo: 3 * 400, incompleteCount: 1, invalidCount: 1, duplicateCount: 1 });
    expect(preview.incomplete).toEqual([{ row: 4, phone: '08031234503', empty: ['Data allowance'] }]);
    expect(preview.invalid[0].row).toBe(5);
    expect(preview.duplicates[0].message).toMatch(/^Row 6: 08031234501 is already on row 2/);
  });

  it('refuses a placeholder the sheet has no column for, naming it and the columns, and sends nothing', async () => {
    const file = writeSheet(SHEET);
    const text = 'Hello {Name}, your grade is {Grade}.';
    const preview = await t.call('messaging.sheet.preview', { file: { path: file }, text });
    expect(preview.placeholders).toContainEqual({ name: 'Grade', column: null });
    expect(preview.messages).toBe(0);
    const refusal = await t
      .call('messaging.sheet.send', { file: { path: file }, text, senderId: 'VENDESK', skipEmpty: true, skipInvalid: true, confirmedTotalKobo: 0, wait: true })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'placeholder_unknown' });
    expect((refusal as AppError).message).toContain('{Grade}');
    expect((refusal as AppError).message).toContain('"Data allowance"');
    expect(await t.sandboxControl.outbox()).toEqual([]);
  });

  it('refuses rows with an empty value unless they are left out, and a cost other than the one confirmed; nothing is sent', async () => {
    const file = writeSheet(SHEET);
    const base = { file: { path: file }, text: TEXT, senderId: 'VENDESK', skipInvalid: true, wait: true };
    await expect(t.call('messaging.sheet.send', { ...base, skipEmpty: false, confirmedTotalKobo: 1200 })).rejects.toMatchObject({
      code: 'rows_incomplete',
      message: expect.stringContaining('Row 4 ({Data allowance})'),
    });
    await expect(t.call('messaging.sheet.send', { ...base, skipEmpty: true, confirmedTotalKobo: 800 })).rejects.toMatchObject({ code: 'cost_changed' });
    await expect(t.call('messaging.sheet.send', { ...base, skipEmpty: true, skipInvalid: false, confirmedTotalKobo: 1200 })).rejects.toMatchObject({ code: 'invalid_rows' });
    expect(await t.sandboxControl.outbox()).toEqual([]);
  });

  it('sends each recipient their own text once, charged as the service charged it, counted in the spend', async () => {
    const file = writeSheet(SHEET);
    const before = await sandboxWalletKobo(t);
    const spentBefore = (await t.call('dashboard.summary', {})).spend.today.messaging.sms;
    const job = await t.call('messaging.sheet.send', {
      file: { path: file },
      text: TEXT,
      senderId: 'VENDESK',
      skipEmpty: true,
      skipInvalid: true,
      confirmedTotalKobo: 1200,
      wait: true,
    });
    expect(job).toMatchObject({ state: 'completed', messages: 3, chargedKobo: 1200, chargedAsQuoted: 0, uncertainKobo: 0, origin: 'sheet', label: 'allowances.csv' });
    expect(job.counts).toMatchObject({ sent: 3, queued: 0, uncertain: 0, failed: 0 });

    const outbox = (await t.sandboxControl.outbox()).filter((o) => o.channel === 'sms');
    expect(outbox.map((o) => [o.to, o.body]).sort()).toEqual(
      [
        ['08031234501', 'Hello Ada Obi, your November data allowance of 2GB has been sent.'],
        ['08031234502', 'Hello Musa Bello, your November data allowance of 1.5GB has been sent.'],
        ['08031234506', 'Hello Ngozi Umeh, your November data allowance of 10GB has been sent.'],
      ].sort(),
    );
    // What the wallet lost is what the job says it was charged, and the spend figures count it.
    expect(before - (await sandboxWalletKobo(t))).toBe(job.chargedKobo);
    const spent = (await t.call('dashboard.summary', {})).spend.today.messaging.sms;
    expect(spent.sends - spentBefore.sends).toBe(3);
    expect(spent.costKobo - spentBefore.costKobo).toBe(1200);

    const page = await t.call('messaging.jobs.get', { id: job.id });
    expect(page.messages.map((m) => [m.row, m.state, m.chargedKobo, m.costSource])).toEqual([
      [2, 'sent', 400, 'service'],
      [3, 'sent', 400, 'service'],
      [7, 'sent', 400, 'service'],
    ]);
    // Resuming a finished job sends nothing more.
    await t.call('messaging.jobs.resume', { id: job.id, wait: true });
    expect((await t.sandboxControl.outbox()).filter((o) => o.channel === 'sms')).toHaveLength(3);
  });
});

describe('a job of personalised messages whose answers or requests are lost', () => {
  let sandbox: TestSandbox;
  let proxy: DroppingProxy;
  let t: TestApp;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ acceptAnyToken: true });
    proxy = await startDroppingProxy(sandbox.url);
    t = await startTestApp({ sandbox: { ...sandbox, url: proxy.url } });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  it('a message whose answer was lost is found in the service’s history, not sent again', async () => {
    const lines = Array.from({ length: 5 }, (_, i) => `Staff ${i + 1},0806555000${i},${i + 1}GB,November`);
    const file = writeSheet(lines);
    proxy.dropAnswers('/sendMessage', 2);
    const before = await sandboxWalletKobo({ sandbox, token: t.token });
    const job = await t.call('messaging.sheet.send', {
      file: { path: file },
      text: TEXT,
      senderId: 'VENDESK',
      skipEmpty: false,
      skipInvalid: false,
      confirmedTotalKobo: 2000,
      wait: true,
    });
    expect(job).toMatchObject({ state: 'completed', chargedKobo: 2000 });
    for (let i = 0; i < 5; i++) expect(await smsTo(t, `0806555000${i}`), `recipient ${i + 1}`).toHaveLength(1);
    expect(before - (await sandboxWalletKobo({ sandbox, token: t.token }))).toBe(2000);
    const found = (await t.call('messaging.jobs.get', { id: job.id })).messages.filter((m) => /history/.test(m.reason ?? ''));
    expect(found).toHaveLength(2);
  });

  it('a message whose request never arrived is sent again once the service’s clock says 2 minutes have passed, and only then', async () => {
    const file = writeSheet(['Bola Ade,08077700001,3GB,December', 'Kemi Ola,08077700002,4GB,December']);
    proxy.loseRequests('/sendMessage', 1);
    const started = await t.call('messaging.sheet.send', {
      file: { path: file },
      text: TEXT,
      senderId: 'VENDESK',
      skipEmpty: false,
      skipInvalid: false,
      confirmedTotalKobo: 800,
      wait: false,
    });
    // The first message's request was lost: it waits, uncertain, and is not sent while the service's silence cannot be trusted.
    await until(async () => (await t.call('messaging.jobs.get', { id: started.id })).job.counts.sent === 1, 'the second message sent');
    const waiting = await t.call('messaging.jobs.get', { id: started.id });
    expect(waiting.job.counts.uncertain).toBe(1);
    expect(await smsTo(t, '08077700001')).toHaveLength(0);
    await advanceClocks(t, 150);
    await until(async () => (await t.call('messaging.jobs.get', { id: started.id })).job.state === 'completed', 'the job completed');
    expect(await smsTo(t, '08077700001')).toHaveLength(1);
    expect(await smsTo(t, '08077700002')).toHaveLength(1);
    const first = (await t.call('messaging.jobs.get', { id: started.id })).messages[0];
    expect(first).toMatchObject({ state: 'sent', attempts: 2 });
    expect(first.reason).toMatch(/it was not sent, so it was sent again/);
  });
});
