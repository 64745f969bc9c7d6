/**
 * Settings → Check connection and Settings → Service answers in the real renderer: against the
 * sandbox (every endpoint read), against its sparse form (read, with gaps named), and against an
 * address that is not the service (said in one sentence). A kept answer hides phone numbers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp } from '../support/testApp';
import { expect, saveScreen, test } from './support/fixtures';

test("Check connection reads every endpoint; Service answers shows a send's answer with the number hidden", async ({ page, vendesk }) => {
  const input = { target: { kind: 'number' as const, to: '08051234599' }, content: { kind: 'text' as const, text: 'Your payslip is ready' }, emails: [] };
  const quote = await vendesk.call('messaging.quote', input);
  await vendesk.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });

  await page.goto(`${vendesk.shell?.origin}/#/settings`);
  await page.getByRole('tab', { name: 'Diagnostics' }).click();
  const check = page.getByTestId('connection-check');
  await check.getByRole('button', { name: 'Check connection' }).click();
  await expect(page.getByTestId('doctor-summary')).toContainText('vendesk read every answer of');
  await expect(page.getByTestId('doctor-summary')).toContainText('11 of 11 endpoints readable');
  await expect(page.getByTestId('doctor-checks').getByText('Read', { exact: true })).toHaveCount(11);
  await expect(page.getByTestId('doctor-getSenderIds')).toContainText('2 sender IDs, 1 approved');
  await check.scrollIntoViewIfNeeded();
  await saveScreen(page, 'settings-check-connection.png');

  const answers = page.getByTestId('service-answers');
  // The answers are folded until asked for.
  await expect(answers.getByTestId('answer-sendMessage')).toHaveCount(0);
  await answers.getByTestId('service-answers-toggle').click();
  const sent = answers.getByTestId('answer-sendMessage');
  await sent.getByRole('button').first().click();
  const body = sent.getByTestId('answer-body');
  await expect(body).toContainText('"recipients"');
  await expect(body).toContainText('[phone …99]');
  await expect(body).not.toContainText('08051234599');
  await sent.scrollIntoViewIfNeeded();
  await saveScreen(page, 'settings-service-answers.png');
});

test.describe('the sparse form', () => {
  test.use({ appOptions: { shapes: 'sparse' } });
  test('Check connection reads every endpoint and names what the answers leave out', async ({ page, vendesk }) => {
    await page.goto(`${vendesk.shell?.origin}/#/settings?section=diagnostics`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect(page.getByTestId('doctor-summary')).toContainText('left facts out');
    await expect(page.getByTestId('doctor-getSenderIds')).toContainText('The sender IDs do not say when they were registered.');
    await expect(page.getByTestId('doctor-messageStatus')).toContainText('Skipped');
    await saveScreen(page, 'settings-check-connection-sparse.png', { fullPage: true });
  });
});

test('against an address that is not the service, Check connection says so in one sentence', async ({ page }) => {
  const web = createServer((_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><h1>Not Found</h1></html>'));
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  const port = (web.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const app = await startTestApp({ web: true, sandbox: { url, port, close: async () => undefined } });
  try {
    await page.goto(app.shell?.openUrl ?? '');
    await page.goto(`${app.shell?.origin}/#/settings?section=diagnostics`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    const summary = page.getByTestId('doctor-summary');
    await expect(summary).toContainText('This address is not the vending service');
    await expect(summary).toContainText(
      `${url} answers, but it is not the vending service: none of its 10 endpoints answered in the service's envelope (/accountBalance answered HTTP 404 with text/html).`,
    );
    await saveScreen(page, 'settings-check-connection-not-the-service.png', { fullPage: true });
  } finally {
    await app.close();
    web.close();
  }
});
