/**
 * Issue 41's team half in the window: on two LIVE desktops joined to one PostgreSQL team database,
 * the approver closes last month on the Month-end page, and the preparer's page shows it closed by
 * the approver and refuses the preparer's own reopen with the team database's words. Screenshots go
 * to .tmp/screens.
 */
import type { Browser, Page } from '@playwright/test';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../support/postgresCluster';
import { startTestApp, type TestApp } from '../support/testApp';
import { expect, pageSettled, saveScreen, test, watchLoads, WIDE_SCREEN } from './support/fixtures';

const TOKEN = 'team-month-window-org-2c41';
const LAGOS_MS = 3_600_000;
let cluster: PostgresCluster;
let sandbox: SandboxHandle;
let ada: TestApp;
let bola: TestApp;

async function monthEndOf(browser: Browser, t: TestApp): Promise<Page> {
  const page = await (await browser.newContext({ viewport: WIDE_SCREEN })).newPage();
  watchLoads(page);
  await page.goto(t.shell!.openUrl);
  await page.goto(`${t.shell!.origin}/#/month-end`);
  return page;
}

test.describe.serial('month-end in a team', () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    cluster = await startPostgresCluster();
    sandbox = await startSandbox({ port: 0, tokens: [TOKEN], quiet: true, seedHistory: 200 }); // last month has entries, so the page lists it
    ada = await startTestApp({ web: true, sandbox, token: TOKEN, live: true });
    bola = await startTestApp({ web: true, sandbox, token: TOKEN, live: true });
    const url = (role: string) => `postgres://${role}@127.0.0.1:${cluster.port}/postgres`;
    await ada.call('team.join', { url: url(cluster.superuser), password: cluster.superuserPassword });
    await ada.call('team.leave', {});
    await ada.call('team.join', { url: url('ada'), password: await cluster.createLogin('ada', ['vendesk_preparer']), desktopName: 'Accounts PC' });
    await bola.call('team.join', { url: url('bola'), password: await cluster.createLogin('bola', ['vendesk_approver']), desktopName: 'Finance lead PC' });
  });

  test.afterAll(async () => {
    await ada?.close();
    await bola?.close();
    await sandbox?.close();
    await cluster?.stop();
  });

  test('the approver closes last month; the preparer sees it closed by the approver and cannot reopen it', async ({ browser }) => {
    const now = new Date(Date.parse((await bola.sandboxControl.clock()).now) + LAGOS_MS);
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)).toISOString().slice(0, 7);

    const bolaPage = await monthEndOf(browser, bola);
    await bolaPage.getByTestId('month-end-month').click();
    await bolaPage.getByRole('option', { name: new RegExp(`^${month}`) }).click();
    await expect(bolaPage.getByTestId('month-end-state')).toHaveText('Open', { timeout: 60_000 });
    await expect(bolaPage.getByTestId('month-end-team')).toContainText('an approver or admin closes and reopens them');
    await bolaPage.getByTestId('month-end-close').click();
    await expect(bolaPage.getByRole('dialog')).toContainText('The close is the team’s');
    await bolaPage.getByTestId('month-end-close-confirm').click();
    await expect(bolaPage.getByTestId('month-end-state')).toHaveText('Closed by bola');
    await pageSettled(bolaPage);
    await saveScreen(bolaPage, 'team-month-end-approver-closed.png', { fullPage: true });

    const adaPage = await monthEndOf(browser, ada);
    await adaPage.getByTestId('month-end-month').click();
    await adaPage.getByRole('option', { name: `${month} (closed)` }).click();
    await expect(adaPage.getByTestId('month-end-state')).toHaveText('Closed by bola', { timeout: 60_000 });
    await adaPage.getByTestId('month-end-reopen').click();
    await adaPage.getByLabel('Why it is reopened').fill('I would like to change it');
    await adaPage.getByRole('button', { name: `Reopen ${month}` }).click();
    await expect(adaPage.getByText('You cannot close or reopen a month: your role holds no approver role.')).toBeVisible();
    await adaPage.keyboard.press('Escape');
    await expect(adaPage.getByTestId('month-end-state')).toHaveText('Closed by bola');
    await pageSettled(adaPage);
    await saveScreen(adaPage, 'team-month-end-preparer-refused.png', { fullPage: true });
    await adaPage.context().close();
    await bolaPage.context().close();
  });
});
