/**
 * Setting a team database up from the window (issue 23, item 7): joining with the setup role in
 * Settings → Team says the schema is ready and the team's roles come next — the desktop stays
 * unjoined and the setup role's password is not kept — and a member's Settings → Team warns, naming
 * the setup role, until it gives up CREATEROLE.
 */
import AxeBuilder from '@axe-core/playwright';
import pg from 'pg';
import type { Page } from '@playwright/test';
import { startPostgresCluster, type PostgresCluster } from '../support/postgresCluster';
import { startTestApp, type TestApp } from '../support/testApp';
import { expect, saveScreen, test } from './support/fixtures';

let cluster: PostgresCluster;
let desk: TestApp;
let page: Page;
const SETUP_PASSWORD = 'setup-role-secret-5d1e';

async function openSettings(): Promise<ReturnType<Page['getByRole']>> {
  await page.goto(`${desk.shell!.origin}/#/dashboard`);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goto(`${desk.shell!.origin}/#/settings?section=team`);
  const team = page.getByRole('region', { name: 'Team' });
  await team.scrollIntoViewIfNeeded();
  return team;
}

test.describe.serial('setting a team database up in the window', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    cluster = await startPostgresCluster();
    await cluster.superQuery(`CREATE ROLE vendesk_setup LOGIN CREATEROLE PASSWORD '${SETUP_PASSWORD}'`);
    await cluster.superQuery('CREATE DATABASE finance_team OWNER vendesk_setup');
    desk = await startTestApp({ web: true });
    page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await page.goto(desk.shell!.openUrl);
  });

  test.afterAll(async () => {
    await page?.context().close();
    await desk?.close();
    await cluster?.stop();
  });

  test('joining with the setup role: the schema is ready, now create the team’s roles; the desktop stays unjoined', async () => {
    const team = await openSettings();
    await team.getByLabel('Database server').fill(`127.0.0.1:${cluster.port}/finance_team`);
    await team.getByLabel('Your database role').fill('vendesk_setup');
    await team.getByLabel('Password of your role').fill(SETUP_PASSWORD);
    await team.getByRole('button', { name: 'Join the team database' }).click();
    const ready = team.getByTestId('team-setup-ready');
    await expect(ready).toContainText('The schema is ready; now create the team’s roles');
    await expect(ready).toContainText('This desktop is not joined with the setup role');
    await expect(team.getByTestId('team-setup-problems')).toContainText('vendesk_setup may create roles (CREATEROLE)');
    await expect(team.getByTestId('team-setup-problems')).toContainText('ALTER ROLE vendesk_setup NOCREATEROLE;');
    await expect(team.getByTestId('team-joined')).toHaveText('Not joined');
    await expect(team.getByLabel('Password of your role')).toHaveValue('');
    expect(await page.content()).not.toContain(SETUP_PASSWORD);
    await saveScreen(page, 'team-settings-setup-ready.png');
    const scan = await new AxeBuilder({ page }).include('[data-testid="team-setup-ready"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect((await desk.call('team.status', {})).joined).toBe(false);
  });

  test('a member’s Settings → Team names the setup role until it gives up CREATEROLE', async () => {
    const setup = new pg.Client(cluster.config('vendesk_setup', SETUP_PASSWORD, 'finance_team'));
    await setup.connect();
    try {
      await setup.query("CREATE ROLE chidi LOGIN PASSWORD 'chidi-secret-77ab'");
      await setup.query('GRANT vendesk_admin TO chidi');
      await desk.call('team.join', { url: `postgres://chidi@127.0.0.1:${cluster.port}/finance_team`, password: 'chidi-secret-77ab', desktopName: 'Finance lead PC' });
      let team = await openSettings();
      await expect(team.getByTestId('team-joined')).toHaveText('Joined');
      const unfinished = team.getByTestId('team-setup-unfinished');
      await expect(unfinished).toContainText('setup is not finished');
      await expect(unfinished).toContainText('vendesk_setup may create roles');
      await saveScreen(page, 'team-settings-setup-unfinished.png');
      const scan = await new AxeBuilder({ page }).include('[data-testid="team-setup-unfinished"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await setup.query('ALTER ROLE vendesk_setup NOCREATEROLE');
      team = await openSettings();
      await expect(team.getByTestId('team-roles')).toContainText('Admin');
      await expect(team.getByTestId('team-setup-unfinished')).toHaveCount(0);
    } finally {
      await setup.end();
    }
  });
});
