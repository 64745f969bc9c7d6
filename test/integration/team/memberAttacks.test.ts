/**
 * Issue 37 against a real PostgreSQL 15 (team schema 7): what a member with psql and their own
 * password could still do. Each attack is performed through raw SQL over TCP as the member's own
 * login — two preparers (ada, dayo), two approvers (bola, eze), an admin (chidi), each with their
 * own desktop — and is refused by the database, or, where only the trail can show it, reported by
 * `audit verify`:
 * - a claim made inside a transaction opened before the approval expired (item 2);
 * - another member's approved file hash copied into a small job of one's own (item 3);
 * - one claim of someone else's approved job, then finishing it (item 4);
 * - settling another member's claim; a login outside the team listening on the change channel; a
 *   reconcile summary naming another run; a desktop named like another member's (item 5);
 * - control characters in desktop names, file names, notes and items (the database half of item 1).
 * Beside each, the legitimate flow still works. The CLI part joins two desktops without a name
 * (the computer's name, then "<name> (role)") and shows the new refusals as sentences.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTrailAndState } from '../../../src/main/team/auditTrail';
import { teamError } from '../../../src/main/team/teamErrors';
import { migrateTeamSchema } from '../../../src/main/team/teamMigrations';
import { teamSetupProblems } from '../../../src/main/team/teamSetup';
import { withUnseenShown, withUnseenShownIn } from '../../../src/main/team/teamText';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { approveRaw, claimRaw, joinDesk, prepareRaw, rowsOf, signInAsNewMember, storedItems, type Desk, type RawItem } from '../../support/teamJobs';
import { until } from '../../support/until';
import { startCliPeer, type CliPeer } from '../cli/cliHarness';

const ESC = '\x1b';
/** Any control character or invisible formatting mark a message could carry to a terminal. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

let cluster: PostgresCluster;
const clients: pg.Client[] = [];
const pw: Record<string, string> = {};
let ada: pg.Client; // preparer
let dayo: pg.Client; // preparer
let bola: pg.Client; // approver
let eze: pg.Client; // approver
let chidi: pg.Client; // admin
const desk: Record<string, Desk> = {
  ada: { id: 'desk-ada', name: "Ada's PC" },
  dayo: { id: 'desk-dayo', name: 'Dayo PC' },
  bola: { id: 'desk-bola', name: 'Bola PC' },
  eze: { id: 'desk-eze', name: 'Eze PC' },
  chidi: { id: 'desk-chidi', name: 'Chidi PC' },
};

async function login(name: string, roles: string[]): Promise<pg.Client> {
  const member = await signInAsNewMember(cluster, name, roles, desk[name]);
  pw[name] = member.password;
  clients.push(member.client);
  return member.client;
}

const approve = (client: pg.Client, who: string, jobId: string) => approveRaw(client, desk[who], jobId);

async function setting(key: string, value: number | null): Promise<void> {
  await chidi.query('SELECT vendesk.set_team_setting($1, $2, $3, $4)', [key, JSON.stringify(value), desk.chidi.id, desk.chidi.name]);
}

/** The refusal a call gets, or null when it was accepted. */
function refusalOf(attempt: Promise<unknown>): Promise<(Error & { code?: string; constraint?: string }) | null> {
  return attempt.then(
    () => null,
    (e: Error) => e,
  );
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return (await cluster.superQuery<{ n: number }>(sql, params)).rows[0].n;
}

/** What `audit verify` reports about one job (the code behind it, as a member reads it). */
async function verifiedJob(jobId: string) {
  const v = await verifyTrailAndState(bola);
  return { chainIntact: v.chainIntact, problems: v.unrecorded.filter((u) => u.jobId === jobId) };
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const setup = new pg.Client(cluster.config());
  await setup.connect();
  clients.push(setup);
  await migrateTeamSchema(setup);
  ada = await login('ada', ['vendesk_preparer']);
  dayo = await login('dayo', ['vendesk_preparer']);
  bola = await login('bola', ['vendesk_approver']);
  eze = await login('eze', ['vendesk_approver']);
  chidi = await login('chidi', ['vendesk_admin']);
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await cluster?.stop();
});

describe('item 2: an approval expires by the clock', () => {
  it('refuses a claim made inside a transaction opened before the approval expired', async () => {
    await setting('approval_valid_minutes', 1);
    try {
      const job = await prepareRaw(ada, desk.ada, { items: rowsOf(2, 10_000, 8040000001) });
      await approve(bola, 'bola', job.id);
      await ada.query('BEGIN');
      try {
        const start = (await ada.query<{ t: string }>('SELECT now()::text AS t')).rows[0].t;
        // The superuser dates the approval so that it expires half a second after ada's transaction began.
        await cluster.forge(`UPDATE vendesk.approvals SET decided_at = $1::timestamptz - interval '1 minute' + interval '500 milliseconds' WHERE job_id = $2`, [start, job.id]);
        const expired = "SELECT clock_timestamp() > max(decided_at) + interval '1 minute' AS past FROM vendesk.approvals WHERE job_id = $1";
        await until(async () => (await cluster.superQuery<{ past: boolean }>(expired, [job.id])).rows[0].past, 'the approval to expire');
        // The transaction's start is still before the expiry: what schema 4's check compared.
        const started = await ada.query("SELECT now() < (SELECT max(decided_at) + interval '1 minute' FROM vendesk.approvals WHERE job_id = $1) AS before", [job.id]);
        expect(started.rows[0].before).toBe(true);
        const refused = await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-late-2'));
        expect(refused?.message).toMatch(/^The approval of job .* expired at .* \(approvals are valid for 1 minutes\): nothing more is sent under it; prepare it again$/);
        expect(teamError(refused, 'claim')).toMatchObject({ code: 'team_job_state', message: expect.stringMatching(/^The approval of job .* expired at/) });
      } finally {
        await ada.query('ROLLBACK');
      }
      expect(await count('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [job.id])).toBe(0);
      expect(await count("SELECT count(*)::int AS n FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'send'", [job.id])).toBe(0);
    } finally {
      await setting('approval_valid_minutes', null);
    }
  });

  it('has audit verify report a send row written after its approval expired', async () => {
    await setting('approval_valid_minutes', 1);
    try {
      const job = await prepareRaw(ada, desk.ada, { items: rowsOf(2, 10_000, 8040100001) });
      await approve(bola, 'bola', job.id);
      expect((await claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-intime-2')).request_ref).toBe('ref-intime-2');
      expect(await verifiedJob(job.id)).toEqual({ chainIntact: true, problems: [] });
      // The superuser moves the approval back two minutes (triggers off): the send row now comes after its expiry.
      await cluster.forge(`UPDATE vendesk.approvals SET decided_at = decided_at - interval '2 minutes' WHERE job_id = $1`, [job.id]);
      expect(await verifiedJob(job.id)).toEqual({
        chainIntact: true,
        problems: [
          {
            code: 'send_after_expiry',
            jobId: job.id,
            item: 2,
            message: expect.stringMatching(
              new RegExp(`^Job ${job.id}, row 2: sent at .* \\(audit row \\d+\\), after its approval expired at .* \\(approvals were valid for 1 minute\\(s\\) then\\)`),
            ),
          },
        ],
      });
    } finally {
      await setting('approval_valid_minutes', null);
    }
  });
});

describe('item 3: claims are scoped by content, not by a copied file hash', () => {
  it("keeps another member's approved rows from looking sent, and still finds the same row's identical item sent", async () => {
    const sha = 'd'.repeat(64);
    const payroll: RawItem[] = rowsOf(3, 50_000, 8041000001);
    const real = await prepareRaw(ada, desk.ada, { items: payroll, sha, fileName: 'november payroll.xlsx' });
    await approve(bola, 'bola', real.id);
    // dayo reads the approved job's file hash (any member may) and copies it into a small job of her own.
    const seen = await dayo.query<{ file_sha256: string }>('SELECT file_sha256 FROM vendesk.jobs WHERE id = $1', [real.id]);
    expect(seen.rows[0].file_sha256).toBe(sha);
    const copy = await prepareRaw(dayo, desk.dayo, { items: rowsOf(3, 100, 8049000001), sha: seen.rows[0].file_sha256, fileName: 'my airtime.xlsx' });
    await approve(eze, 'eze', copy.id);
    for (const row of [2, 3, 4]) expect(await claimRaw(dayo, desk.dayo, copy.id, row, 100, `ref-copy-${row}`)).toMatchObject({ job_id: copy.id, claimed_by: 'dayo' });
    // ada's job sends its three rows: none is "already sent by team job …" of dayo's.
    for (const row of [2, 3, 4]) {
      expect(await claimRaw(ada, desk.ada, real.id, row, 50_000, `ref-real-${row}`)).toMatchObject({ job_id: real.id, request_ref: `ref-real-${row}`, claimed_by: 'ada' });
    }
    // A second job from the same spreadsheet: its row 3, the identical item, is found sent by ada's job; its own row 9 is its own.
    const again = await prepareRaw(dayo, desk.dayo, { items: [payroll[1], { row: 9, phone: '08049000009', amountKobo: 100 }], sha });
    await approve(eze, 'eze', again.id);
    expect(await claimRaw(dayo, desk.dayo, again.id, 3, 50_000, 'ref-again-3')).toMatchObject({ job_id: real.id, request_ref: 'ref-real-3' });
    expect(await claimRaw(dayo, desk.dayo, again.id, 9, 100, 'ref-again-9')).toMatchObject({ job_id: again.id, request_ref: 'ref-again-9' });
    const claims = await cluster.superQuery<{ job: string; n: number }>(
      'SELECT job_id::text AS job, count(*)::int AS n FROM vendesk.item_claims WHERE job_id = ANY($1::uuid[]) GROUP BY 1',
      [[real.id, copy.id, again.id]],
    );
    expect(Object.fromEntries(claims.rows.map((r) => [r.job, r.n]))).toEqual({ [real.id]: 3, [copy.id]: 3, [again.id]: 1 });
  });
});

describe('item 4: a claim alone does not make a desktop the one running a job', () => {
  it("refuses to let a member who claimed one row finish someone else's job; an adopting desktop finishes it once every row is sent", async () => {
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(3, 10_000, 8043000001) });
    await approve(bola, 'bola', job.id);
    const finish = (client: pg.Client, who: string) => client.query('SELECT * FROM vendesk.finish_job($1, $2, $3)', [job.id, desk[who].id, desk[who].name]);
    // dayo claims row 2 of ada's approved job, sends nothing, and finishes it.
    await claimRaw(dayo, desk.dayo, job.id, 2, 10_000, 'ref-d-2');
    const refused = await refusalOf(finish(dayo, 'dayo'));
    expect(refused?.message).toMatch(
      /^Only the preparer of job .* \(ada\), an admin, or a desktop that adopted the job to run it may finish it: holding a claim on one of its rows is not enough$/,
    );
    expect(teamError(refused, 'finish')).toMatchObject({ code: 'team_refused', hint: expect.stringMatching(/nothing is lost meanwhile/) });
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [job.id])).rows[0].state).toBe('running');
    // Adopting it (an adopt row) does not let her cut it short: rows 3 and 4 have been sent by no desktop.
    await dayo.query('SELECT vendesk.adopt_job($1, $2, $3)', [job.id, desk.dayo.id, desk.dayo.name]);
    expect((await refusalOf(finish(dayo, 'dayo')))?.message).toMatch(
      /^2 row\(s\) of job .* have not been sent by any desktop: only its preparer \(ada\) or an admin may finish it before they are$/,
    );
    // The owner's resume still sends what is left; once every row is claimed, the desktop that adopted it finishes it.
    expect(await claimRaw(ada, desk.ada, job.id, 3, 10_000, 'ref-a-3')).toMatchObject({ claimed_by: 'ada', request_ref: 'ref-a-3' });
    await claimRaw(dayo, desk.dayo, job.id, 4, 10_000, 'ref-d-4');
    expect((await finish(dayo, 'dayo')).rows[0].state).toBe('finished');
    const rows = await cluster.superQuery("SELECT action, actor, desktop_name FROM vendesk.audit_trail WHERE job_id = $1 AND action IN ('adopt', 'finish') ORDER BY seq", [job.id]);
    expect(rows.rows).toEqual([
      { action: 'adopt', actor: 'dayo', desktop_name: 'Dayo PC' },
      { action: 'finish', actor: 'dayo', desktop_name: 'Dayo PC' },
    ]);
    expect(await verifiedJob(job.id)).toEqual({ chainIntact: true, problems: [] });
  });

  it('adopts only an approved bulk job whose preparer stored how to run it, from one’s own desktop; a forged adoption is reported', async () => {
    const waiting = await prepareRaw(ada, desk.ada, { items: rowsOf(1, 10_000, 8043100001) });
    expect((await refusalOf(dayo.query('SELECT vendesk.adopt_job($1, $2, $3)', [waiting.id, desk.dayo.id, desk.dayo.name])))?.message).toMatch(
      /is awaiting_approval: only an approved job is run on another desktop/,
    );
    await approve(bola, 'bola', waiting.id);
    expect((await refusalOf(dayo.query('SELECT vendesk.adopt_job($1, $2, $3)', [waiting.id, desk.ada.id, desk.ada.name])))?.message).toMatch(/not registered to dayo/);
    const purchase = { kind: 'airtime', account: '08043200001', phone: '08043200001', amountKobo: 450_000, description: 'MTN airtime', customerName: null };
    const item = { rowNumber: 1, phone: '08043200001', account: '08043200001', network: 'airtime', productCode: 'MTN airtime', amountKobo: 450_000 };
    const single = (
      await ada.query('SELECT * FROM vendesk.prepare_single_job($1, $2, $3, NULL, $4, $5)', [
        desk.ada.id,
        desk.ada.name,
        'MTN airtime',
        JSON.stringify({ kind: 'airtime', rows: [], moreRows: 0, purchase }),
        JSON.stringify(item),
      ])
    ).rows[0] as { id: string };
    await approve(bola, 'bola', single.id);
    expect((await refusalOf(dayo.query('SELECT vendesk.adopt_job($1, $2, $3)', [single.id, desk.dayo.id, desk.dayo.name])))?.message).toMatch(
      /runs only on its preparer's desktop/,
    );
    expect(await count('SELECT count(*)::int AS n FROM vendesk.job_runners WHERE job_id = ANY($1::uuid[])', [[waiting.id, single.id]])).toBe(0);
    await expect(dayo.query("INSERT INTO vendesk.job_runners (job_id, desktop_id, role) VALUES ($1, 'desk-dayo', 'dayo')", [waiting.id])).rejects.toThrow(/permission denied/);
    // A runner written around the functions (by the superuser) has no adopt row: audit verify names it.
    await cluster.superQuery("INSERT INTO vendesk.job_runners (job_id, desktop_id, role) VALUES ($1, 'desk-eze', 'eze')", [waiting.id]);
    expect((await verifiedJob(waiting.id)).problems).toEqual([
      expect.objectContaining({
        code: 'state_unrecorded',
        message: expect.stringMatching(/shows it adopted by a desktop of eze \(desk-eze\), and the audit trail holds no adopt row/),
      }),
    ]);
  });
});

describe("item 5: another member's claim, the change channel, a reconcile summary, a look-alike desktop name", () => {
  it('lets only the member who claimed a row, or an admin, settle it', async () => {
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(2, 10_000, 8044000001) });
    await approve(bola, 'bola', job.id);
    await claimRaw(dayo, desk.dayo, job.id, 2, 10_000, 'ref-d-2');
    await claimRaw(dayo, desk.dayo, job.id, 3, 10_000, 'ref-d-3');
    // dayo never sent row 2; ada (its preparer) settles it as succeeded.
    const refused = await refusalOf(ada.query(`SELECT vendesk.settle_item($1, 2, 'succeeded', $2, $3)`, [job.id, desk.ada.id, desk.ada.name]));
    expect(refused?.message).toMatch(/^Row 2 of job .* was claimed by dayo: only the member who claimed it, or an admin, settles it$/);
    expect(teamError(refused, 'settle')).toMatchObject({ code: 'team_refused', hint: expect.stringMatching(/The desktop that claimed the row settles it/) });
    await expect(bola.query(`SELECT vendesk.settle_item($1, 2, 'succeeded', $2, $3)`, [job.id, desk.bola.id, desk.bola.name])).rejects.toThrow(/was claimed by dayo/);
    expect((await cluster.superQuery('SELECT outcome FROM vendesk.item_claims WHERE job_id = $1 AND item_index = 2', [job.id])).rows[0].outcome).toBe('claimed');
    expect(await count("SELECT count(*)::int AS n FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'settle'", [job.id])).toBe(0);
    // Its claimer settles it; an admin may settle another's.
    expect((await dayo.query(`SELECT * FROM vendesk.settle_item($1, 2, 'failed', $2, $3)`, [job.id, desk.dayo.id, desk.dayo.name])).rows[0].outcome).toBe('failed');
    expect((await chidi.query(`SELECT * FROM vendesk.settle_item($1, 3, 'failed', $2, $3)`, [job.id, desk.chidi.id, desk.chidi.name])).rows[0].outcome).toBe('failed');
    const settled = await cluster.superQuery("SELECT actor FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'settle' ORDER BY seq", [job.id]);
    expect(settled.rows).toEqual([{ actor: 'dayo' }, { actor: 'chidi' }]);
  });

  it('admits only team members to the database; team doctor names a database any login may connect to, with the SQL that closes it', async () => {
    const olu = await cluster.createLogin('olu');
    const outsider = new pg.Client(cluster.config('olu', olu));
    const refused = await refusalOf(outsider.connect());
    expect(refused?.message).toMatch(/permission denied for database/);
    const said = teamError(refused, 'read');
    expect(said).toMatchObject({ code: 'team_not_member', hint: expect.stringMatching(/GRANT vendesk_preparer TO/) });
    expect(`${said.message} ${said.hint}`).not.toContain(olu);
    expect((await teamSetupProblems(bola)).filter((p) => p.kind === 'public_connect')).toEqual([]);
    // CONNECT given back to PUBLIC: the outsider hears every change of the team and can send on its channel.
    await cluster.superQuery('GRANT CONNECT ON DATABASE postgres TO PUBLIC');
    try {
      const open = (await teamSetupProblems(bola)).find((p) => p.kind === 'public_connect');
      expect(open).toEqual({
        role: 'PUBLIC',
        kind: 'public_connect',
        message: expect.stringMatching(/^Any login on this server may connect to the database postgres \(CONNECT is granted to PUBLIC\)/),
        fix: "REVOKE CONNECT ON DATABASE postgres FROM PUBLIC; GRANT CONNECT ON DATABASE postgres TO vendesk_member;  -- as the database's owner or a superuser",
      });
      const listener = new pg.Client(cluster.config('olu', olu));
      await listener.connect();
      try {
        await listener.query('LISTEN vendesk_team_changed');
        const heard = new Promise<string>((resolve) => listener.on('notification', (n) => resolve(n.channel)));
        await joinDesk(ada, desk.ada);
        expect(await heard).toBe('vendesk_team_changed');
        await listener.query("NOTIFY vendesk_team_changed, 'jobs'");
      } finally {
        await listener.end();
      }
      // The fix as doctor says it.
      await cluster.superQuery(open!.fix.split('--')[0]);
    } finally {
      await cluster.superQuery('REVOKE CONNECT ON DATABASE postgres FROM PUBLIC');
    }
    expect((await teamSetupProblems(bola)).filter((p) => p.kind === 'public_connect')).toEqual([]);
    await expect(new pg.Client(cluster.config('olu', olu)).connect()).rejects.toThrow(/permission denied for database/);
    // Members still connect and listen.
    const member = new pg.Client(cluster.config('eze', pw.eze));
    await member.connect();
    await member.query('LISTEN vendesk_team_changed');
    await member.end();
  });

  it('writes the run id, period and amount of a reconcile run into its audit row, whatever its summary says', async () => {
    const forgedRun = '00000000-0000-4000-8000-000000000000';
    const summary = { runId: forgedRun, from: '1999-01-01', to: '1999-01-02', amountKobo: 12_300, file: 'export.csv' };
    const r = await ada.query<{ id: string }>('SELECT vendesk.record_reconcile_run($1, $2, $3, $4, $5) AS id', [
      desk.ada.id,
      desk.ada.name,
      '2026-11-01T00:00:00Z',
      '2026-11-02T00:00:00Z',
      JSON.stringify(summary),
    ]);
    const runId = r.rows[0].id;
    expect(runId).not.toBe(forgedRun);
    const row = await cluster.superQuery<{ detail: string; amount: number }>(
      "SELECT detail, amount_kobo::int AS amount FROM vendesk.audit_trail WHERE action = 'reconcile' AND actor = 'ada' ORDER BY seq DESC LIMIT 1",
    );
    const detail = JSON.parse(row.rows[0].detail) as Record<string, unknown>;
    expect(detail).toMatchObject({ runId, file: 'export.csv', amountKobo: 12_300 });
    expect([new Date(String(detail.from)).toISOString(), new Date(String(detail.to)).toISOString()]).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z']);
    expect(row.rows[0].amount).toBe(12_300);
    await expect(ada.query('SELECT vendesk.record_reconcile_run($1, $2, now(), now(), $3)', [desk.ada.id, desk.ada.name, JSON.stringify([{ runId: forgedRun }])])).rejects.toThrow(
      /summary is an object/,
    );
  });

  it("refuses a desktop named like another member's, regardless of case, spacing and look-alike letters; one's own name may be reused", async () => {
    for (const name of ["ada's pc", 'Ada’s PC', "ADA'S   PC", "\u0410da's PC", "Ａda's PC"]) {
      const refused = await refusalOf(dayo.query('SELECT vendesk.record_join($1, $2)', ['desk-dayo-2', name]));
      expect(refused?.message, name).toMatch(/^The desktop name “.*” is taken in this team: a desktop of ada has that name \(names are compared regardless of case/);
      expect(teamError(refused, 'record')).toMatchObject({ code: 'team_desktop_name_taken', hint: expect.stringMatching(/--desktop-name/) });
    }
    // Renaming her registered desktop so is refused too.
    await expect(dayo.query('SELECT vendesk.record_join($1, $2)', [desk.dayo.id, "ADA's pc"])).rejects.toThrow(/is taken in this team/);
    const dayos = await cluster.superQuery("SELECT desktop_id, desktop_name FROM vendesk.desktops WHERE role = 'dayo' ORDER BY desktop_id");
    expect(dayos.rows).toEqual([{ desktop_id: 'desk-dayo', desktop_name: 'Dayo PC' }]);
    // ada's second desktop may carry her own desktop's name; dayo's may carry any other.
    await ada.query('SELECT vendesk.record_join($1, $2)', ['desk-ada-laptop', "ADA'S PC"]);
    await dayo.query('SELECT vendesk.record_join($1, $2)', ['desk-dayo-2', 'Dayo laptop']);
    // Even the owner cannot give a member's desktop another member's name.
    await expect(cluster.superQuery("UPDATE vendesk.desktops SET desktop_name = 'Ada''s PC' WHERE desktop_id = 'desk-dayo-2'")).rejects.toThrow(/is taken in this team/);
  });
});

describe('item 1, the database half: text that does not read as written', () => {
  const osc8 = `${ESC}]8;;https://pay.example/${ESC}\\Payroll${ESC}]8;;${ESC}\\`;

  it('refuses desktop names and ids carrying escape codes, carriage returns, direction overrides and invisible marks', async () => {
    for (const [name, code] of [
      [`Ada${ESC}[0m\rApproved by chidi`, 'U+001B'],
      [osc8, 'U+001B'],
      ['Chidi\u202eCP', 'U+202E'],
      ['Bola\u200bPC', 'U+200B'],
      ['PC\u009b31m', 'U+009B'],
      ['Line\nbreak PC', 'U+000A'],
    ]) {
      const refused = await refusalOf(dayo.query('SELECT vendesk.record_join($1, $2)', ['desk-evil', name]));
      expect(refused?.message, JSON.stringify(name)).toMatch(new RegExp(`^The desktop name holds ${code.replace('+', '\\+')} \\(.+\\), which is not shown as what it is`));
      const said = teamError(refused, 'record');
      expect(said).toMatchObject({ code: 'team_control_characters', hint: expect.stringMatching(/Choose a name for this desktop without it/) });
      expect(`${said.message} ${said.hint}`).not.toMatch(RAW);
    }
    await expect(dayo.query('SELECT vendesk.record_join($1, $2)', [`desk${ESC}[2J`, 'Dayo tablet'])).rejects.toThrow(/The desktop id holds U\+001B/);
    expect(await count("SELECT count(*)::int AS n FROM vendesk.desktops WHERE desktop_id LIKE 'desk-evil%' OR desktop_name = 'Dayo tablet'")).toBe(0);
  });

  it('refuses file names, items and the purchase shown carrying them, naming the row and field; no job is written', async () => {
    const before = await count('SELECT count(*)::int AS n FROM vendesk.jobs');
    const clean: RawItem[] = rowsOf(2, 10_000, 8045000001);
    const withField = (row: number, field: string, value: string) => JSON.stringify(storedItems(clean).map((i) => (i.rowNumber === row ? { ...i, [field]: value } : i)));
    const prepareItems = (items: string, fileName = 'payroll.xlsx') =>
      ada.query('SELECT * FROM vendesk.prepare_bulk_job($1, $2, $3, $4, NULL, false, 2, 20000, NULL, $5, $6, $7)', [
        desk.ada.id,
        desk.ada.name,
        'local-x',
        fileName,
        JSON.stringify({ kind: 'airtime', rows: [], moreRows: 2 }),
        JSON.stringify({ bulkKind: 'airtime' }),
        items,
      ]);
    const file = await refusalOf(prepareItems(JSON.stringify(storedItems(clean)), `payroll${ESC}[2K\r.xlsx`));
    expect(file?.message).toMatch(/^The file name holds U\+001B \(an escape, which starts a terminal code\)/);
    const said = teamError(file, 'prepare');
    expect(said).toMatchObject({ code: 'team_control_characters', hint: expect.stringMatching(/Correct that cell of the spreadsheet \(or rename the file\)/) });
    expect(`${said.message} ${said.hint}`).not.toMatch(RAW);
    expect((await refusalOf(prepareItems(withField(3, 'name', 'Ngozi\nApproved by chidi'))))?.message).toMatch(/^Row 3 \(its name\) holds U\+000A \(a line break\)/);
    expect((await refusalOf(prepareItems(withField(2, 'note', osc8))))?.message).toMatch(/^Row 2 \(its note\) holds U\+001B/);
    expect((await refusalOf(prepareItems(withField(2, 'productCode', 'MTN\u202e1GB'))))?.message).toMatch(/^Row 2 \(its productCode\) holds U\+202E \(a text direction mark\)/);
    expect((await refusalOf(prepareItems(withField(3, 'phone', `0803${ESC}[8m1234567`))))?.message).toMatch(/^Row 3 \(its phone\) holds U\+001B/);
    expect((await refusalOf(prepareItems(withField(3, `note${ESC}[1m`, 'x'))))?.message).toMatch(/^Row 3 \(the name of one of its fields\) holds U\+001B/);
    const purchase = { kind: 'airtime', account: '08045100001', phone: '08045100001', amountKobo: 450_000, description: 'MTN airtime', customerName: `Ngozi${ESC}[1A` };
    const item = { rowNumber: 1, phone: '08045100001', account: '08045100001', network: 'airtime', productCode: 'MTN airtime', amountKobo: 450_000 };
    const single = await refusalOf(
      ada.query('SELECT * FROM vendesk.prepare_single_job($1, $2, $3, NULL, $4, $5)', [
        desk.ada.id,
        desk.ada.name,
        'MTN airtime',
        JSON.stringify({ kind: 'airtime', rows: [], moreRows: 0, purchase }),
        JSON.stringify(item),
      ]),
    );
    expect(single?.message).toMatch(/^The purchase the approver is shown \(its customerName\) holds U\+001B/);
    expect(await count('SELECT count(*)::int AS n FROM vendesk.jobs')).toBe(before);
    // Without them it is prepared — names with accents, curly quotes and backslashes (as written: "\n" here is two characters) included.
    const named = withField(2, 'name', 'Adébáyọ̀ O’Neil "Jr", C:\\new\\tab');
    expect((await prepareItems(named, 'Payroll – Ìbàdàn.xlsx')).rows[0]).toMatchObject({ state: 'awaiting_approval', file_name: 'Payroll – Ìbàdàn.xlsx' });
  });

  it('refuses notes carrying them (a line break is a note’s own), and a claimed item carrying them', async () => {
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(2, 10_000, 8046000001) });
    const decide = (note: string) => bola.query(`SELECT * FROM vendesk.decide_job($1, 'approved', $2, $3, $4)`, [job.id, note, desk.bola.id, desk.bola.name]);
    const refused = await refusalOf(decide(`Checked${ESC}[8m hidden`));
    expect(refused?.message).toMatch(/^The note holds U\+001B/);
    expect(teamError(refused, 'approve')).toMatchObject({ code: 'team_control_characters', hint: expect.stringMatching(/line breaks are fine/) });
    await expect(decide('Checked\rApproved by chidi')).rejects.toThrow(/The note holds U\+000D \(a carriage return\)/);
    expect((await decide('Checked against\nthe HR list')).rows[0].state).toBe('approved');
    const [row2] = storedItems(rowsOf(2, 10_000, 8046000001));
    await expect(claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-esc', { ...row2, name: `Ngozi${ESC}]8;;x${ESC}\\` })).rejects.toThrow(
      /^The item claimed \(its name\) holds U\+001B/,
    );
    expect(await count('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [job.id])).toBe(0);
    const run = (await ada.query<{ id: string }>(`SELECT vendesk.record_reconcile_run($1, $2, now(), now(), '{"file":"x.csv"}') AS id`, [desk.ada.id, desk.ada.name])).rows[0].id;
    await expect(
      ada.query(`SELECT vendesk.resolve_reconcile_entry($1, 'item 1', 'matched', $2, 100, $3, $4)`, [run, 'Refunded\rNothing owed', desk.ada.id, desk.ada.name]),
    ).rejects.toThrow(/The note holds U\+000D/);
    await expect(
      ada.query(`SELECT vendesk.record_reconcile_run($1, $2, now(), now(), $3)`, [desk.ada.id, desk.ada.name, JSON.stringify({ file: `export${ESC}[2J.csv` })]),
    ).rejects.toThrow(/The reconcile run's summary \(its file\) holds U\+001B/);
  });

  it("sends what vendesk's own audit rows hold with such characters written as codes, which the database takes; vendesk's set is the database's", async () => {
    const summary = withUnseenShownIn({ file: `export${ESC}[2J\u202e.csv`, totals: { [`k${ESC}`]: 1 } });
    expect(summary).toEqual({ file: 'export\\u{1b}[2J\\u{202e}.csv', totals: { 'k\\u{1b}': 1 } });
    await ada.query(`SELECT vendesk.record_reconcile_run($1, $2, now(), now(), $3)`, [desk.ada.id, desk.ada.name, JSON.stringify(summary)]);
    expect(withUnseenShown('Refunded\r\nNothing owed', { lineBreaks: true })).toBe('Refunded\\u{d}\nNothing owed');
    // Every character of the Basic Multilingual Plane and the tags block, asked of the database at once.
    const chars: string[] = [];
    for (let cp = 1; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
    for (let cp = 0xe0000; cp <= 0xe0080; cp++) chars.push(String.fromCodePoint(cp));
    const r = await cluster.superQuery<{ s: string; unseen: boolean }>('SELECT s, vendesk.unseen_character(s, false) IS NOT NULL AS unseen FROM unnest($1::text[]) AS s', [chars]);
    const differ = r.rows.filter((row) => (withUnseenShown(row.s) !== row.s) !== row.unseen).map((row) => row.s.codePointAt(0)!.toString(16));
    expect(differ).toEqual([]);
    expect(r.rows.filter((row) => row.unseen).length).toBeGreaterThan(200);
  });
});

describe('the command line', () => {
  let kemi: CliPeer;
  let tunde: CliPeer;
  const url = (user: string) => `postgres://${user}@127.0.0.1:${cluster.port}/postgres`;
  const passwordFile = (peer: CliPeer, user: string) => {
    const file = path.join(peer.dir, `${user}.pw`);
    fs.writeFileSync(file, `${pw[user]}\n`, { mode: 0o600 });
    return file;
  };

  beforeAll(async () => {
    kemi = await startCliPeer('member-attacks-kemi');
    tunde = await startCliPeer('member-attacks-tunde');
    pw.kemi = await cluster.createLogin('kemi', ['vendesk_preparer']);
    pw.tunde = await cluster.createLogin('tunde', ['vendesk_approver']);
  }, 120_000);

  afterAll(async () => {
    await kemi?.close();
    await tunde?.close();
  });

  it("names a desktop after the computer, or '<computer> (role)' when another member's desktop has that name; a name chosen so is refused in words", async () => {
    const first = await kemi.json<{ desktopName: string }>(['team', 'join', '--url', url('kemi'), '--password-file', passwordFile(kemi, 'kemi')]);
    expect(first.desktopName).toBe(os.hostname());
    const taken = await tunde.run(['team', 'join', '--url', url('tunde'), '--password-file', passwordFile(tunde, 'tunde'), '--desktop-name', 'ADA’S pc']);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout).error).toMatchObject({
      code: 'team_desktop_name_taken',
      message: expect.stringMatching(/is taken in this team: a desktop of ada has that name/),
      hint: expect.stringMatching(/--desktop-name/),
    });
    const escaped = await tunde.run(['team', 'join', '--url', url('tunde'), '--password-file', passwordFile(tunde, 'tunde'), '--desktop-name', `Tunde${ESC}[31m PC`]);
    expect(escaped.code).toBe(1);
    expect(JSON.parse(escaped.stdout).error).toMatchObject({ code: 'team_control_characters', message: expect.stringMatching(/^The desktop name holds U\+001B/) });
    for (const r of [taken, escaped]) expect(r.stdout + r.stderr).not.toContain(pw.tunde);
    const second = await tunde.json<{ desktopName: string; joined: boolean }>(['team', 'join', '--url', url('tunde'), '--password-file', passwordFile(tunde, 'tunde')]);
    expect(second).toMatchObject({ joined: true, desktopName: `${os.hostname()} (tunde)` });
    const registered = await cluster.superQuery("SELECT role, desktop_name FROM vendesk.desktops WHERE role IN ('kemi', 'tunde') ORDER BY role");
    expect(registered.rows).toEqual([
      { role: 'kemi', desktop_name: os.hostname() },
      { role: 'tunde', desktop_name: `${os.hostname()} (tunde)` },
    ]);
  });

  it('has audit verify exit 1 naming the send written after its approval expired', async () => {
    const r = await tunde.run(['audit', 'verify']);
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout) as { intact: boolean; breaks: unknown[]; unrecorded: { code: string }[] };
    expect(v.breaks).toEqual([]);
    expect(v.unrecorded.map((u) => u.code)).toContain('send_after_expiry');
    const text = await tunde.run(['audit', 'verify'], 'globals first', { json: false });
    expect(text.stdout).toMatch(/chain is intact[\s\S]*or the trail what the team's rules forbid[\s\S]*after its approval expired[\s\S]*\[send_after_expiry\]/);
  });
});
