/**
 * The audit trail in a real PostgreSQL: rows written by the database's functions verify in
 * vendesk's own hash code; a superuser who switches the triggers off and alters, re-hashes,
 * deletes or cuts rows is caught; an auditor's Excel export holds the rows of the range with the
 * amounts the database recorded, as LibreOffice reads them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowHash } from '../../../src/main/team/auditChain';
import { exportAuditTrail, readAuditRows, verifyAuditTrail } from '../../../src/main/team/auditTrail';
import { migrateTeamSchema } from '../../../src/main/team/teamMigrations';
import { sheetsViaLibreOffice } from '../../support/libreOffice';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { claimRaw, prepareRaw } from '../../support/teamJobs';

let cluster: PostgresCluster;
const clients: pg.Client[] = [];
const passwords: Record<string, string> = {};
let dbCount = 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-audit-'));

async function connect(config: pg.ClientConfig): Promise<pg.Client> {
  const client = new pg.Client(config);
  await client.connect();
  clients.push(client);
  return client;
}

/** A fresh team database with a few money-moving actions in its trail. */
async function teamWithActivity(): Promise<{ db: string; superuser: pg.Client; ada: pg.Client; bola: pg.Client }> {
  dbCount += 1;
  const db = `audit${dbCount}`;
  await cluster.superQuery(`CREATE DATABASE ${db}`);
  const superuser = await connect(cluster.config(undefined, undefined, db));
  await migrateTeamSchema(superuser);
  const ada = await connect(cluster.config('ada', passwords.ada, db));
  const bola = await connect(cluster.config('bola', passwords.bola, db));
  await ada.query(`SELECT vendesk.record_join('desk-a', 'Accounts PC')`);
  // bola's desktop is registered without a join row, so the trail holds only the money-moving rows below.
  await superuser.query(`INSERT INTO vendesk.desktops (desktop_id, desktop_name, role) VALUES ('desk-b', 'Finance Lead', 'bola')`);
  const deskA = { id: 'desk-a', name: 'Accounts PC' };
  const job = (
    await prepareRaw(ada, deskA, {
      items: [2, 3].map((row) => ({ row, phone: `0803100000${row}`, amountKobo: 125_025 })),
      sha: 'd'.repeat(64),
      fileName: 'payroll.xlsx',
      walletKobo: 1_000_000,
    })
  ).id;
  const other = (await prepareRaw(ada, deskA, { items: [{ row: 2, phone: '08031000009', amountKobo: 70_000 }], fileName: 'x.xlsx', walletKobo: null })).id;
  await bola.query(`SELECT vendesk.decide_job($1, 'approved', 'Checked against HR list', 'desk-b', 'Finance Lead')`, [job]);
  await bola.query(`SELECT vendesk.decide_job($1, 'rejected', 'Wrong month — ₦ 😀 "quoted"', 'desk-b', 'Finance Lead')`, [other]);
  await claimRaw(ada, deskA, job, 2, 125025, 'ref-0');
  await ada.query(`SELECT vendesk.settle_item($1, 2, 'succeeded', 'desk-a', 'Accounts PC')`, [job]);
  await claimRaw(ada, deskA, job, 3, 125025, 'ref-1');
  await ada.query(`SELECT vendesk.settle_item($1, 3, 'failed', 'desk-a', 'Accounts PC')`, [job]);
  return { db, superuser, ada, bola };
}

/** A superuser tampering with the triggers off (what the append-only triggers cannot stop). */
async function tamper(client: pg.Client, sql: string, params: unknown[] = []): Promise<void> {
  await client.query('BEGIN');
  await client.query('SET LOCAL session_replication_role = replica');
  await client.query(sql, params);
  await client.query('COMMIT');
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const first = await connect(cluster.config());
  await migrateTeamSchema(first);
  passwords.ada = await cluster.createLogin('ada', ['vendesk_preparer']);
  passwords.bola = await cluster.createLogin('bola', ['vendesk_approver']);
});

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await cluster?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ACTIVITY = [
  ['ada', 'join', null],
  ['ada', 'prepare', 250050],
  ['ada', 'prepare', 70000],
  ['bola', 'approve', 250050],
  ['bola', 'reject', 70000],
  ['ada', 'send', 125025],
  ['ada', 'settle', 125025],
  ['ada', 'send', 125025],
  ['ada', 'settle', 0],
];

async function allRows(client: pg.Client) {
  const rows = [];
  for await (const row of readAuditRows(client)) rows.push(row);
  return rows;
}

describe('verifying the chain', () => {
  it("verifies every row the database wrote, in vendesk's own hash code", async () => {
    const { ada } = await teamWithActivity();
    const rows = await allRows(ada);
    expect(rows.map((r) => [r.actor, r.action, r.amountKobo])).toEqual(ACTIVITY);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rows[4].detail).toContain('Wrong month — ₦ 😀');
    const result = await verifyAuditTrail(ada);
    expect(result).toEqual({ intact: true, rows: 9, head: { seq: 9, hash: rows[8].hash }, breaks: [] });
    expect(await verifyAuditTrail(ada, { seq: 9, hash: rows[8].hash })).toMatchObject({ intact: true });
  });

  it('reads rows in the order they were written past row 9 (numbers, not text)', async () => {
    const { ada } = await teamWithActivity();
    for (let i = 0; i < 3; i++) await ada.query(`SELECT vendesk.record_join('desk-a', 'Accounts PC')`);
    expect((await allRows(ada)).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(await verifyAuditTrail(ada)).toMatchObject({ intact: true, rows: 12, head: { seq: 12 } });
  });

  it('catches a row a superuser altered with the triggers off', async () => {
    const { ada, superuser } = await teamWithActivity();
    await tamper(superuser, 'UPDATE vendesk.audit_trail SET amount_kobo = 25005 WHERE seq = 2');
    const result = await verifyAuditTrail(ada);
    expect(result.intact).toBe(false);
    expect(result.breaks).toEqual([{ seq: 2, kind: 'altered', message: expect.stringMatching(/Row 2 was altered/) }]);
  });

  it('catches an altered row given a fresh hash, at the row after it', async () => {
    const { ada, superuser } = await teamWithActivity();
    const row = (await allRows(ada))[4];
    const edited = { ...row, detail: row.detail.replace('Wrong month', 'Fine') };
    await tamper(superuser, 'UPDATE vendesk.audit_trail SET detail = $1, hash = $2 WHERE seq = 5', [edited.detail, auditRowHash(row.prevHash, edited)]);
    const result = await verifyAuditTrail(ada);
    expect(result.breaks).toEqual([{ seq: 6, kind: 'relinked', message: expect.stringMatching(/Row 6 does not link/) }]);
  });

  it('catches a deleted row, and rows cut from the end that this desktop had seen', async () => {
    const { ada, superuser } = await teamWithActivity();
    const rows = await allRows(ada);
    await tamper(superuser, 'DELETE FROM vendesk.audit_trail WHERE seq = 4');
    expect((await verifyAuditTrail(ada)).breaks).toEqual([{ seq: 4, kind: 'missing', message: 'Row 4 is missing: it was deleted.' }]);
    await tamper(superuser, 'DELETE FROM vendesk.audit_trail WHERE seq >= 8');
    const cut = await verifyAuditTrail(ada, { seq: 9, hash: rows[8].hash });
    expect(cut.breaks.map((b) => [b.seq, b.kind])).toEqual([
      [4, 'missing'],
      [9, 'head_missing'],
    ]);
  });
});

describe('exporting the trail for an auditor', () => {
  it('writes the rows of a range with the recorded amounts, and whether the chain verified', async () => {
    const { ada } = await teamWithActivity();
    const rows = await allRows(ada);
    const distinct = [...new Set(rows.map((r) => r.atUs))];
    // From the second distinct time to (not including) the last one: whatever rows fall there.
    const from = new Date(Number(BigInt(distinct[1]) / 1000n));
    const to = new Date(Number(BigInt(distinct[distinct.length - 1]) / 1000n));
    const expected = rows.filter((r) => BigInt(r.atUs) >= BigInt(from.getTime()) * 1000n && BigInt(r.atUs) < BigInt(to.getTime()) * 1000n);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(rows.length);
    const out = path.join(tmp, 'audit.xlsx');
    const result = await exportAuditTrail(ada, out, { from, to });
    expect(result.rows).toBe(expected.length);
    const sheets = sheetsViaLibreOffice(out);
    const trail = sheets.get('Audit trail')!;
    expect(trail[0]).toEqual(['Row', 'When (Lagos)', 'Who', 'Desktop', 'Desktop id', 'Action', 'Job', 'Amount', 'Detail', 'Time (µs since 1970)', 'Previous hash', 'Hash']);
    const body = trail.slice(1);
    expect(body.map((r) => [Number(r[0]), r[2], r[5], r[7] === '' ? null : Math.round(Number(r[7]) * 100), r[11]])).toEqual(
      expected.map((r) => [r.seq, r.actor, r.action, r.amountKobo, r.hash]),
    );
    // An auditor can recompute each hash from the exported cells.
    for (const r of body) {
      const [seq, , actor, desktopName, desktopId, action, jobId, naira, detail, atUs, prevHash, hash] = r;
      const amountKobo = naira === '' ? null : Math.round(Number(naira) * 100);
      expect(auditRowHash(prevHash, { seq: Number(seq), atUs, actor, desktopId, desktopName, action, jobId: jobId === '' ? null : jobId, amountKobo, detail })).toBe(hash);
    }
    const verification = Object.fromEntries(sheets.get('Verification')!.slice(1));
    expect(verification['Whole chain intact']).toBe('yes');
    expect(verification['Rows in the whole trail']).toBe('9');
  });
});
