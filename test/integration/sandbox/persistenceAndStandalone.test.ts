import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSandboxArgs, runSandboxCli } from '../../../src/sandbox/standalone';
import type { LogEntry, PageObject, PhonebookRecord } from '../../../src/shared/wire';
import { startSandboxProcess, startTestSandbox } from '../../support/testSandbox';
import { AIRTIME_BP, costNaira, mtnAirtime, naira, Org } from './sandboxHarness';

const dir = mkdtempSync(join(tmpdir(), 'vendesk-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite file state', () => {
  it('survives a restart: wallet, log, clock and messaging data; history is seeded only once', async () => {
    const dbPath = join(dir, 'state.db');
    const first = await startTestSandbox({ tokens: ['demo'], dbPath, seedHistory: 50 });
    const org = new Org(first.url, 'demo');
    expect((await org.get<PageObject<LogEntry>>('/logEntries')).body.data.TotalRecords).toBe(50);
    // Held, the clock moves only when advanced: the 5 s of crediting are the sandbox's, however slow
    // the restart; and a held clock is kept across it.
    await org.control.holdClock();
    await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 1000), mtnAirtime('08031239999', 1000)]);
    await org.post('/craetePhonebook', { name: 'Kept', description: 'across restarts' });
    await org.advance(2);
    await first.close();

    const second = await startTestSandbox({ tokens: ['demo'], dbPath, seedHistory: 50 });
    try {
      const again = new Org(second.url, 'demo');
      const log = await again.get<PageObject<LogEntry>>('/logEntries?status=pending');
      expect(log.body.data.TotalRecords).toBe(2);
      expect((await again.get<PageObject<LogEntry>>('/logEntries')).body.data.TotalRecords).toBe(52);
      expect((await again.get<PhonebookRecord[]>('/getPhonebook')).body.data.map((p) => p.name)).toEqual(['Kept']);
      expect((await again.control.send<{ offsetSeconds: number; held: boolean }>('GET', 'clock')).body.data).toMatchObject({ offsetSeconds: 2, held: true });
      expect(await again.balance()).toBe(naira(1_000_000, -2 * costNaira(1000, AIRTIME_BP.MTN)));
      await again.advance(3);
      expect((await again.get<PageObject<LogEntry>>('/logEntries?status=pending')).body.data.TotalRecords).toBe(0);
      expect(await again.balance()).toBe(naira(1_000_000, -costNaira(1000, AIRTIME_BP.MTN)));
    } finally {
      await second.close();
    }
  });

  it('accepts only this run’s tokens, even if the file remembers others', async () => {
    const dbPath = join(dir, 'tokens.db');
    const first = await startTestSandbox({ tokens: ['old-token'], dbPath });
    expect((await new Org(first.url, 'old-token').get('/AirtimeList')).status).toBe(200);
    await first.close();
    const second = await startTestSandbox({ tokens: ['new-token'], dbPath });
    try {
      expect((await new Org(second.url, 'old-token').get('/AirtimeList')).status).toBe(401);
      expect((await new Org(second.url, 'new-token').get('/AirtimeList')).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a port that is taken, without leaking', async () => {
    const a = await startTestSandbox({ acceptAnyToken: false });
    try {
      await expect(startTestSandbox({ port: a.port, acceptAnyToken: false })).rejects.toThrow();
    } finally {
      await a.close();
    }
  });
});

describe('paging at scale', () => {
  // How fast seeding and paging are is the sandbox benchmark's to print (`npm run bench -- sandbox`,
  // docs/benchmarks.md); a test that timed them would fail on a busy machine, not on a slow sandbox.
  // Its limit is generous (ten minutes) because it is not a speed test: on a busy box it only takes longer.
  it('pages through 100,000 seeded entries, 100 per page, newest first and without gaps', { timeout: 600_000 }, async () => {
    const sb = await startTestSandbox({ tokens: ['big'], seedHistory: 100_000 });
    try {
      const org = new Org(sb.url, 'big');
      let count = 0;
      let lastId = Number.POSITIVE_INFINITY;
      let lastCreated = '9999';
      let next = '/logEntries?perPage=100&page=1';
      while (next) {
        const r = await org.get<PageObject<LogEntry>>(next);
        for (const e of r.body.data.Items) {
          expect(e.created_at < lastCreated || (e.created_at === lastCreated && e.id < lastId)).toBe(true);
          lastCreated = e.created_at;
          lastId = e.id;
          count++;
        }
        next = r.body.data.NextPage ? new URL(r.body.data.NextPage).pathname + new URL(r.body.data.NextPage).search : '';
      }
      expect(count).toBe(100_000);
    } finally {
      await sb.close();
    }
  });
});

describe('standalone', () => {
  it('parses the documented flags', () => {
    const { options } = parseSandboxArgs(['--port', '4010', '--token', 'a', '--token=b', '--db', 'x.db', '--seed-history', '10', '--balance', '5000', '--host', '127.0.0.1']);
    expect(options).toMatchObject({ port: 4010, tokens: ['a', 'b'], dbPath: 'x.db', seedHistory: 10, initialBalanceNaira: 5000, host: '127.0.0.1' });
    expect(() => parseSandboxArgs(['--port', 'abc'])).toThrow(/--port/);
    expect(() => parseSandboxArgs(['--nope'])).toThrow(/unknown option/);
    expect(parseSandboxArgs(['--token', 'a', '--shapes', 'alt']).options.shapes).toBe('alt');
    expect(parseSandboxArgs(['--token', 'a', '--shapes=sparse']).options.shapes).toBe('sparse');
    expect(() => parseSandboxArgs(['--shapes', 'pascal'])).toThrow(/--shapes must be one of standard, alt, sparse, got "pascal"/);
  });

  it('exits 2 on bad arguments without listening', async () => {
    expect(await runSandboxCli(['--bogus'])).toBe(2);
    expect(await runSandboxCli([])).toBe(2);
  });

  it('runs as a process: prints its URL, serves the tokens, and stops cleanly on SIGTERM', async () => {
    // The token comes from a file, as the docs show: never on a command line.
    const tokenDir = mkdtempSync(join(tmpdir(), 'vendesk-sandbox-tokens-'));
    const tokenFile = join(tokenDir, 'tokens.txt');
    writeFileSync(tokenFile, '# one organisation\ndemo-token\n', { mode: 0o600 });
    const sandbox = await startSandboxProcess(['--token-file', tokenFile, '--seed-history', '25', '--shapes', 'alt'], { entry: 'runStandalone', timeoutMs: 20_000 });
    try {
      const url = sandbox.url;
      const org = new Org(url, 'demo-token');
      expect((await org.get<PageObject<LogEntry>>('/logEntries')).body.data.TotalRecords).toBe(25);
      expect((await new Org(url, 'someone-else').get('/AirtimeList')).status).toBe(401);
      // --shapes alt: the messaging answers come in the alt form.
      expect((await org.get<{ TotalRecords: number }>('/getSenderIds')).body.data.TotalRecords).toBe(2);
      expect(await sandbox.stop('SIGTERM')).toBe(0);
    } finally {
      await sandbox.stop('SIGKILL');
      rmSync(tokenDir, { recursive: true, force: true });
    }
  });
});
