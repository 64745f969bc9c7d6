/**
 * First open of the Transactions page (issue 26: "< 1 s; a page's code loads with the page").
 * Serves the built window with `vendesk web` (embedded sandbox, fresh data folder), opens it in
 * Debian's Chromium (playwright-core, headless) and, N times in a fresh tab each, times from the
 * navigation to the Dashboard's heading (the first page) and then from the click on Transactions
 * to its heading, and counts the bytes of script each loads. Beside them: the size of the window's
 * main chunk and of the Transactions page's own chunk in out/renderer. Builds first when
 * out/renderer is older than src/renderer.
 *
 *   npm run bench -- pages [--runs 5]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildIfStale } from '../scripts/buildIfStale.mjs';
import { ROOT, spawnVendesk, untilSaid } from '../test/support/vendeskProcess';
import { reportRow } from './summary';
import { median, numberArg } from './benchArgs';

const RUNS = numberArg('runs', 5);
const TARGET_MS = 1000;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** Bytes of script the page receives while `act` runs. */
async function scriptBytesDuring(page: Page, act: () => Promise<void>): Promise<number> {
  // Not 'networkidle': the window's event stream stays open.
  const bodies: Promise<number>[] = [];
  const onResponse = (r: import('playwright-core').Response) => {
    if (r.url().endsWith('.js'))
      bodies.push(
        r.body().then(
          (b) => b.length,
          () => 0,
        ),
      );
  };
  page.on('response', onResponse);
  await act();
  page.off('response', onResponse);
  return (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  buildIfStale(ROOT);
  const assets = path.join(ROOT, 'out', 'renderer', 'assets');
  const files = fs.readdirSync(assets);
  const size = (prefix: string) => files.filter((f) => f.startsWith(prefix) && f.endsWith('.js')).reduce((n, f) => n + fs.statSync(path.join(assets, f)).size, 0);
  const entry = /src="\.?\/?assets\/([^"]+\.js)"/.exec(fs.readFileSync(path.join(ROOT, 'out', 'renderer', 'index.html'), 'utf8'))?.[1] ?? '';
  const mainBytes = entry ? fs.statSync(path.join(assets, entry)).size : 0;
  const pageBytes = size('TransactionsPage-');

  // Debian's Chromium, as the end-to-end tests use (CHROMIUM_PATH names another).
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath} (set CHROMIUM_PATH).`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-pages-bench-'));
  const web = spawnVendesk(['web', '--port', '0', '--data-dir', path.join(home, 'data')], { HOME: home });
  const browser = await chromium.launch({ executablePath, headless: true });
  try {
    await untilSaid(web, () => web.stdout.includes('Press Ctrl-C'), 'its address');
    // Each link signs in one tab once; vendesk prints a new one after each use.
    const links = () => [...web.stdout.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/#session=\S+)/g)].map((m) => m[1]);
    const first: number[] = [];
    const open: number[] = [];
    let firstBytes = 0;
    let openBytes = 0;
    for (let run = 0; run < RUNS; run++) {
      await untilSaid(web, () => links().length > run, 'a new link');
      const openUrl = links()[run];
      // A fresh context: nothing cached, as a window opened for the first time.
      const context = await browser.newContext();
      const page = await context.newPage();
      let t0 = performance.now();
      firstBytes = await scriptBytesDuring(page, async () => {
        await page.goto(openUrl);
        await page
          .getByRole('heading', { name: 'Dashboard', level: 1 })
          .waitFor({ timeout: 120_000 })
          .catch(async (e: unknown) => {
            await page.screenshot({ path: path.join(ROOT, '.tmp', 'pages-bench.png') });
            console.log(openUrl.replace(/#.*/, '#…'), web.stdout.replace(/session=\S+/g, 'session=…'));
            throw e;
          });
        first.push(performance.now() - t0);
      });
      t0 = performance.now();
      openBytes = await scriptBytesDuring(page, async () => {
        await page
          .getByRole('link', { name: /^Transactions/ })
          .first()
          .click();
        await page.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor({ timeout: 120_000 });
        open.push(performance.now() - t0);
      });
      await context.close();
    }
    const firstMs = median(first);
    const openMs = median(open);
    console.log(`window pages benchmark — Chromium headless, vendesk web (embedded sandbox), median of ${RUNS} fresh tabs, load average ${os.loadavg()[0].toFixed(2)}`);
    console.log(`main chunk ${kb(mainBytes)}; Transactions page's own chunk ${kb(pageBytes)}`);
    console.log(`first page (Dashboard) painted        ${firstMs.toFixed(0).padStart(5)} ms (min ${Math.min(...first).toFixed(0)}), ${kb(firstBytes)} of script`);
    console.log(
      `first open of Transactions            ${openMs.toFixed(0).padStart(5)} ms (min ${Math.min(...open).toFixed(0)}), ${kb(openBytes)} more script   target < ${TARGET_MS} ms: ${openMs < TARGET_MS ? 'met' : 'NOT met'}`,
    );
    reportRow({
      row: 'first open of Transactions in the window',
      measured: `${openMs.toFixed(0)} ms, its chunks ${kb(openBytes)}`,
      yardstick: `first page painted ${firstMs.toFixed(0)} ms (main chunk ${kb(mainBytes)})`,
      target: `< ${TARGET_MS} ms; own chunk`,
      met: openMs < TARGET_MS && pageBytes > 0 && pageBytes < mainBytes,
    });
  } finally {
    await browser.close();
    web.child.kill('SIGTERM');
    await web.closed;
    fs.rmSync(home, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
