/**
 * Issue 41's team half against a real PostgreSQL 15 (team schema 9) and the sandbox over real HTTP:
 * ada prepares, bola approves, chidi (his own token for the same organisation) adopts and runs; eze
 * administers. A month closed in the team database by an approver, seen from the other desktops,
 * audited; a preparer's close and reopen refused by the database, through the CLI and as psql
 * would send them; a reopen without a reason refused; no member can write a close in another's
 * name. A bulk job's cost centres surviving adoption, checked against what the service's log says
 * was bought; a cost-centre change recorded as the team member; the close pack's Approvals sheet
 * read back with exceljs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import type { LogEntry } from '../../../src/shared/wire';
import { SandboxControl } from '../../support/sandboxControl';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { allLogEntries, mtnPhone, writeCsv } from '../bulk/bulkTestFiles';
import { closeTeamRoom, joinAsNewLogin, joinTeamAs, liveDesk, type LiveDesk, type TeamRoom } from './teamDesks';

const ORG = 'month-org';
const ADA_TOKEN = 'month-org-ada-51c2';
const CHIDI_TOKEN = 'month-org-chidi-8e0d';
const LAGOS_MS = 3_600_000;
let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: SandboxHandle;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-month-'));
const passwords: Record<string, string> = {};
let ada: LiveDesk;
let bola: LiveDesk;
let chidi: LiveDesk;
let eze: LiveDesk;
/** The month now on the service's clock (Lagos), and the two before it (over, so they may be closed). */
let current: string;
let previous: string;
let before: string;

const ym = (ms: number) => new Date(ms + LAGOS_MS).toISOString().slice(0, 7);
const monthBefore = (m: string) => ym(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)) - 2, 15));

function answer<T>(r: { code: number; stdout: string; stderr: string }): T {
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}
const errorOf = (r: { stdout: string }) => (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;

/** A member's own connection, as psql would make it with their password. */
async function asMember<T>(name: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client(cluster.config(name, passwords[name]));
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The organisation the team's closes are kept for: the service's address and the wallet's account number. */
async function organisation(): Promise<string> {
  const r = await cluster.superQuery<{ organisation: string }>('SELECT DISTINCT organisation FROM vendesk.month_closes');
  expect(r.rows).toHaveLength(1);
  return r.rows[0].organisation;
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startSandbox({ port: 0, bearers: { [ADA_TOKEN]: ORG, [CHIDI_TOKEN]: ORG }, quiet: true });
  const desk = (name: string, token: string) => liveDesk(root, name, { baseUrl: sandbox.url, token });
  [ada, bola, chidi, eze] = await Promise.all([desk('ada', ADA_TOKEN), desk('bola', ADA_TOKEN), desk('chidi', CHIDI_TOKEN), desk('eze', ADA_TOKEN)]);
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword); // the administrator sets the database up
  passwords.ada = await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  passwords.bola = await joinAsNewLogin(room, bola, ['vendesk_approver']);
  passwords.chidi = await joinAsNewLogin(room, chidi, ['vendesk_preparer']);
  passwords.eze = await joinAsNewLogin(room, eze, ['vendesk_admin']);
  current = ym(Date.parse((await new SandboxControl(sandbox.url, ADA_TOKEN).clock()).now));
  previous = monthBefore(current);
  before = monthBefore(previous);
}, 120_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

describe('a month closed in the team database', () => {
  it('refuses a preparer closing a month, through the CLI and by SQL as psql sends it; nothing is written', async () => {
    const cli = await ada.run(['month', 'close', before]);
    expect(cli.code).toBe(1);
    expect(errorOf(cli)).toMatchObject({ code: 'team_refused', message: 'You cannot close or reopen a month: your role holds no approver role.' });
    await asMember('ada', async (c) => {
      const { rows } = await c.query<{ desktop_id: string; desktop_name: string }>("SELECT desktop_id, desktop_name FROM vendesk.desktops WHERE role = 'ada'");
      const [desk] = rows;
      await expect(c.query('SELECT vendesk.close_month($1, $2, now(), $3::jsonb, $4, $5)', ['x 1', before, '{}', desk.desktop_id, desk.desktop_name])).rejects.toThrow(
        /permission denied for function close_month/,
      );
      await expect(c.query("INSERT INTO vendesk.month_closes VALUES ('x 1', $1, 'closed', 'ada', now(), now())", [before])).rejects.toThrow(
        /permission denied for table month_closes/,
      );
    });
    expect((await cluster.superQuery('SELECT * FROM vendesk.month_closes')).rows).toEqual([]);
    expect((await cluster.superQuery("SELECT * FROM vendesk.audit_trail WHERE action LIKE 'month_%'")).rows).toEqual([]);
  });

  it('closes as the approver, in the audit trail, intact; seen closed by bola from the preparer’s and the admin’s desktops', async () => {
    answer(await bola.run(['month', 'close', before]));
    answer(await bola.run(['month', 'close', previous]));
    const trail = await cluster.superQuery<{ actor: string; action: string; desktop_name: string; detail: string }>(
      "SELECT actor, action, desktop_name, detail FROM vendesk.audit_trail WHERE action LIKE 'month_%' ORDER BY seq",
    );
    expect(trail.rows.map((r) => [r.actor, r.action, r.desktop_name, (JSON.parse(r.detail) as { month: string }).month])).toEqual([
      ['bola', 'month_close', 'bola PC', before],
      ['bola', 'month_close', 'bola PC', previous],
    ]);
    const verified = answer<{ intact: boolean; rows: number }>(await ada.run(['audit', 'verify']));
    expect(verified.intact).toBe(true);

    for (const d of [ada, eze]) {
      const list = answer<{ months: { month: string; state: string; closedBy: string | null }[]; events: { month: string; action: string; by: string }[] }>(
        await d.run(['month', 'list']),
      );
      expect(list.months.filter((m) => m.month === previous || m.month === before)).toEqual([
        expect.objectContaining({ month: previous, state: 'closed', closedBy: 'bola' }),
        expect.objectContaining({ month: before, state: 'closed', closedBy: 'bola' }),
      ]);
      expect(list.events.map((e) => [e.month, e.action, e.by])).toEqual([
        [before, 'close', 'bola'],
        [previous, 'close', 'bola'],
      ]);
    }
    // The preparer's close pack is made from the close (this desktop's closes follow the team's).
    const pack = answer<{ summary: { closed: { by: string } | null } }>(await ada.run(['close', previous, '--out', path.join(root, 'ada-previous.xlsx')]));
    expect(pack.summary.closed).toEqual(expect.objectContaining({ by: 'bola' }));
    // The admin may not close it twice, nor a month before a later closed one.
    expect(errorOf(await eze.run(['month', 'close', previous])).code).toBe('month_already_closed');
  });

  it('refuses a preparer reopening, a reopen without a reason, one before the latest, and a close or reopen in another member’s name', async () => {
    const org = await organisation();
    expect((await ada.run(['month', 'reopen', previous, '--reason', 'I want to change it'])).code).toBe(1);
    expect((await bola.run(['month', 'reopen', previous])).code).toBe(2); // the CLI asks for the reason
    await asMember('ada', async (c) => {
      await expect(c.query("SELECT vendesk.reopen_month($1, $2, 'a reason', now(), 'x', 'x')", [org, previous])).rejects.toThrow(/permission denied for function reopen_month/);
    });
    await asMember('bola', async (c) => {
      const desk = (await c.query<{ desktop_id: string }>("SELECT desktop_id FROM vendesk.desktops WHERE role = 'bola'")).rows[0];
      const eze = (await c.query<{ desktop_id: string }>("SELECT desktop_id FROM vendesk.desktops WHERE role = 'eze'")).rows[0];
      for (const reason of [null, '', '  ', 'no']) {
        await expect(c.query('SELECT vendesk.reopen_month($1, $2, $3, now(), $4, $5)', [org, previous, reason, desk.desktop_id, 'bola PC'])).rejects.toThrow(
          /reopened with a reason/,
        );
      }
      await expect(c.query("SELECT vendesk.reopen_month($1, $2, 'credit note', now(), $3, 'bola PC')", [org, before, desk.desktop_id])).rejects.toThrow(/later month is closed/);
      // bola's call through eze's desktop: refused, and there is no actor to pass — the database takes it from the login.
      await expect(c.query("SELECT vendesk.reopen_month($1, $2, 'credit note', now(), $3, 'eze PC')", [org, previous, eze.desktop_id])).rejects.toThrow(/not registered to bola/);
      await expect(
        c.query(
          "INSERT INTO vendesk.month_close_events (organisation, month, action, actor, at, service_at, reason, audit_seq) VALUES ($1, $2, 'reopen', 'eze', now(), now(), 'x y z', 1)",
          [org, previous],
        ),
      ).rejects.toThrow(/permission denied for table month_close_events/);
      await expect(c.query("UPDATE vendesk.month_closes SET state = 'reopened', closed_by = 'eze'")).rejects.toThrow(/permission denied/);
    });
    const states = await cluster.superQuery<{ month: string; state: string; closed_by: string }>('SELECT month, state, closed_by FROM vendesk.month_closes ORDER BY month');
    expect(states.rows).toEqual([
      { month: before, state: 'closed', closed_by: 'bola' },
      { month: previous, state: 'closed', closed_by: 'bola' },
    ]);
    // Even the schema's owner cannot write a reopen event without its reason.
    await expect(
      cluster.superQuery(
        "INSERT INTO vendesk.month_close_events (organisation, month, action, actor, at, service_at, reason, audit_seq) VALUES ($1, $2, 'reopen', 'eze', now(), now(), NULL, 1)",
        [org, previous],
      ),
    ).rejects.toThrow(/reopen_has_reason/);
  });

  it('reopens as the admin with the reason, audited, and every desktop follows', async () => {
    answer(await eze.run(['month', 'reopen', previous, '--reason', 'vendor credit note, ticket 1234']));
    const row = await cluster.superQuery<{ actor: string; detail: string }>("SELECT actor, detail FROM vendesk.audit_trail WHERE action = 'month_reopen'");
    expect(row.rows.map((r) => [r.actor, (JSON.parse(r.detail) as { reason: string }).reason])).toEqual([['eze', 'vendor credit note, ticket 1234']]);
    expect(answer<{ intact: boolean }>(await bola.run(['audit', 'verify'])).intact).toBe(true);
    const pack = answer<{ summary: { closed: unknown } }>(await ada.run(['close', previous, '--out', path.join(root, 'ada-reopened.xlsx')]));
    expect(pack.summary.closed).toBeNull();
    const list = answer<{ months: { month: string; state: string }[]; events: { action: string; by: string; reason: string | null }[] }>(await ada.run(['month', 'list']));
    expect(list.months.find((m) => m.month === previous)?.state).toBe('reopened');
    expect(list.events.at(-1)).toEqual(expect.objectContaining({ action: 'reopen', by: 'eze', reason: 'vendor credit note, ticket 1234' }));
  });
});

describe('a team job’s cost centres and approvals', () => {
  it('keeps each row’s cost centre when another desktop adopts the job; the close pack lists who prepared and approved it', async () => {
    const phones = [mtnPhone(7100), mtnPhone(7101), mtnPhone(7102)];
    const centres: Record<string, string> = { [phones[0]]: 'Sales', [phones[1]]: 'Field ops', [phones[2]]: 'Sales' };
    const sheet = writeCsv(ada.dir, 'allowances.csv', [
      ['Name', 'Phone', 'Network', 'Amount', 'Department'],
      ...phones.map((p, i) => [`Staff ${i + 1}`, p, 'MTN', 100 * (i + 1), centres[p]]),
    ]);
    const submitted = await ada.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes', '--confirm-total', '600']);
    expect(submitted.code, submitted.stdout + submitted.stderr).toBe(4);
    const teamJob = /team job ([0-9a-f-]{36})/.exec(errorOf(submitted).message)?.[1] ?? '';
    // The team database keeps the cost centre in its own column, not in the item the digest and the claims read.
    const stored = await cluster.superQuery<{ cost_centre: string; has: boolean }>('SELECT cost_centre, item ? $2 AS has FROM vendesk.job_items WHERE job_id = $1 ORDER BY seq', [
      teamJob,
      'costCentre',
    ]);
    expect(stored.rows).toEqual(phones.map((p) => ({ cost_centre: centres[p], has: false })));
    answer(await bola.run(['approve', teamJob]));
    expect(answer<{ success: number }>(await chidi.run(['bulk', 'adopt', teamJob])).success).toBe(3);

    // What the service's log says chidi bought, charged to the cost centres ada's spreadsheet gave.
    const log = (await allLogEntries<LogEntry>(sandbox.url, ADA_TOKEN)).filter((e) => phones.includes(e.phone_number));
    expect(log.map((e) => e.phone_number).sort()).toEqual([...phones].sort());
    const expected = new Map<string, { purchases: number; walletCost: number }>();
    for (const e of log) {
      const line = expected.get(centres[e.phone_number]) ?? { purchases: 0, walletCost: 0 };
      line.purchases++;
      line.walletCost = Math.round((line.walletCost + e.transaction_cost) * 100) / 100;
      expected.set(centres[e.phone_number], line);
    }
    const day = new Date(Date.parse(log[0].created_at) + LAGOS_MS).toISOString().slice(0, 10);
    answer(await chidi.run(['sync']));
    const spend = answer<{ byCostCentre: { costCentre: string; purchases: number; walletCost: number }[] }>(
      await chidi.run(['report', 'spend', '--from', day, '--to', day, '--by', 'cost-centre']),
    );
    expect(new Map(spend.byCostCentre.map((l) => [l.costCentre, { purchases: l.purchases, walletCost: l.walletCost }]))).toEqual(expected);

    // A later change on chidi's desktop is recorded as the team member, not the computer's user.
    const sales = log.find((e) => e.phone_number === phones[0])!;
    answer(await chidi.run(['cost-centre', 'set', sales.transaction_id, 'Marketing']));
    const changes = answer<{ from: string; to: string; actor: string; actorKind: string }[]>(await chidi.run(['cost-centre', 'history', sales.transaction_id]));
    expect(changes.map((c) => [c.from, c.to, c.actor, c.actorKind])).toEqual([['Sales', 'Marketing', 'chidi', 'team']]);

    // The close pack of the month, made on chidi's desktop: its Approvals sheet names ada and bola, from the team database.
    const month = ym(Date.parse(log[0].created_at));
    const file = path.join(root, 'chidi-pack.xlsx');
    const pack = answer<{ sheets: string[] }>(await chidi.run(['close', month, '--out', file]));
    expect(pack.sheets).toContain('Approvals');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.getWorksheet('Approvals')!;
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const header = rows.findIndex((r) => r[0] === 'Kind');
    expect(rows[header]).toEqual([
      'Kind',
      'Team job',
      'Prepared by',
      'Prepared (Lagos)',
      'Approved by',
      'Approved (Lagos)',
      'Total approved (₦)',
      'Purchases this month',
      'Spend this month (₦)',
    ]);
    const line = rows.find((r) => r[1] === teamJob)!;
    const walletCost = log.reduce((s, e) => s + Math.round(e.transaction_cost * 100), 0) / 100;
    expect([line[0], line[2], line[4], line[6], line[7], line[8]]).toEqual(['Bulk job', 'ada', 'bola', 600, 3, walletCost]);
    expect(line[3]).toBeInstanceOf(Date);
    expect(line[5]).toBeInstanceOf(Date);
    expect(rows.some((r) => typeof r[0] === 'string' && r[0].startsWith("Standing approvals: none behind this month's spend"))).toBe(true);
  });
});
