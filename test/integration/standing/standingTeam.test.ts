/**
 * A team's standing orders (issue 40, team schema 8) against a real PostgreSQL 15 and the sandbox
 * over real HTTP, its clock moved month by month. Ada (preparer) makes the orders on her desktop,
 * Bola and Chidi (approvers) on theirs, and a server folder ("srv", a member) runs `vendesk
 * standing run-due` as a child process:
 * - three runners at once — two desktops and the server — buy each occurrence once (the service's
 *   log and wallet say so), its job approved by the standing approval in the database;
 * - a standing approval lets the next run within it through with no new approval; a changed row,
 *   a higher total, an approval past its end and one used up each stop the occurrence, which waits
 *   for an ordinary approval and says why;
 * - attacks over raw SQL as members: the order's maker approving it herself, one approver giving
 *   both approvals above the team's two-approver amount, claiming an occurrence twice, claiming it
 *   with a row that is not the order's, writing an occurrence around the functions — each refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { closeTeamRoom, joinAsNewLogin, joinTeamAs, liveDesk, type LiveDesk, type TeamRoom } from '../team/teamDesks';
import { airtimeRows, allLogEntries, mtnPhone, spawnBulkCli, writeCsv } from '../bulk/bulkTestFiles';
import { moveServiceTo, type AddedOrder, type RunDueJson } from './standingHelpers';

const TOKEN = 'standing-team-ada-5c2e';
let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: TestSandbox;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-standing-team-'));
const pw: Record<string, string> = {};

let ada: LiveDesk;
let bola: LiveDesk;
let chidi: LiveDesk;
let srv: LiveDesk;

const control = () => ({ control: sandbox.control(TOKEN) });

async function boughtPerPhone(phones: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const e of await allLogEntries(sandbox.url, TOKEN)) {
    if (e.status !== 'FAILED' && phones.includes(e.phone_number)) counts.set(e.phone_number, (counts.get(e.phone_number) ?? 0) + 1);
  }
  return counts;
}

function costKobo(entries: { phone_number: string; status: string }[], phones: string[]): number {
  return entries
    .filter((e) => e.status !== 'FAILED' && phones.includes(e.phone_number))
    .reduce((s, e) => s + Math.round((e as unknown as { transaction_cost: number }).transaction_cost * 100), 0);
}

const phonesOf = (count: number, offset: number) => Array.from({ length: count }, (_, i) => mtnPhone(offset + i));

/** Ada makes an order of `count` rows of `naira` from phone `offset`, monthly on `day`. */
async function addOrder(name: string, count: number, naira: number, offset: number, day: number): Promise<string> {
  const file = writeCsv(ada.dir, `${name}.csv`, airtimeRows(count, naira, offset));
  const r = await ada.run(['standing', 'add', file, '--kind', 'airtime', '--name', name, '--monthly-on', String(day), '--yes', '--confirm-total', String(count * naira)]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as AddedOrder).orderId;
}

async function approveStanding(d: LiveDesk, orderId: string, args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  const r = await d.run(['standing', 'approve', orderId, ...args]);
  return { code: r.code, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

async function runDueOn(d: LiveDesk): Promise<{ code: number; report: RunDueJson }> {
  const r = await d.run(['standing', 'run-due']);
  return { code: r.code, report: JSON.parse(r.stdout) as RunDueJson };
}

/** A member's own connection, as psql would make it, and the id of their registered desktop. */
async function asMember(name: string): Promise<{ client: pg.Client; desktopId: string; desktopName: string }> {
  const client = new pg.Client(cluster.config(name, pw[name]));
  await client.connect();
  const d = await client.query<{ desktop_id: string; desktop_name: string }>('SELECT desktop_id, desktop_name FROM vendesk.desktops WHERE role = $1 LIMIT 1', [name]);
  return { client, desktopId: d.rows[0].desktop_id, desktopName: d.rows[0].desktop_name };
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: string; message: string };
    return { code: err.code ?? '', message: err.message };
  }
  throw new Error('the database accepted it');
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startTestSandbox({ tokens: [TOKEN] });
  const desk = (name: string) => liveDesk(root, name, { baseUrl: sandbox.url, token: TOKEN });
  ada = await desk('ada');
  bola = await desk('bola');
  chidi = await desk('chidi');
  srv = await desk('srv');
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword);
  // Ada prepares; she is an approver too, so only the rule "never the order's maker" stops her approving her own orders.
  pw.ada = await joinAsNewLogin(room, ada, ['vendesk_preparer', 'vendesk_approver']);
  pw.bola = await joinAsNewLogin(room, bola, ['vendesk_approver']);
  pw.chidi = await joinAsNewLogin(room, chidi, ['vendesk_approver']);
  pw.srv = await joinAsNewLogin(room, srv, ['vendesk_preparer']);
  await moveServiceTo(control(), '2027-03-01');
}, 180_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

let allowance: string;
let changedRow: string;
let higherTotal: string;
let expiring: string;

describe("a team's standing orders", () => {
  it('two desktops and a server process at once buy the occurrence once, approved by the standing approval', { timeout: 600_000 }, async () => {
    allowance = await addOrder('Staff allowance', 6, 100, 7000, 5);
    changedRow = await addOrder('Changed row', 3, 100, 7100, 5);
    higherTotal = await addOrder('Higher total', 3, 100, 7200, 5);
    expiring = await addOrder('Expiring', 3, 100, 7300, 5);
    // The orders are the team's: published with their rows' digest, computed by the database.
    const published = await cluster.superQuery<{ id: string; created_by: string; item_count: number; total_kobo: string }>(
      'SELECT o.id::text, o.created_by, v.item_count, v.total_kobo::text FROM vendesk.standing_orders o JOIN vendesk.standing_versions v ON v.order_id = o.id ORDER BY o.created_at',
    );
    expect(published.rows).toEqual([
      { id: allowance, created_by: 'ada', item_count: 6, total_kobo: '60000' },
      { id: changedRow, created_by: 'ada', item_count: 3, total_kobo: '30000' },
      { id: higherTotal, created_by: 'ada', item_count: 3, total_kobo: '30000' },
      { id: expiring, created_by: 'ada', item_count: 3, total_kobo: '30000' },
    ]);

    // Bola approves each once, on his own desktop (which reads the team's orders first).
    expect((await approveStanding(bola, allowance, ['--ceiling', '600', '--runs', '2'])).json).toMatchObject({ state: 'granted', runs: 2, approvedBy: ['bola'] });
    expect((await approveStanding(bola, changedRow, ['--ceiling', '300', '--runs', '5'])).code).toBe(0);
    expect((await approveStanding(bola, higherTotal, ['--ceiling', '300', '--runs', '5'])).code).toBe(0);
    expect((await approveStanding(bola, expiring, ['--ceiling', '300', '--until', '2027-03-31'])).code).toBe(0);

    await moveServiceTo(control(), '2027-03-05');
    const wallet = await sandboxWalletKobo({ sandbox, token: TOKEN });
    const runners = [ada, bola, srv].map((d) => spawnBulkCli(TOKEN, ['standing', 'run-due'], d.dir, sandbox.url));
    const codes = await Promise.all(runners.map((r) => r.closed));
    // None failed (1: a runner that checked the rows after another had bought them saw them as
    // bought in the last 24 hours, and waited; the next pass reads the claim from the team).
    expect(
      codes.filter((c) => c !== 0 && c !== 1),
      runners.map((r) => r.stderr).join('\n'),
    ).toEqual([]);
    // Whichever runner claimed an occurrence runs its job; a second pass on each finishes what one left following.
    for (const d of [ada, bola, srv]) expect((await runDueOn(d)).code).toBe(0);

    const phones = [...phonesOf(6, 7000), ...phonesOf(3, 7100), ...phonesOf(3, 7200), ...phonesOf(3, 7300)];
    expect(await boughtPerPhone(phones)).toEqual(new Map(phones.map((p) => [p, 1])));
    const log = await allLogEntries(sandbox.url, TOKEN);
    expect(wallet - (await sandboxWalletKobo({ sandbox, token: TOKEN }))).toBe(costKobo(log, phones));

    // One claim per occurrence, each job approved by its standing approval (no ordinary approval row).
    const claims = await cluster.superQuery<{ order_id: string; state: string; job_state: string; by_standing: boolean }>(
      `SELECT c.order_id::text, c.state, j.state AS job_state, j.standing_approval_id IS NOT NULL AS by_standing
         FROM vendesk.standing_occurrences c JOIN vendesk.jobs j ON j.id = c.job_id WHERE c.scheduled_day = '2027-03-05' ORDER BY c.order_id`,
    );
    expect(claims.rows).toHaveLength(4);
    for (const c of claims.rows) expect(c).toMatchObject({ state: 'started', job_state: 'finished', by_standing: true });
    expect((await cluster.superQuery('SELECT count(*)::int AS n FROM vendesk.approvals')).rows[0].n).toBe(0);
    // Each of those jobs has its approve row (naming the standing approval), its claims their send rows: the trail verifies.
    const verified = await bola.run(['audit', 'verify']);
    expect(verified.code, verified.stdout).toBe(0);

    // The month's close pack, on the desktops that ran them: each job is a standing approval signed by bola (issue 41's Approvals sheet).
    const standingLines = new Map<string, unknown[]>();
    for (const d of [ada, bola, srv]) {
      const file = path.join(d.dir, 'pack-2027-03.xlsx');
      const made = await d.run(['close', '2027-03', '--out', file]);
      expect(made.code, made.stderr).toBe(0);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      wb.getWorksheet('Approvals')?.eachRow((row) => {
        const v = (row.values as unknown[]).slice(1);
        if (v[0] === 'Standing approval') standingLines.set(String(v[1]), v);
      });
    }
    const claimed = await cluster.superQuery<{ job_id: string }>(`SELECT job_id::text FROM vendesk.standing_occurrences WHERE scheduled_day = '2027-03-05'`);
    expect([...standingLines.keys()].sort()).toEqual(claimed.rows.map((c) => c.job_id).sort());
    for (const v of standingLines.values()) expect(v[4]).toBe('bola');
  });

  it(
    'lets the next run within the approval through, and stops a changed row, a higher total, an expired and a used-up approval, each saying why',
    { timeout: 600_000 },
    async () => {
      // Ada changes one phone of "Changed row" (same total) and one amount of "Higher total": new versions, published.
      const changed = airtimeRows(3, 100, 7100);
      changed[2][1] = mtnPhone(7150);
      const edit1 = await ada.run(['standing', 'edit', changedRow, writeCsv(ada.dir, 'changed.csv', changed), '--yes', '--confirm-total', '300']);
      expect(edit1.code, edit1.stdout + edit1.stderr).toBe(0);
      const higher = airtimeRows(3, 100, 7200);
      higher[3][3] = 200;
      const edit2 = await ada.run(['standing', 'edit', higherTotal, writeCsv(ada.dir, 'higher.csv', higher), '--yes', '--confirm-total', '400']);
      expect(edit2.code, edit2.stdout + edit2.stderr).toBe(0);

      await moveServiceTo(control(), '2027-04-05');
      const { code, report } = await runDueOn(srv);
      expect(code).toBe(4);
      const byOrder = new Map(report.ran.map((o) => [o.orderId, o]));
      expect(byOrder.get(allowance)).toMatchObject({ state: 'bought', job: { items: 6, success: 6 } });
      expect(byOrder.get(changedRow)?.state).toBe('awaiting_approval');
      expect(byOrder.get(changedRow)?.why).toMatch(/rows changed since the standing approval/);
      expect(byOrder.get(higherTotal)?.why).toMatch(/total \(40000 kobo\) is above the standing approval's ceiling of 30000 kobo per run/);
      expect(byOrder.get(expiring)?.why).toMatch(/after the end of its standing approval \(31 Mar 2027\)/);
      // Nothing of the three stopped was bought; the allowance's second run was.
      expect(await boughtPerPhone([mtnPhone(7150), ...phonesOf(3, 7200), ...phonesOf(3, 7300)])).toEqual(new Map([...phonesOf(3, 7200), ...phonesOf(3, 7300)].map((p) => [p, 1])));
      expect(await boughtPerPhone(phonesOf(6, 7000))).toEqual(new Map(phonesOf(6, 7000).map((p) => [p, 2])));

      // The stopped occurrence waits for an ordinary approval: Chidi approves its job, and the next run buys it.
      const waiting = await cluster.superQuery<{ job_id: string }>("SELECT job_id::text FROM vendesk.standing_occurrences WHERE order_id = $1 AND scheduled_day = '2027-04-05'", [
        changedRow,
      ]);
      const approved = await chidi.run(['approve', waiting.rows[0].job_id]);
      expect(approved.code, approved.stdout + approved.stderr).toBe(0);
      await runDueOn(srv);
      expect(await boughtPerPhone([mtnPhone(7150)])).toEqual(new Map([[mtnPhone(7150), 1]]));

      // The allowance's approval covered two runs: the third stops, used up, and its list says so.
      await moveServiceTo(control(), '2027-05-05');
      const may = await runDueOn(ada);
      expect(may.report.ran.find((o) => o.orderId === allowance)?.why).toMatch(/standing approval is used up \(2 of 2 run\(s\)\)/);
      expect(await boughtPerPhone(phonesOf(6, 7000))).toEqual(new Map(phonesOf(6, 7000).map((p) => [p, 2])));
      const listed = JSON.parse((await bola.run(['standing', 'show', allowance])).stdout) as { standingApproval: { runsUsed: number; stops: string | null } };
      expect(listed.standingApproval).toMatchObject({ runsUsed: 2, stops: expect.stringMatching(/used up/) });
    },
  );

  it("refuses the maker's own approval, one approver's two approvals above the team's amount, a second claim and rows not the order's", { timeout: 300_000 }, async () => {
    const a = await asMember('ada');
    const b = await asMember('bola');
    try {
      const version = await cluster.superQuery<{ version: number; rows_digest: string }>(
        'SELECT version, rows_digest FROM vendesk.standing_versions WHERE order_id = $1 ORDER BY version DESC LIMIT 1',
        [allowance],
      );
      const terms = [allowance, version.rows[0].version, version.rows[0].rows_digest, 60000, 3, null, ''];
      const approveSql =
        'SELECT * FROM vendesk.approve_standing_order(p_order_id => $1, p_version => $2, p_rows_digest => $3, p_ceiling_kobo => $4, p_runs => $5, p_until => $6, p_note => $7, p_desktop_id => $8, p_desktop_name => $9)';
      // Ada holds the approver role, and made the order: the database refuses her approval of it.
      const own = await refusal(a.client.query(approveSql, [...terms, a.desktopId, a.desktopName]));
      expect(own).toMatchObject({ code: '42501', message: expect.stringMatching(/approver cannot be the preparer/) });

      // Above the team's two-approver amount, Bola's second approval of the same terms is refused; it stays pending.
      await cluster.superQuery("UPDATE vendesk.team_settings SET value = '50000'::jsonb WHERE key = 'dual_approval_above_kobo'");
      const first = await b.client.query<{ id: string; granted_at: Date | null }>(approveSql, [...terms, b.desktopId, b.desktopName]);
      expect(first.rows[0].granted_at).toBeNull();
      const twice = await refusal(b.client.query(approveSql, [...terms, b.desktopId, b.desktopName]));
      expect(twice.message).toMatch(/approved standing order .* already: it needs another approver/);
      const pending = await cluster.superQuery('SELECT approvals_needed, granted_at FROM vendesk.standing_approvals WHERE id = $1', [first.rows[0].id]);
      expect(pending.rows).toEqual([{ approvals_needed: 2, granted_at: null }]);

      // Claiming an occurrence twice over SQL: the second answers the first (one job); a row that is not the order's is refused.
      const stored = await cluster.superQuery<{ rows: { phone: string }[] }>('SELECT rows FROM vendesk.standing_versions WHERE order_id = $1 AND version = $2', [
        allowance,
        version.rows[0].version,
      ]);
      const items = JSON.stringify(stored.rows[0].rows);
      const notTheOrders = JSON.stringify(stored.rows[0].rows.map((r, i) => (i === 1 ? { ...r, phone: mtnPhone(9999) } : r)));
      const spec = JSON.stringify({ baseUrl: sandbox.url, accountNumber: null, accountName: null, bulkKind: 'airtime', sheetName: null, headers: [], mapping: {}, rowsTotal: 6 });
      const claimSql =
        "SELECT * FROM vendesk.claim_standing_occurrence(p_order_id => $1, p_scheduled_day => '2027-07-05', p_due_day => '2027-07-05', p_version => $2, p_file_name => 'raw', p_file_sha256 => $3, p_wallet_kobo => NULL, p_run_spec => $4, p_items => $5, p_by_hand => true, p_desktop_id => $6, p_desktop_name => $7)";
      const sha = 'a'.repeat(64);
      const stolen = await refusal(b.client.query(claimSql, [allowance, version.rows[0].version, sha, spec, notTheOrders, b.desktopId, b.desktopName]));
      expect(stolen).toMatchObject({ code: '23514', message: expect.stringMatching(/not rows of version \d+ of standing order/) });
      const once = await b.client.query<{ claimed_here: boolean; job_id: string; approved_by: string }>(claimSql, [
        allowance,
        version.rows[0].version,
        sha,
        spec,
        items,
        b.desktopId,
        b.desktopName,
      ]);
      const again = await a.client.query<{ claimed_here: boolean; job_id: string }>(claimSql, [
        allowance,
        version.rows[0].version,
        'b'.repeat(64),
        spec,
        items,
        a.desktopId,
        a.desktopName,
      ]);
      expect(once.rows[0]).toMatchObject({ claimed_here: true, approved_by: 'approval' });
      expect(again.rows[0]).toMatchObject({ claimed_here: false, job_id: once.rows[0].job_id });
      const jobs = await cluster.superQuery("SELECT count(*)::int AS n FROM vendesk.standing_occurrences WHERE order_id = $1 AND scheduled_day = '2027-07-05'", [allowance]);
      expect(jobs.rows[0].n).toBe(1);
      // Around the functions: no member writes an occurrence or an approval's grant.
      expect(
        (
          await refusal(
            b.client.query(
              "INSERT INTO vendesk.standing_occurrences (order_id, scheduled_day, due_day, state, decided_by, desktop_id) VALUES ($1, '2027-08-05', '2027-08-05', 'skipped', 'bola', 'x')",
              [allowance],
            ),
          )
        ).code,
      ).toBe('42501');
      expect((await refusal(b.client.query('UPDATE vendesk.standing_approvals SET granted_at = now()'))).code).toBe('42501');
    } finally {
      await a.client.end();
      await b.client.end();
    }
  });
});
