/**
 * Exports never replace one another: two exports written in the same minute get distinct names
 * (a number added), in the window's operations and from the CLI, and each file keeps its own rows
 * — counted against the service's own log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { allLogEntries } from '../../support/serviceLogEntries';
import { startTestApp, type TestApp } from '../../support/testApp';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';

let t: TestApp | null = null;
let peer: CliPeer | null = null;

afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  await peer?.close();
  t = null;
  peer = null;
});

/**
 * Holds this computer's clock still (only `Date`: timers and sockets run on), so the exports that
 * follow are stamped in one minute however long the machine takes to write them.
 */
function inOneMinute(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date());
}

function dataLines(file: string): number {
  return fs.readFileSync(file, 'utf8').trim().split('\n').length - 1;
}

it('two exports of the log in the same minute: the second gets " (2)" and the first keeps its rows', { timeout: 120_000 }, async () => {
  t = await startTestApp({ seedHistory: 40 });
  await t.call('sync.run', {});
  const log = await allLogEntries(t.sandbox.url, t.token);
  const failed = log.filter((e) => e.status === 'FAILED').length;
  expect(failed).toBeGreaterThan(0);
  expect(failed).toBeLessThan(log.length);

  inOneMinute();
  const all = await t.call('logs.export', { filter: {}, sort: 'time_desc', format: 'csv' });
  const someFailed = await t.call('logs.export', { filter: { status: 'FAILED' }, sort: 'time_desc', format: 'csv' });
  const third = await t.call('logs.export', { filter: { status: 'FAILED' }, sort: 'time_desc', format: 'csv' });
  expect(new Set([all.path, someFailed.path, third.path]).size).toBe(3);
  expect(path.dirname(someFailed.path)).toBe(path.dirname(all.path));
  expect(someFailed.fileName).toBe(all.fileName.replace(/\.csv$/, ' (2).csv'));
  expect(third.fileName).toBe(all.fileName.replace(/\.csv$/, ' (3).csv'));
  // The first file still holds the whole log, the second only the failed purchases.
  expect(dataLines(all.path)).toBe(log.length);
  expect(dataLines(someFailed.path)).toBe(failed);
});

it('the CLI: two spend reports of the same days in the same minute are two workbooks (and two charts)', { timeout: 120_000 }, async () => {
  peer = await startCliPeer('export-names-cli-7f3a');
  await peer.json(['sync']);
  inOneMinute();
  const first = await peer.json<{ workbook: string; chart: string | null }>(['report', 'spend', '--from', '2026-01-01', '--to', '2026-12-31']);
  const second = await peer.json<{ workbook: string; chart: string | null }>(['report', 'spend', '--from', '2026-01-01', '--to', '2026-12-31']);
  expect(second.workbook).not.toBe(first.workbook);
  expect(second.workbook).toBe(first.workbook.replace(/\.xlsx$/, ' (2).xlsx'));
  expect(second.chart).not.toBe(first.chart);
  for (const f of [first.workbook, second.workbook]) expect(fs.existsSync(f)).toBe(true);
});
