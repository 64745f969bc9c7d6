/**
 * Every desktop checks, before it sends, that the rows it is about to buy are the rows approved
 * (issue 23): the digest of its rows against the one the team database computed at prepare time.
 * Attacked twice against a real PostgreSQL and the sandbox (one organisation, LIVE): the preparer's
 * own local job changed after approval (a recipient swapped in its SQLite), and a team job's
 * stored rows changed in PostgreSQL by a superuser with triggers off before another desktop runs
 * it; and an approved single purchase whose kept request changed on the preparer's desktop. Each is refused with `approval_mismatch`, and the service's log shows nothing bought.
 * And a row changed on the desktop after its run checked the digest (once, before the first
 * batch): the team database refuses its claim, since a claim names the item it sends (schema 005).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/main/app';
import { jobParts } from '../../../src/main/buying/jobLifecycle';
import { teamJobs } from '../../../src/main/buying/teamJobs';
import { claimBeforeSend } from '../../../src/main/team/bulkApproval';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import { cliDesk, closeTeamRoom, joinAsNewLogin, joinTeamAs, type TeamDesk, type TeamRoom } from './teamDesks';
import { airtimeRows, mtnPhone, writeCsv } from '../bulk/bulkTestFiles';

const TOKEN = 'digest-check-org-81c4';
let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: SandboxHandle;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-digest-'));
const service = () => ({ sandbox, token: TOKEN });

const desk = (name: string): TeamDesk => cliDesk(root, name, { baseUrl: sandbox.url, token: TOKEN });

/** Submits a sheet on ada's desktop (it waits for approval) and has bola approve it: the local and team job ids. */
async function approvedJob(sheet: string, total: string): Promise<{ localJob: string; teamJob: string }> {
  const r = await ada.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes', '--confirm-total', total]);
  expect(r.code, r.stdout + r.stderr).toBe(4);
  const [, localJob, teamJob] = /Bulk job (\S+) waits for approval by another team member \(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message) ?? [];
  expect((await bola.run(['approve', teamJob])).code).toBe(0);
  return { localJob, teamJob };
}

async function boughtFor(phones: string[]) {
  return (await sandboxLog(service())).filter((e) => phones.includes(e.phone_number));
}

let ada: TeamDesk;
let bola: TeamDesk;
let chidi: TeamDesk;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startSandbox({ port: 0, tokens: [TOKEN], quiet: true });
  ada = desk('ada');
  bola = desk('bola');
  chidi = desk('chidi');
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword);
  await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  await joinAsNewLogin(room, bola, ['vendesk_approver']);
  await joinAsNewLogin(room, chidi, ['vendesk_preparer']);
}, 120_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

describe('a desktop sends only the rows that were approved', () => {
  it("refuses the preparer's resume when a recipient of its local job was swapped after approval", async () => {
    const phones = [0, 1].map((i) => mtnPhone(5100 + i));
    const swapped = mtnPhone(5199);
    const { localJob, teamJob } = await approvedJob(writeCsv(ada.dataDir, 'payroll.csv', airtimeRows(2, 100, 5100)), '200');
    // Same count, same total: only the digest shows the swap.
    const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    try {
      expect(app.db.prepare('UPDATE bulk_items SET phone = ? WHERE job_id = ? AND phone = ?').run(swapped, localJob, phones[1]).changes).toBe(1);
    } finally {
      await app.close();
    }
    const wallet = await sandboxWalletKobo(service());
    const r = await ada.run(['bulk', 'resume', localJob]);
    expect(r.code, r.stdout).toBe(1);
    const error = JSON.parse(r.stdout).error as { code: string; message: string };
    expect(error.code).toBe('approval_mismatch');
    expect(error.message).toMatch(
      new RegExp(`are not the rows that were approved in team job ${teamJob} \\(their digest is [0-9a-f]{12}, the approved one [0-9a-f]{12}\\)\\. Nothing was bought\\.`),
    );
    expect(await boughtFor([...phones, swapped])).toEqual([]);
    expect(await sandboxWalletKobo(service())).toBe(wallet);
    const claims = await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [teamJob]);
    expect(claims.rows[0].n).toBe(0);
  });

  it("refuses purchases resume when the preparer's kept request was changed after approval (same number and amount, another network)", async () => {
    const phone = mtnPhone(5400);
    await cluster.superQuery("UPDATE vendesk.team_settings SET value = '100000' WHERE key = 'single_purchase_approval_kobo'");
    try {
      const held = await ada.run(['buy', 'airtime', '--phone', phone, '--amount', '1500', '--yes']);
      expect(held.code, held.stdout).toBe(4);
      const teamJob = /team job ([0-9a-f-]{36})/.exec(JSON.parse(held.stdout).error.message)?.[1] ?? '';
      expect((await bola.run(['approve', teamJob])).code).toBe(0);
      // The request kept on ada's desktop is changed: the number and amount the waiting job is found by stay.
      const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
      try {
        const row = app.db.prepare('SELECT request FROM team_job_links WHERE team_job_id = ?').get(teamJob) as { request: string };
        const request = { ...(JSON.parse(row.request) as Record<string, unknown>), network: 'Glo' };
        app.db.prepare('UPDATE team_job_links SET request = ? WHERE team_job_id = ?').run(JSON.stringify(request), teamJob);
      } finally {
        await app.close();
      }
      const wallet = await sandboxWalletKobo(service());
      const r = await ada.run(['purchases', 'resume', teamJob]);
      expect(r.code, r.stdout).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'approval_mismatch',
        message: expect.stringMatching(/are not the rows that were approved in team job .*Nothing was bought\./),
      });
      expect(await boughtFor([phone])).toEqual([]);
      expect(await sandboxWalletKobo(service())).toBe(wallet);
    } finally {
      await cluster.superQuery("UPDATE vendesk.team_settings SET value = 'null' WHERE key = 'single_purchase_approval_kobo'");
    }
  });

  it("refuses, in the team database, a row changed on this desktop after its run's digest check: the claim names the item", async () => {
    const phones = [0, 1].map((i) => mtnPhone(5500 + i));
    const swapped = mtnPhone(5599);
    const { localJob, teamJob } = await approvedJob(writeCsv(ada.dataDir, 'arrears.csv', airtimeRows(2, 100, 5500)), '200');
    const app = await createApp({ dataDir: ada.dataDir, shell: 'test', connection: { baseUrl: sandbox.url, token: TOKEN, kind: 'live' } });
    try {
      const store = teamJobs(jobParts(app.db));
      const beforeSend = claimBeforeSend(app, store, store.job(localJob)!, app.client())!;
      const [first, second] = store.items(localJob);
      // The run's first batch: the digest is checked (the rows are the approved ones) and row 2 is claimed.
      expect((await beforeSend([first])).map((i) => i.phone)).toEqual([phones[0]]);
      // Then the second row's recipient is swapped on this desktop, and its batch comes.
      app.db.prepare('UPDATE bulk_items SET phone = ? WHERE job_id = ? AND seq = ?').run(swapped, localJob, second.seq);
      const changed = store.items(localJob).find((i) => i.seq === second.seq)!;
      await expect(beforeSend([changed])).rejects.toMatchObject({
        code: 'approval_mismatch',
        message: `Row ${second.row_number} of job ${teamJob} was approved with phone ${phones[1]}, not ${swapped}: only what was approved is sent.`,
      });
    } finally {
      await app.close();
    }
    const claims = await cluster.superQuery<{ item_index: number }>('SELECT item_index FROM vendesk.item_claims WHERE job_id = $1 ORDER BY item_index', [teamJob]);
    expect(claims.rows.map((c) => c.item_index)).toEqual([2]);
    const sends = await cluster.superQuery<{ detail: string }>("SELECT detail FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'send'", [teamJob]);
    expect(sends.rows.map((r) => (JSON.parse(r.detail) as { phone: string }).phone)).toEqual([phones[0]]);
    expect(await boughtFor([swapped])).toEqual([]);
  });

  it('refuses Run here (bulk adopt) of a job whose stored rows a superuser changed after approval', async () => {
    const phones = [0, 1].map((i) => mtnPhone(5200 + i));
    const swapped = mtnPhone(5299);
    const { teamJob } = await approvedJob(writeCsv(ada.dataDir, 'bonus.csv', airtimeRows(2, 100, 5200)), '200');
    await cluster.superQuery(
      `BEGIN; SET LOCAL session_replication_role = replica;
       UPDATE vendesk.job_items SET item = jsonb_set(item, '{phone}', '"${swapped}"') WHERE job_id = '${teamJob}' AND item->>'phone' = '${phones[0]}';
       COMMIT;`,
    );
    const wallet = await sandboxWalletKobo(service());
    const r = await chidi.run(['bulk', 'adopt', teamJob]);
    expect(r.code, r.stdout).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'approval_mismatch', message: expect.stringMatching(/Nothing was bought\./) });
    expect(await boughtFor([...phones, swapped])).toEqual([]);
    expect(await sandboxWalletKobo(service())).toBe(wallet);
    // Untouched, the same kind of job runs here: the check passes for the rows approved.
    const good = await approvedJob(writeCsv(ada.dataDir, 'bonus 2.csv', airtimeRows(2, 100, 5300)), '200');
    const ran = await chidi.run(['bulk', 'adopt', good.teamJob]);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const bought = await boughtFor([0, 1].map((i) => mtnPhone(5300 + i)));
    expect(bought.map((e) => e.status)).toEqual(['SUCCESS', 'SUCCESS']);
  });
});
