/**
 * A team's standing order in the window (issue 40, team schema 8): Ada (a preparer) makes a LIVE
 * order on her joined desktop; on Bola's (an approver) the Standing orders page shows it as the
 * team's, with no standing approval; Bola gives one with Approve… (a ceiling per run and a number of
 * runs) and the card then says it covers the next run, as the team database records it. Ada, who
 * holds no approver role, is refused in words. Saved as screenshots.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../support/postgresCluster';
import { startTestApp, type TestApp } from '../support/testApp';
import { expect, saveScreen, test, watchLoads } from './support/fixtures';

const TOKEN = 'standing-team-window-4d1a';
let cluster: PostgresCluster;
let sandbox: SandboxHandle;
let ada: TestApp;
let bola: TestApp;
let orderId = '';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-standing-team-e2e-'));

async function windowOf(browser: Browser, t: TestApp): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  watchLoads(page);
  await page.goto(t.shell!.openUrl);
  return page;
}

async function openOrder(page: Page, t: TestApp): Promise<void> {
  await page.goto(`${t.shell!.origin}/#/standing`);
  await page.getByRole('button', { name: 'Open the standing order Staff data allowance' }).click();
  await expect(page.getByTestId('order-name')).toHaveText('Staff data allowance');
}

test.describe.serial("a team's standing approval in the window", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    cluster = await startPostgresCluster();
    sandbox = await startSandbox({ port: 0, tokens: [TOKEN], quiet: true });
    ada = await startTestApp({ web: true, sandbox, token: TOKEN, live: true });
    bola = await startTestApp({ web: true, sandbox, token: TOKEN, live: true });
    const url = (role: string) => `postgres://${role}@127.0.0.1:${cluster.port}/postgres`;
    await ada.call('team.join', { url: url(cluster.superuser), password: cluster.superuserPassword });
    await ada.call('team.leave', {});
    await ada.call('team.join', { url: url('ada'), password: await cluster.createLogin('ada', ['vendesk_preparer']), desktopName: 'Accounts PC' });
    await bola.call('team.join', { url: url('bola'), password: await cluster.createLogin('bola', ['vendesk_approver']), desktopName: 'Finance lead PC' });
    const file = path.join(dir, 'Staff airtime.csv');
    fs.writeFileSync(file, ['Name,Phone,Network,Amount', 'Adaeze Okafor,08031884101,MTN,1000', 'Bola Ade,08031884102,MTN,500', ''].join('\n'));
    // As the window's upload leaves it: the file in the data folder's uploads, named by its id.
    const uploadId = 'cd'.repeat(16);
    fs.mkdirSync(path.join(ada.dataDir, 'uploads'), { recursive: true });
    fs.copyFileSync(file, path.join(ada.dataDir, 'uploads', uploadId));
    const draft = await ada.call('standing.prepare', {
      name: 'Staff data allowance',
      kind: 'airtime',
      file: { uploadId, name: 'Staff airtime.csv' },
      recurrence: { kind: 'monthly', day: 25 },
    });
    orderId = draft.order.id;
    await ada.call('standing.confirm', { orderId, typedTotal: '1500' });
  });

  test.afterAll(async () => {
    await ada?.close();
    await bola?.close();
    await sandbox?.close();
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("an approver gives a standing approval with Approve…; the order's maker cannot", async ({ browser }) => {
    test.setTimeout(180_000);
    const page = await windowOf(browser, bola);
    await openOrder(page, bola);
    const card = page.getByTestId('standing-approval');
    await expect(card).toContainText('None: each run waits for approval like any bulk job');
    await card.getByRole('button', { name: 'Approve…' }).click();
    await expect(card.getByLabel('Ceiling per run (₦)')).toHaveValue('1500');
    await card.getByLabel('Ceiling per run (₦)').fill('1500');
    await card.getByRole('textbox', { name: 'Runs' }).fill('6');
    await card.getByLabel('Note (kept in the audit trail)').fill('FY27 allowances');
    await saveScreen(page, 'standing-team-approve-form.png');
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(card).toContainText('Covers the next run');
    await expect(card).toContainText('Up to ₦1,500.00 a run, 0 of 6 run(s) used');
    await expect(card).toContainText('Approved by bola (1 of 1) for version 1');
    await saveScreen(page, 'standing-team-approval-granted.png');
    // What the window shows is what the team database holds.
    const held = await cluster.superQuery<{ ceiling_kobo: string; runs: number }>('SELECT ceiling_kobo::text, runs FROM vendesk.standing_approvals WHERE order_id = $1', [orderId]);
    expect(held.rows).toEqual([{ ceiling_kobo: '150000', runs: 6 }]);
    await page.context().close();

    const own = await windowOf(browser, ada);
    await openOrder(own, ada);
    const adaCard = own.getByTestId('standing-approval');
    await expect(adaCard).toContainText('Covers the next run');
    await adaCard.getByRole('button', { name: 'Approve…' }).click();
    await adaCard.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(adaCard.getByRole('alert')).toContainText('approver');
    await saveScreen(own, 'standing-team-approve-refused.png');
    await own.context().close();
  });
});
