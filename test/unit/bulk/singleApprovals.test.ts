/**
 * One table of approvals (issue 27): a single purchase sent for a team member's approval is a job
 * of one item waiting in `awaiting_approval`, linked to its team job in `team_job_links` with the
 * request it was prepared with. Migration 24 carries over the holds an older vendesk kept in
 * `team_single_purchases`; the job's lifecycle begins an approved one once, and lets one whose run
 * stopped before its item left wait again.
 */
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobParts, type JobParts } from '../../../src/main/buying/jobLifecycle';
import { newItem } from '../../../src/main/buying/jobRows';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { acrossMigration } from '../../support/databaseBefore';

const AT = '2026-11-20T09:00:00.000Z';
const LIVE = { profileId: 'live-1', kind: 'live' as const, baseUrl: 'https://api.example.com' };

function singleJob(db: Database.Database, id: string, kind: string, item: { phone: string; amountKobo: number; purchaseId?: string; account?: string }): void {
  db.prepare(
    `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at, origin)
     VALUES (?, ?, 'completed', 'live-1', 'live', 'https://api.example.com', 'bought', '', '[]', '{}', 1, 0, 1, 1, ?, ?, 'single')`,
  ).run(id, kind, AT, AT);
  db.prepare(
    `INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, amount_kobo, state, updated_at, account, purchase_id, reference, sent_ms)
     VALUES (?, 1, 1, ?, 'MTN', '', ?, 'success', ?, ?, ?, ?, 1)`,
  ).run(id, item.phone, item.amountKobo, AT, item.account ?? null, item.purchaseId ?? null, `ref-${id}`);
}

function hold(
  db: Database.Database,
  teamJob: string,
  kind: string,
  request: object,
  account: string,
  amountKobo: number,
  description: string,
  state: string,
  purchaseId: string | null,
): void {
  db.prepare(
    `INSERT INTO team_single_purchases (team_job_id, profile_id, kind, request, account, amount_kobo, description, state, purchase_id, created_at)
     VALUES (?, 'live-1', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(teamJob, kind, JSON.stringify(request), account, amountKobo, description, state, purchaseId, AT);
}

describe('migration 24: the holds of single purchases become waiting jobs and links', () => {
  it('a waiting hold is its job, waiting for approval with its one item; a bought one is linked to the job it was bought as; a closed one goes', () => {
    acrossMigration(
      24,
      (before) => {
        before.prepare("INSERT INTO profiles (id, name, kind, base_url, created_at) VALUES ('live-1', 'Live', 'live', 'https://api.example.com', ?)").run(AT);
        before.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('team.link', ?, ?)").run(JSON.stringify({ url: 'postgres://team.example/vendesk', user: 'ada' }), AT);
        singleJob(before, 'topup-bought', 'airtime', { phone: '08031110000', amountKobo: 250_000 });
        singleJob(before, 'single-p-1', 'electricity', { phone: '08031234567', amountKobo: 300_000, purchaseId: 'p-1', account: '45012345678' });
        hold(before, 'team-a', 'airtime', { kind: 'airtime', phone: '0803 111 2222', amountKobo: 250_000 }, '08031112222', 250_000, 'MTN airtime', 'waiting', null);
        hold(
          before,
          'team-e',
          'electricity',
          { disco: 'IKEDC', meter: '45099990000', vendType: 'PREPAID', amountKobo: 500_000, phone: '08031234567' },
          '45099990000',
          500_000,
          'Ikeja Electric PREPAID electricity',
          'waiting',
          null,
        );
        hold(before, 'team-b', 'airtime', { kind: 'airtime', phone: '08031110000', amountKobo: 250_000 }, '08031110000', 250_000, 'MTN airtime', 'bought', 'topup-bought');
        hold(before, 'team-p', 'electricity', { disco: 'IKEDC', meter: '45012345678' }, '45012345678', 300_000, 'Ikeja Electric', 'bought', 'p-1');
        hold(before, 'team-x', 'data', { kind: 'data', phone: '08031113333', productCode: 'MTN-1GB' }, '08031113333', 100_000, 'MTN 1GB', 'closed', null);
      },
      (after) => {
        expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'team_single_purchases'").all()).toEqual([]);
        const links = after.prepare('SELECT local_job_id, team_job_id, team_url, total_kobo, items, request FROM team_job_links ORDER BY team_job_id').all() as {
          local_job_id: string;
          team_job_id: string;
          team_url: string;
          total_kobo: number;
          items: number;
          request: string;
        }[];
        expect(links.map((l) => [l.team_job_id, l.local_job_id, l.total_kobo, l.items, l.team_url])).toEqual([
          ['team-a', 'approval-team-a', 250_000, 1, 'postgres://team.example/vendesk'],
          ['team-b', 'topup-bought', 250_000, 1, 'postgres://team.example/vendesk'],
          ['team-e', 'approval-team-e', 500_000, 1, 'postgres://team.example/vendesk'],
          ['team-p', 'single-p-1', 300_000, 1, 'postgres://team.example/vendesk'],
        ]);
        // The request is kept exactly as it was prepared: it is what is bought once approved.
        expect(JSON.parse(links[2].request)).toEqual({ disco: 'IKEDC', meter: '45099990000', vendType: 'PREPAID', amountKobo: 500_000, phone: '08031234567' });
        const store = jobParts(after).reads;
        for (const id of ['approval-team-a', 'approval-team-e']) {
          expect(store.job(id)).toMatchObject({ state: 'awaiting_approval', origin: 'single', profile_id: 'live-1', connection_kind: 'live', base_url: 'https://api.example.com' });
          expect(store.job(id)?.message).toContain('waits for approval');
        }
        expect(store.items('approval-team-a')).toMatchObject([{ state: 'queued', phone: '08031112222', amount_kobo: 250_000, description: 'MTN airtime', account: null }]);
        expect(store.items('approval-team-e')).toMatchObject([
          { state: 'queued', phone: '08031234567', network: 'IKEDC', amount_kobo: 500_000, account: '45099990000', vend_type: 'PREPAID', reference: null, sent_ms: null },
        ]);
        // The purchases already bought are as they were.
        expect(store.job('topup-bought')?.state).toBe('completed');
        expect(store.items('single-p-1')[0]).toMatchObject({ state: 'success', purchase_id: 'p-1' });
      },
    );
  });
});

describe('an approved single purchase begins once', () => {
  let db: Db;
  let store: JobParts;
  const item = newItem({ rowNumber: 1, phone: '08031112222', network: 'MTN', productCode: '', description: 'MTN airtime', amountKobo: 250_000 });
  let jobId: string;

  beforeEach(() => {
    db = openDatabase(':memory:');
    store = jobParts(db);
    jobId = store.lifecycle.createWaitingSingle('airtime', LIVE, 'MTN airtime for 08031112222', item, 'Waits for approval (team job t-1).', (id) =>
      db.prepare("INSERT INTO team_job_links (local_job_id, team_job_id, team_url, total_kobo, items, created_at, request) VALUES (?, 't-1', '', 250000, 1, ?, '{}')").run(id, AT),
    );
  });
  afterEach(() => db.close());

  it('is written waiting, linked, with nothing to send', () => {
    expect(store.reads.job(jobId)).toMatchObject({ state: 'awaiting_approval', origin: 'single', message: 'Waits for approval (team job t-1).' });
    expect(db.prepare('SELECT team_job_id FROM team_job_links WHERE local_job_id = ?').get(jobId)).toEqual({ team_job_id: 't-1' });
    expect(store.reads.items(jobId).map((i) => i.state)).toEqual(['queued']);
  });

  it('the second attempt to begin it (a retry, another window or process) is refused, and its item is as checked', () => {
    const checked = { ...item, network: 'MTN', givenNetwork: 'MTN', prefixNetwork: 'MTN' };
    expect(store.lifecycle.beginApprovedSingle(jobId, checked, { pid: process.pid, leaseMs: 60_000 })).toBe(true);
    expect(store.lifecycle.beginApprovedSingle(jobId, checked, { pid: process.pid, leaseMs: 60_000 })).toBe(false);
    expect(store.reads.job(jobId)).toMatchObject({ state: 'running', runner_pid: process.pid });
    expect(store.reads.items(jobId)[0]).toMatchObject({ state: 'queued', given_network: 'MTN', prefix_network: 'MTN' });
  });

  it('waits again when its run stopped before the item left; never once the item left', () => {
    expect(store.lifecycle.beginApprovedSingle(jobId, item, { pid: process.pid, leaseMs: 60_000 })).toBe(true);
    // Another attempt, while this process's run holds it: left alone.
    expect(store.lifecycle.backToApproval(jobId, 'Approved, not bought yet.', false)).toBe(false);
    // The run itself stopped before sending: waiting again, and begun again once.
    expect(store.lifecycle.backToApproval(jobId, 'Approved, not bought yet.', true)).toBe(true);
    expect(store.reads.job(jobId)).toMatchObject({ state: 'awaiting_approval', runner_pid: null, lease_until_ms: null, message: 'Approved, not bought yet.' });
    expect(store.lifecycle.beginApprovedSingle(jobId, item, { pid: process.pid, leaseMs: 60_000 })).toBe(true);
    store.moves.markSending(jobId, [1], 1);
    expect(store.lifecycle.backToApproval(jobId, 'Approved, not bought yet.', true)).toBe(false);
    expect(store.reads.job(jobId)?.state).toBe('running');
  });

  it('a purchase waiting for approval is not "being sent": the same purchase bought without a team is not refused by it', () => {
    expect(store.reads.singlePurchasesLike('live-1', { kind: 'airtime', phone: '08031112222', amount_kobo: 250_000, product_code: '' }, '2000-01-01T00:00:00.000Z')).toEqual([]);
  });
});
