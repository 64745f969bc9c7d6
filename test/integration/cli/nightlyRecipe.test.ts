/**
 * Issue 38, finding 1: the README's nightly recipe starts a fresh data folder with a sync of one
 * day (`sync --from D --to D`), and a month-end `report spend` after it counted only the days
 * later syncs happened to read — 229 purchases where the service logged 858 — with exit 0 and
 * nothing on stderr. Here the real CLI runs the recipe against a sandbox with 90 days of history,
 * every day computed from the sandbox's clock, and each figure is compared with the sandbox's own
 * log: a plain sync after a ranged first sync reads the whole log; a report over days never read
 * reads them first (saying so on stderr) or refuses with exit 1 and the exact `vendesk sync` to run.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVendorExportCsv } from '../../../bench/generate/vendorExport';
import { shiftDay } from '../../../src/shared/localDates';
import type { LogEntry } from '../../../src/shared/wire';
import { allLogEntries } from '../../support/serviceLogEntries';
import { serviceSpend } from '../../support/serviceSpend';
import { startTestSandbox } from '../../support/testSandbox';
import { runInProcess, startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'nightly-recipe-org';
const HOUR_MS = 3_600_000;
let peer: CliPeer;
/** Today and yesterday as Lagos days on the sandbox's clock (never this computer's). */
let today = '';
let yesterday = '';
let log: LogEntry[] = [];

const lagosDayOf = (iso: string) => new Date(Date.parse(iso) + HOUR_MS).toISOString().slice(0, 10);

/** What left the wallet over Lagos days `from`…`to`, as the service's own log states it. */
function serviceSpendOver(from: string, to: string) {
  return serviceSpend(log, (e) => e.status !== 'FAILED' && lagosDayOf(e.created_at) >= from && lagosDayOf(e.created_at) <= to);
}

/** A data folder no command has used yet. */
function freshFolder(): string {
  return fs.mkdtempSync(path.join(peer.dir, 'folder-'));
}

/** `vendesk ARGS` on a data folder of its own; its JSON, failing on a non-zero exit. */
async function json<T = Record<string, unknown>>(dataDir: string, args: string[]): Promise<{ doc: T; stderr: string }> {
  const r = await peer.run(args, 'globals first', { dataDir });
  if (r.code !== 0) throw new Error(`vendesk ${args.join(' ')} exited ${r.code}: ${r.stdout} ${r.stderr}`);
  return { doc: JSON.parse(r.stdout) as T, stderr: r.stderr };
}

interface SpendJson {
  workbook: string;
  purchases: number;
  faceValue: number;
  walletCost: number;
  period: { from: string; to: string; complete: boolean; todayReadThrough: string | null; notYet: { from: string; to: string; days: number } | null };
}

beforeAll(async () => {
  peer = await startCliPeer(TOKEN, { seedHistory: 3000, creditDelayMs: 500 });
  const now = Date.parse((await peer.control.clock()).now);
  // A day with room before Lagos midnight, so "today" is the same day all through the file however long it takes.
  if ((now + HOUR_MS) % 86_400_000 > 86_400_000 - 40 * 60_000) await peer.control.advanceClock(45 * 60);
  today = lagosDayOf((await peer.control.clock()).now);
  yesterday = shiftDay(today, -1);
  log = (await allLogEntries(peer.sandbox.url, TOKEN)) as unknown as LogEntry[];
}, 120_000);

afterAll(async () => {
  await peer?.close();
});

describe("the README's nightly recipe from a fresh data folder", () => {
  it('sync one day, reconcile it, a plain sync later: report spend over the last 28 days is the service’s log', async () => {
    const folder = freshFolder();
    const day = yesterday;
    // The recipe: `sync --from "$day" --to "$day"`, then `reconcile … --from "$day" --to "$day" --out …`.
    const synced = await json<{ fetched: number }>(folder, ['sync', '--from', day, '--to', day]);
    expect(synced.doc.fetched).toBeGreaterThan(0);
    const ofDay = log.filter((e) => lagosDayOf(e.created_at) === day);
    expect(ofDay.length).toBeGreaterThan(10);
    const exportFile = path.join(peer.dir, `vendor export ${day}.csv`);
    writeVendorExportCsv(exportFile, ofDay);
    const reconciled = await json<{ matched: { count: number }; missingLocally: { count: number } }>(folder, [
      'reconcile',
      exportFile,
      '--from',
      day,
      '--to',
      day,
      '--out',
      path.join(peer.dir, `reconcile ${day}.xlsx`),
    ]);
    expect(reconciled.doc.matched.count).toBe(ofDay.length);
    expect(reconciled.doc.missingLocally.count).toBe(0);

    // Later, a plain sync: it reads what a first sync reads (the whole log), not only the days after the ranged one.
    await json(folder, ['sync']);
    const from = shiftDay(day, -27);
    const report = await json<SpendJson>(folder, ['report', 'spend', '--from', from, '--to', day, '--out', path.join(peer.dir, 'month.xlsx')]);
    const service = serviceSpendOver(from, day);
    expect(service.purchases).toBeGreaterThan(500);
    expect({ purchases: report.doc.purchases, face: Math.round(report.doc.faceValue * 100), cost: Math.round(report.doc.walletCost * 100) }).toEqual({
      purchases: service.purchases,
      face: service.faceKobo,
      cost: service.costKobo,
    });
    // Every day was in the mirror already: nothing was read first, nothing missing.
    expect(report.stderr).not.toMatch(/has not read/);
    expect(report.doc.period).toMatchObject({ from, to: day, complete: true, todayReadThrough: null, notYet: null });
  }, 180_000);

  it('a report over days the ranged first sync never read reads them first, saying so on stderr, and counts them all', async () => {
    const folder = freshFolder();
    await json(folder, ['sync', '--from', yesterday, '--to', yesterday]);
    const from = shiftDay(yesterday, -27);
    const report = await json<SpendJson>(folder, ['report', 'spend', '--from', from, '--to', yesterday, '--out', path.join(peer.dir, 'read first.xlsx')]);
    // It said which days it read and with which sync, and showed the sync's progress.
    expect(report.stderr).toContain(`from the service: reading them first (vendesk sync --from ${from} --to ${shiftDay(yesterday, -1)})`);
    expect(report.stderr).toMatch(/^sync: \d+ of \d+ entries, \d+ pages$/m);
    const service = serviceSpendOver(from, yesterday);
    expect([report.doc.purchases, Math.round(report.doc.faceValue * 100), Math.round(report.doc.walletCost * 100)]).toEqual([
      service.purchases,
      service.faceKobo,
      service.costKobo,
    ]);
    expect(report.doc.period.complete).toBe(true);

    // Listing and exporting over days are as whole: `logs --from --to` and `export logs` count what the service logged.
    const older = shiftDay(from, -20);
    const listed = await json<{ total: number; amount: number; period: { complete: boolean } }>(folder, ['logs', '--from', older, '--to', shiftDay(from, -1), '--limit', '5']);
    const entriesIn = (a: string, b: string) => log.filter((e) => lagosDayOf(e.created_at) >= a && lagosDayOf(e.created_at) <= b);
    expect(listed.stderr).toContain(`reading them first (vendesk sync --from ${older} --to ${shiftDay(from, -1)})`);
    expect(listed.doc.total).toBe(entriesIn(older, shiftDay(from, -1)).length);
    expect(Math.round(listed.doc.amount * 100)).toBe(serviceSpendOver(older, shiftDay(from, -1)).faceKobo);
    const exportFrom = shiftDay(older, -10);
    const out = path.join(peer.dir, 'exported.csv');
    const exported = await json<{ rows: number; period: { complete: boolean } }>(folder, ['export', 'logs', '--from', exportFrom, '--to', shiftDay(older, -1), '--out', out]);
    expect(exported.stderr).toContain(`reading them first (vendesk sync --from ${exportFrom} --to ${shiftDay(older, -1)})`);
    expect(exported.doc.rows).toBe(entriesIn(exportFrom, shiftDay(older, -1)).length);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n').length - 1).toBe(exported.doc.rows);
  }, 180_000);

  it('with --offline it refuses with exit 1, the days and the exact sync to run, and writes nothing', async () => {
    const folder = freshFolder();
    await json(folder, ['sync', '--from', yesterday, '--to', yesterday]);
    const from = shiftDay(yesterday, -27);
    const command = `vendesk sync --from ${from} --to ${shiftDay(yesterday, -1)}`;
    const workbook = path.join(peer.dir, 'offline.xlsx');
    const report = await peer.run(['report', 'spend', '--from', from, '--to', yesterday, '--out', workbook, '--offline'], 'globals first', { dataDir: folder, json: false });
    expect(report.code).toBe(1);
    expect(report.stdout).toBe('');
    expect(report.stderr).toContain('The spend report was not written: vendesk has not read');
    expect(report.stderr).toContain(`Run \`${command}\`, then run this command again.`);
    expect(fs.existsSync(workbook)).toBe(false);

    const listed = await peer.run(['logs', '--from', from, '--to', yesterday, '--offline'], 'globals last', { dataDir: folder, json: false });
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('The entries were not listed');
    expect(listed.stderr).toContain(command);
    const out = path.join(peer.dir, 'offline.csv');
    const exported = await peer.run(['export', 'logs', '--out', out, '--from', from, '--to', yesterday, '--offline'], 'globals first', { dataDir: folder });
    expect(exported.code).toBe(1);
    expect(JSON.parse(exported.stdout)).toMatchObject({ error: { code: 'days_unread', hint: `Run \`${command}\`, then run this command again.` } });
    expect(fs.existsSync(out)).toBe(false);

    // The day the ranged sync read is whole: offline, a report over it is written.
    const one = await json<SpendJson>(folder, ['report', 'spend', '--from', yesterday, '--to', yesterday, '--offline', '--out', path.join(peer.dir, 'one day.xlsx')]);
    expect(one.doc.purchases).toBe(serviceSpendOver(yesterday, yesterday).purchases);
  }, 120_000);

  it('when the service cannot be reached it refuses with exit 1 and the sync to run once it answers', async () => {
    // An address nothing listens on (a port taken and let go).
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => {
        const p = (server.address() as net.AddressInfo).port;
        server.close(() => resolve(p));
      });
    });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-unreachable-'));
    try {
      const from = shiftDay(yesterday, -3);
      const r = await runInProcess(['--data-dir', folder, '--base-url', `http://127.0.0.1:${port}`, 'report', 'spend', '--from', from, '--to', yesterday], {
        VENDESK_TOKEN: TOKEN,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/The spend report was not written: vendesk has not read .* from the service, and reading them now failed: /);
      expect(r.stderr).toContain(`Run \`vendesk sync --from ${from} --to ${yesterday}\` once the service answers, then run this command again.`);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('two connections in one data folder', () => {
  it('each knows the days it read: a day one connection synced is not read for the other', async () => {
    const [ada, bola] = ['coverage-org-ada', 'coverage-org-bola'];
    const sandbox = await startTestSandbox({ tokens: [ada, bola], seedHistory: 600 });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-two-'));
    const as = (token: string, args: string[], offline = false) =>
      runInProcess(['--data-dir', folder, '--base-url', sandbox.url, '--json', ...args, ...(offline ? ['--offline'] : [])], { VENDESK_TOKEN: token });
    try {
      const now = (await sandbox.control(ada).clock()).now;
      const day = shiftDay(lagosDayOf(now), -2);
      expect((await as(ada, ['sync', '--from', day, '--to', day])).code).toBe(0);
      // Ada's connection read the day: offline, her report is written and equals her service's log.
      const adaLog = (await allLogEntries(sandbox.url, ada)) as unknown as LogEntry[];
      const adaReport = await as(ada, ['report', 'spend', '--from', day, '--to', day, '--out', path.join(folder, 'ada.xlsx')], true);
      expect(adaReport.code, adaReport.stderr).toBe(0);
      const adaSpend = serviceSpend(adaLog, (e) => e.status !== 'FAILED' && lagosDayOf(e.created_at) === day);
      expect(JSON.parse(adaReport.stdout)).toMatchObject({ purchases: adaSpend.purchases, faceValue: adaSpend.faceKobo / 100 });
      // Bola's connection never read it: refused offline, and read first otherwise — her own log's figures, not Ada's.
      const refused = await as(bola, ['report', 'spend', '--from', day, '--to', day, '--out', path.join(folder, 'bola.xlsx')], true);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'days_unread', hint: `Run \`vendesk sync --from ${day} --to ${day}\`, then run this command again.` } });
      const bolaReport = await as(bola, ['report', 'spend', '--from', day, '--to', day, '--out', path.join(folder, 'bola.xlsx')]);
      expect(bolaReport.code, bolaReport.stderr).toBe(0);
      const bolaLog = (await allLogEntries(sandbox.url, bola)) as unknown as LogEntry[];
      const bolaSpend = serviceSpend(bolaLog, (e) => e.status !== 'FAILED' && lagosDayOf(e.created_at) === day);
      expect(JSON.parse(bolaReport.stdout)).toMatchObject({ purchases: bolaSpend.purchases, faceValue: bolaSpend.faceKobo / 100 });
      expect(bolaSpend.faceKobo).not.toBe(adaSpend.faceKobo);
    } finally {
      await sandbox.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("today is the service's day, not this computer's", () => {
  it('a fresh run asks the service its time before counting days: a report to the service’s today holds today, nothing "not yet"', async () => {
    const token = 'coverage-org-ahead';
    const sandbox = await startTestSandbox({ tokens: [token], seedHistory: 300 });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-ahead-'));
    const run = (args: string[]) => runInProcess(['--data-dir', folder, '--base-url', sandbox.url, '--json', ...args], { VENDESK_TOKEN: token });
    try {
      // The service's clock a day ahead of this computer's: its today is this computer's tomorrow, whatever the hour.
      await sandbox.control(token).advanceClock(24 * 3600);
      const serviceToday = lagosDayOf((await sandbox.control(token).clock()).now);
      const from = shiftDay(serviceToday, -1);
      expect((await run(['sync'])).code).toBe(0);
      // A new process, which has had no answer yet: the report's today is the service's.
      const r = await run(['report', 'spend', '--from', from, '--to', serviceToday, '--out', path.join(folder, 'ahead.xlsx')]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as SpendJson;
      expect(doc.period).toMatchObject({ from, to: serviceToday, complete: true, notYet: null });
      expect(doc.period.todayReadThrough).not.toBeNull();
      expect(lagosDayOf(doc.period.todayReadThrough as string)).toBe(serviceToday);
      const aheadLog = (await allLogEntries(sandbox.url, token)) as unknown as LogEntry[];
      const spend = serviceSpend(aheadLog, (e) => e.status !== 'FAILED' && lagosDayOf(e.created_at) >= from && lagosDayOf(e.created_at) <= serviceToday);
      expect([doc.purchases, Math.round(doc.faceValue * 100)]).toEqual([spend.purchases, spend.faceKobo]);
    } finally {
      await sandbox.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
  it("a fresh `month list` lists the service's current month, open, when the service is already in the next month", async () => {
    const token = 'months-org-ahead';
    const sandbox = await startTestSandbox({ tokens: [token] });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-months-ahead-'));
    try {
      // 32 days on: the service's month is never this computer's, whatever the day of the month.
      await sandbox.control(token).advanceClock(32 * 24 * 3600);
      const serviceMonth = lagosDayOf((await sandbox.control(token).clock()).now).slice(0, 7);
      const r = await runInProcess(['--data-dir', folder, '--base-url', sandbox.url, 'month', 'list', '--json'], { VENDESK_TOKEN: token });
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { months: { month: string; state: string; closedAt: string | null }[] };
      // Nothing read yet: the one month listed is the current one, and it is the service's.
      expect(doc.months).toEqual([{ month: serviceMonth, state: 'open', closedAt: null, closedBy: null }]);
    } finally {
      await sandbox.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
