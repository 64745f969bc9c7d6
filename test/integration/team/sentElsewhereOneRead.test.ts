/**
 * Issue 26: the rows of a team job another desktop sent are settled, on the desktop that resumes
 * it, from one paged read of the service's log around the job — not one read per row. ada
 * prepares 150 rows, bola approves, chidi (his own token, same organisation) adopts and buys them
 * all; ada then resumes her own job. Every request of the three desktops passes a recording proxy
 * in front of the sandbox, so the log reads of ada's resume are counted as the service saw them,
 * and each row's settled reference is checked against the sandbox's own `/logEntries`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/main/app';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startLatencyProxy, type LatencyProxy } from '../../support/latencyProxy';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { QUICK_CLI_JOBS, airtimeRows, allLogEntries, writeCsv } from '../bulk/bulkTestFiles';
import { cliDesk, closeTeamRoom, joinAsNewLogin, joinTeamAs, type TeamDesk, type TeamRoom } from './teamDesks';

const ORG = 'one-read-org';
const ADA_TOKEN = 'one-read-ada-5c2e';
const CHIDI_TOKEN = 'one-read-chidi-9d41';
const ROWS = 150;
/** The most entries one page of the log carries (the client asks for this many). */
const PER_PAGE = 100;

let cluster: PostgresCluster;
let sandbox: SandboxHandle;
let proxy: LatencyProxy;
let room: TeamRoom;
let ada: TeamDesk;
let bola: TeamDesk;
let chidi: TeamDesk;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-one-read-'));

async function desk(name: string, token: string): Promise<TeamDesk> {
  const d = cliDesk(root, name, { baseUrl: proxy.url, token });
  const app = await createApp({ dataDir: d.dataDir, shell: 'test', connection: { baseUrl: proxy.url, token, kind: 'live' } });
  app.settings.set('bulk.settings', { ...QUICK_CLI_JOBS, batchSize: 25 });
  await app.close();
  return d;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startSandbox({ port: 0, bearers: { [ADA_TOKEN]: ORG, [CHIDI_TOKEN]: ORG }, quiet: true });
  proxy = await startLatencyProxy(sandbox.url, 0);
  ada = await desk('ada', ADA_TOKEN);
  bola = await desk('bola', ADA_TOKEN);
  chidi = await desk('chidi', CHIDI_TOKEN);
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword);
  await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  await joinAsNewLogin(room, bola, ['vendesk_approver']);
  await joinAsNewLogin(room, chidi, ['vendesk_preparer']);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await closeTeamRoom(root, cluster, sandbox);
});

describe('rows another desktop sent, settled on resume', () => {
  it('settles every row from one paged read of the log, each with the entry the service logged for it', async () => {
    const sheet = writeCsv(ada.dataDir, 'payroll.csv', airtimeRows(ROWS, 100, 7000));
    const submitted = await ada.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes', '--confirm-total', String(ROWS * 100)]);
    expect(submitted.code, submitted.stdout + submitted.stderr).toBe(4);
    const [, adaJob, teamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(submitted.stdout).error.message) ?? [];
    expect((await bola.run(['approve', teamJob])).code).toBe(0);

    const adopted = await chidi.run(['bulk', 'adopt', teamJob]);
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(0);
    expect(JSON.parse(adopted.stdout)).toMatchObject({ items: ROWS, success: ROWS, uncertain: 0 });

    const wallet = await sandboxWalletKobo({ sandbox, token: ADA_TOKEN });
    const from = proxy.exchanges.length;
    const resumed = await ada.run(['bulk', 'resume', adaJob]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ items: ROWS, success: ROWS, uncertain: 0, rejected: 0 });

    // What the service saw of ada's resume: no purchase, and log reads bounded by the pages the window needs.
    const asked = proxy.exchanges.slice(from).map((e) => new URL(e.url, 'http://x').pathname);
    expect(asked.filter((p) => /^\/purchase/i.test(p))).toEqual([]);
    expect(await sandboxWalletKobo({ sandbox, token: ADA_TOKEN })).toBe(wallet);
    const log = await allLogEntries(sandbox.url, ADA_TOKEN);
    const airtime = log.filter((e) => e.type === 'AIRTIME');
    expect(airtime).toHaveLength(ROWS);
    const logReads = asked.filter((p) => p === '/logEntries').length;
    expect(logReads).toBeGreaterThan(0);
    expect(logReads).toBeLessThanOrEqual(Math.ceil(airtime.length / PER_PAGE));

    // Each row took the entry the service logged for its phone, and no entry settled two rows.
    const byPhone = new Map(airtime.map((e) => [e.phone_number, e]));
    const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: proxy.url, token: ADA_TOKEN, kind: 'live' } });
    try {
      const items = app.db.prepare('SELECT phone, amount_kobo, reference, state, settled_by FROM bulk_items WHERE job_id = ? ORDER BY seq').all(adaJob) as {
        phone: string;
        amount_kobo: number;
        reference: string;
        state: string;
        settled_by: string;
      }[];
      expect(items).toHaveLength(ROWS);
      for (const item of items) {
        const entry = byPhone.get(item.phone);
        expect(entry, item.phone).toBeDefined();
        expect({ reference: item.reference, state: item.state, settledBy: item.settled_by, amountKobo: item.amount_kobo }).toEqual({
          reference: entry?.transaction_id,
          state: 'success',
          settledBy: 'log: sent by another team desktop',
          amountKobo: 10_000,
        });
      }
      expect(new Set(items.map((i) => i.reference)).size).toBe(ROWS);
    } finally {
      await app.close();
    }
  }, 300_000);
});
