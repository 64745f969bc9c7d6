/**
 * Issue 23 against a real PostgreSQL 15: an approval binds exactly what is bought. Each attack is
 * performed through raw SQL as a team member (what a modified client could send) and is refused:
 * a preview that shows other rows than the items, claims of rows or amounts that were never
 * approved, `prepare_job` and the internal helpers called directly, a job finished by a member who
 * has nothing to do with it, audit rows in another desktop's name; and the approval policy (two
 * approvers above an amount, an approval that expires) holds in the database.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsDigest } from '../../../src/main/team/itemsDigest';
import { teamError } from '../../../src/main/team/teamErrors';
import { migrateTeamSchema } from '../../../src/main/team/teamMigrations';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { approveRaw, claimRaw, joinDesk, prepareRaw, previewOf, rowsOf, signInAsNewMember, storedItems, type Desk, type RawClaim, type RawItem } from '../../support/teamJobs';

let cluster: PostgresCluster;
const clients: pg.Client[] = [];
let ada: pg.Client; // preparer
let bola: pg.Client; // approver
let dayo: pg.Client; // preparer and approver
let chidi: pg.Client; // admin
let eze: pg.Client; // approver
const desk: Record<string, Desk> = {
  ada: { id: 'desk-ada', name: 'Ada PC' },
  bola: { id: 'desk-bola', name: 'Bola PC' },
  dayo: { id: 'desk-dayo', name: 'Dayo PC' },
  chidi: { id: 'desk-chidi', name: 'Chidi PC' },
  eze: { id: 'desk-eze', name: 'Eze PC' },
};

async function login(name: string, roles: string[]): Promise<pg.Client> {
  const { client } = await signInAsNewMember(cluster, name, roles, desk[name]);
  clients.push(client);
  return client;
}

const approve = (client: pg.Client, who: string, jobId: string) => approveRaw(client, desk[who], jobId);

async function claim(client: pg.Client, who: string, jobId: string, row: number, amountKobo: number, ref: string): Promise<RawClaim> {
  return claimRaw(client, desk[who], jobId, row, amountKobo, ref);
}

async function setting(key: string, value: number | null): Promise<void> {
  await chidi.query('SELECT vendesk.set_team_setting($1, $2, $3, $4)', [key, JSON.stringify(value), desk.chidi.id, desk.chidi.name]);
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const setup = new pg.Client(cluster.config());
  await setup.connect();
  clients.push(setup);
  await migrateTeamSchema(setup);
  ada = await login('ada', ['vendesk_preparer']);
  bola = await login('bola', ['vendesk_approver']);
  dayo = await login('dayo', ['vendesk_preparer', 'vendesk_approver']);
  chidi = await login('chidi', ['vendesk_admin']);
  eze = await login('eze', ['vendesk_approver']);
});

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await cluster?.stop();
});

describe('what the approver sees is what is bought', () => {
  it('refuses a preview of other phones than the items, and leaves no job behind', async () => {
    const items: RawItem[] = [
      { row: 2, phone: '08099999901', amountKobo: 10_000 },
      { row: 3, phone: '08099999902', amountKobo: 10_000 },
    ];
    const shown = previewOf([
      { row: 2, phone: '08031111111', amountKobo: 10_000 },
      { row: 3, phone: '08031111112', amountKobo: 10_000 },
    ]);
    const before = (await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.jobs')).rows[0].n;
    await expect(prepareRaw(ada, desk.ada, { items, preview: shown })).rejects.toThrow(/Preview row 1 .*08031111111.* is not the item the job buys there .*08099999901/);
    // Other rows shown than there are, and a changed amount, are refused the same way.
    await expect(prepareRaw(ada, desk.ada, { items, preview: previewOf([...items, { row: 4, phone: '08031111113', amountKobo: 1 }]) })).rejects.toThrow(
      /shows 3 rows but the job has 2/,
    );
    await expect(prepareRaw(ada, desk.ada, { items, preview: previewOf([items[0], { ...items[1], amountKobo: 9_000 }]) })).rejects.toThrow(/Preview row 2/);
    expect((await cluster.superQuery<{ n: number }>('SELECT count(*)::int AS n FROM vendesk.jobs')).rows[0].n).toBe(before);
  });

  it('stores the preview derived from the items and their digest, computed in the database as vendesk computes it', async () => {
    const items: RawItem[] = [
      { row: 2, phone: '08099999901', amountKobo: 10_000, productCode: 'MTN-1GB' },
      { row: 5, phone: '08099999902', amountKobo: 25_050, network: 'Glo' },
    ];
    // A preview that shows only the first row (the rest counted) is accepted; what is stored shows both, from the items.
    const job = await prepareRaw(ada, desk.ada, { items, preview: { kind: 'data', rows: (previewOf(items).rows as unknown[]).slice(0, 1), moreRows: 1 } });
    expect(job.preview).toEqual({
      kind: 'data',
      rows: [
        { row: 2, phone: '08099999901', network: 'MTN', product: 'MTN-1GB', amountKobo: 10_000 },
        { row: 5, phone: '08099999902', network: 'Glo', product: 'data', amountKobo: 25_050 },
      ],
      moreRows: 0,
    });
    expect(job.items_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(job.items_digest).toBe(itemsDigest(storedItems(items) as never));
    const viaDb = await ada.query('SELECT vendesk.items_digest($1::jsonb) AS d', [JSON.stringify(storedItems(items))]);
    expect(viaDb.rows[0].d).toBe(job.items_digest);
    // One other recipient, plan or amount is another digest.
    expect(itemsDigest(storedItems([items[0], { ...items[1], phone: '08099999903' }]) as never)).not.toBe(job.items_digest);
    expect(itemsDigest(storedItems([{ ...items[0], productCode: 'MTN-2GB' }, items[1]]) as never)).not.toBe(job.items_digest);
    expect(itemsDigest(storedItems([items[0], { ...items[1], amountKobo: 25_051 }]) as never)).not.toBe(job.items_digest);
    // The approval's audit row and the approval itself carry it.
    await approve(bola, 'bola', job.id);
    const audit = await cluster.superQuery("SELECT detail, desktop_name FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'approve'", [job.id]);
    expect(JSON.parse(audit.rows[0].detail)).toMatchObject({ itemsDigest: job.items_digest, items: 2, approvals: 1, approvalsNeeded: 1 });
    const prepareRow = await cluster.superQuery("SELECT detail FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'prepare'", [job.id]);
    expect(JSON.parse(prepareRow.rows[0].detail).itemsDigest).toBe(job.items_digest);
    const approval = await ada.query('SELECT items_digest FROM vendesk.approvals WHERE job_id = $1', [job.id]);
    expect(approval.rows[0].items_digest).toBe(job.items_digest);
  });
});

describe('a claim is accepted only for an approved row at its approved amount', () => {
  it('refuses row 999, an amount other than the approved one, and settling what was never claimed', async () => {
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(11, 10_000) });
    await approve(bola, 'bola', job.id);
    await expect(claim(ada, 'ada', job.id, 999, 1_000_000_000_000, 'ref-999')).rejects.toThrow(/Row 999 is not one of the rows of job/);
    await expect(claim(ada, 'ada', job.id, 2, 50_000_000, 'ref-2')).rejects.toThrow(/Row 2 .* was approved at 10000 kobo, not 50000000/);
    await expect(ada.query(`SELECT vendesk.settle_item($1, 999, 'succeeded', $2, $3)`, [job.id, desk.ada.id, desk.ada.name])).rejects.toThrow(/no claim on item 999/);
    const mine = await claim(ada, 'ada', job.id, 2, 10_000, 'ref-2');
    expect(mine.request_ref).toBe('ref-2');
    const claims = await cluster.superQuery('SELECT item_index, amount_kobo::int AS kobo FROM vendesk.item_claims WHERE job_id = $1', [job.id]);
    expect(claims.rows).toEqual([{ item_index: 2, kobo: 10_000 }]);
    const sent = await cluster.superQuery("SELECT coalesce(sum(amount_kobo), 0)::bigint::int AS kobo FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'send'", [job.id]);
    expect(sent.rows[0].kobo).toBe(10_000);
  });

  it('stores a single purchase as its one item, checked against the purchase the approver is shown', async () => {
    const purchase = { kind: 'airtime', account: '08031234567', phone: '08031234567', amountKobo: 450_000, description: 'MTN airtime', customerName: null };
    const item = { rowNumber: 1, phone: '08031234567', account: '08031234567', network: 'airtime', productCode: 'MTN airtime', amountKobo: 450_000 };
    const preview = { kind: 'airtime', rows: [], moreRows: 0, purchase };
    await expect(
      ada.query('SELECT * FROM vendesk.prepare_single_job($1, $2, $3, NULL, $4, $5)', [
        desk.ada.id,
        desk.ada.name,
        'MTN airtime',
        JSON.stringify(preview),
        JSON.stringify({ ...item, phone: '08099999901', account: '08099999901' }),
      ]),
    ).rejects.toThrow(/is not the one bought/);
    const job = (
      await ada.query('SELECT * FROM vendesk.prepare_single_job($1, $2, $3, NULL, $4, $5)', [
        desk.ada.id,
        desk.ada.name,
        'MTN airtime',
        JSON.stringify(preview),
        JSON.stringify(item),
      ])
    ).rows[0];
    expect(job).toMatchObject({ kind: 'single', item_count: 1, total_kobo: '450000', items_digest: itemsDigest([item]) });
    await approve(bola, 'bola', job.id);
    await expect(claim(ada, 'ada', job.id, 1, 900_000, 'ref-s')).rejects.toThrow(/approved at 450000 kobo/);
    expect((await claim(ada, 'ada', job.id, 1, 450_000, 'ref-s')).request_ref).toBe('ref-s');
  });
});

describe('a claim is accepted only at the approved recipient, product and amount (team schema 005)', () => {
  /** The refusal a claim gets, or null when it was accepted. */
  async function refusalOf(attempt: Promise<unknown>): Promise<Error | null> {
    return attempt.then(
      () => null,
      (e: Error) => e,
    );
  }

  it('refuses an approved row claimed for another phone, another plan, another network or another amount; nothing is claimed or written', async () => {
    const items: RawItem[] = [
      { row: 2, phone: '08031111111', amountKobo: 10_000, productCode: 'MTN-1GB' },
      { row: 3, phone: '08031111112', amountKobo: 20_000, productCode: 'MTN-2GB' },
    ];
    const job = await prepareRaw(ada, desk.ada, { items });
    await approve(bola, 'bola', job.id);
    const [row2] = storedItems(items);
    const sendsBefore = (await cluster.superQuery<{ n: number }>("SELECT count(*)::int AS n FROM vendesk.audit_trail WHERE action = 'send'")).rows[0].n;
    // Another member (dayo) runs the approved job with a modified vendesk: row 2 for his own phone.
    const phone = await refusalOf(claimRaw(dayo, desk.dayo, job.id, 2, 10_000, 'ref-x1', { ...row2, phone: '08099999901' }));
    expect(phone?.message).toMatch(/^Row 2 of job .* was approved with phone 08031111111, not 08099999901: only what was approved is sent$/);
    // The preparer herself: row 2 (₦100 of MTN-1GB) as the ₦200 plan of row 3, at the approved amount.
    const plan = await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-x2', { ...row2, productCode: 'MTN-2GB' }));
    expect(plan?.message).toMatch(/was approved with product or plan MTN-1GB, not MTN-2GB/);
    expect((await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-x3', { ...row2, network: 'Glo' })))?.message).toMatch(/with network MTN, not Glo/);
    // A meter or smartcard added to a phone row, or the item left out, is refused as well.
    expect((await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-x4', { ...row2, account: '45700000001' })))?.message).toMatch(
      /with meter, account or smartcard none, not 45700000001/,
    );
    expect((await refusalOf(ada.query('SELECT vendesk.claim_item($1, 2, 10000, NULL, $2, $3, $4)', [job.id, 'ref-x5', desk.ada.id, desk.ada.name])))?.message).toMatch(
      /A claim names the item about to be sent/,
    );
    // Another amount: both the amount argument and the item's amount are the approved one's.
    expect((await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 20_000, 'ref-x6', { ...row2, amountKobo: 20_000 })))?.message).toMatch(/approved at 10000 kobo, not 20000/);
    // The item of another row of the same job is not this row's.
    expect((await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 10_000, 'ref-x7', { ...storedItems(items)[1], rowNumber: 2, amountKobo: 10_000 })))?.message).toMatch(
      /with phone 08031111111, not 08031111112/,
    );
    // A desktop reads it as a sentence: what was sent is not what was approved (never a function's name).
    const said = teamError(phone, 'claim');
    expect(said).toMatchObject({
      code: 'approval_mismatch',
      message: expect.stringMatching(/^Row 2 of job .* was approved with phone 08031111111, not 08099999901: only what was approved is sent\.$/),
    });
    expect(said.hint).toMatch(/Nothing was sent for it/);
    expect(teamError(await refusalOf(claimRaw(ada, desk.ada, job.id, 2, 20_000, 'ref-x8')), 'claim')).toMatchObject({ code: 'approval_mismatch' });
    // Nothing was claimed, no send row written, and the job still waits to be run.
    expect((await cluster.superQuery('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [job.id])).rows[0].n).toBe(0);
    expect((await cluster.superQuery<{ n: number }>("SELECT count(*)::int AS n FROM vendesk.audit_trail WHERE action = 'send'")).rows[0].n).toBe(sendsBefore);
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [job.id])).rows[0].state).toBe('approved');
  });

  it('accepts the approved item (fields a desktop keeps besides the digest’s do not matter) and writes who was sent what into the send and settle rows', async () => {
    const items: RawItem[] = [{ row: 2, phone: '08031111121', amountKobo: 15_000, productCode: 'MTN-1GB' }];
    const job = await prepareRaw(ada, desk.ada, { items });
    await approve(bola, 'bola', job.id);
    const sent = { ...storedItems(items)[0], productCode: 'MTN-1GB', name: 'Ngozi (typed differently here)', note: 'x', account: '' };
    expect((await claimRaw(dayo, desk.dayo, job.id, 2, 15_000, 'ref-ok', sent)).request_ref).toBe('ref-ok');
    await dayo.query(`SELECT vendesk.settle_item($1, 2, 'succeeded', $2, $3)`, [job.id, desk.dayo.id, desk.dayo.name]);
    const rows = await cluster.superQuery<{ action: string; amount: number; detail: string }>(
      "SELECT action, amount_kobo::int AS amount, detail FROM vendesk.audit_trail WHERE job_id = $1 AND action IN ('send', 'settle') ORDER BY seq",
      [job.id],
    );
    expect(rows.rows.map((r) => ({ action: r.action, amount: r.amount, detail: JSON.parse(r.detail) as unknown }))).toEqual([
      { action: 'send', amount: 15_000, detail: { item: 2, requestRef: 'ref-ok', phone: '08031111121', network: 'MTN', productCode: 'MTN-1GB' } },
      { action: 'settle', amount: 15_000, detail: { item: 2, outcome: 'succeeded', requestRef: 'ref-ok', phone: '08031111121', network: 'MTN', productCode: 'MTN-1GB' } },
    ]);
  });

  it('has no claim without the item: the six-argument claim_item is gone and what it became is not callable by members', async () => {
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(1, 10_000, 8038000001) });
    await approve(bola, 'bola', job.id);
    const gone = await cluster.superQuery("SELECT to_regprocedure('vendesk.claim_item(uuid, integer, bigint, text, text, text)') AS p");
    expect(gone.rows[0].p).toBeNull();
    for (const [client, who] of [
      [ada, 'ada'],
      [dayo, 'dayo'],
      [chidi, 'chidi'],
    ] as const) {
      await expect(client.query("SELECT vendesk.claim_item($1, 2, 10000, 'ref-old', $2, $3)", [job.id, desk[who].id, desk[who].name])).rejects.toThrow(/does not exist/);
      await expect(client.query("SELECT vendesk.claim_approved_row($1, 2, 10000, 'ref-old', $2, $3)", [job.id, desk[who].id, desk[who].name])).rejects.toThrow(/permission denied/);
      await expect(client.query("SELECT vendesk.claim_item_of_open_job($1, 2, 10000, 'ref-old', $2, $3)", [job.id, desk[who].id, desk[who].name])).rejects.toThrow(
        /permission denied/,
      );
    }
    // A desktop still on an older vendesk (which claims that way) is told why, in words.
    const older = await refusalOf(ada.query("SELECT vendesk.claim_item($1, 2, 10000, 'ref-old', $2, $3)", [job.id, desk.ada.id, desk.ada.name]));
    expect(teamError(older, 'claim')).toMatchObject({ code: 'team_schema_newer', hint: expect.stringMatching(/Update vendesk on this desktop/) });
    const executable = await cluster.superQuery<{ f: string }>(
      `SELECT p.oid::regprocedure::text AS f FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'vendesk' AND p.proname LIKE 'claim%' AND has_function_privilege('vendesk_member', p.oid, 'EXECUTE')`,
    );
    // (and, since team schema 8, the claim of a standing order's occurrence, which makes a job rather than sending a row)
    expect(executable.rows.map((r) => r.f).sort()).toEqual([
      'vendesk.claim_item(uuid,integer,bigint,jsonb,text,text,text)',
      'vendesk.claim_standing_occurrence(uuid,date,date,integer,text,text,bigint,jsonb,jsonb,boolean,text,text)',
    ]);
    expect((await cluster.superQuery('SELECT count(*)::int AS n FROM vendesk.item_claims WHERE job_id = $1', [job.id])).rows[0].n).toBe(0);
  });
});

describe('only the intended functions are callable', () => {
  it('refuses prepare_job to a preparer (a job with no items and a made-up desktop name)', async () => {
    await expect(ada.query(`SELECT vendesk.prepare_job('bulk', $1, 'Made-up PC', NULL, 'x.xlsx', NULL, false, 1, 100, NULL, '{}'::jsonb)`, [desk.ada.id])).rejects.toThrow(
      /permission denied for function prepare_job/,
    );
  });

  it('lets a member with every role execute only the functions meant for members', async () => {
    const password = await cluster.createLogin('omni', ['vendesk_admin', 'vendesk_preparer', 'vendesk_approver', 'vendesk_member']);
    void password;
    const r = await cluster.superQuery<{ name: string }>(
      `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'vendesk' AND has_function_privilege('omni', p.oid, 'EXECUTE') ORDER BY 1`,
    );
    expect(r.rows.map((x) => x.name)).toEqual([
      'adopt_job',
      'approve_standing_order',
      'audit_row_hash',
      'cancel_job',
      'claim_item',
      'claim_standing_occurrence',
      'close_month',
      'decide_job',
      'finish_job',
      'items_digest',
      'move_standing_order',
      'prepare_bulk_job',
      'prepare_single_job',
      'publish_standing_version',
      'record_desktop_cap_change',
      'record_join',
      'record_profile_change',
      'record_reconcile_run',
      'reopen_month',
      'resolve_reconcile_entry',
      'set_team_setting',
      'settle_item',
      'skip_standing_occurrence',
      'standing_approval_of',
      'standing_approval_refusal',
    ]);
    for (const call of [
      `SELECT vendesk.audit_append('${desk.ada.id}', 'x', 'send', NULL, 1, '{}'::jsonb)`,
      `SELECT vendesk.require_role('vendesk_member', 'x')`,
      `SELECT vendesk.prepare_job_with_items('bulk', '${desk.ada.id}', 'x', NULL, NULL, NULL, false, 1, 1, NULL, '{}', '{}', '[]')`,
      `SELECT vendesk.desktop_name_of('${desk.ada.id}')`,
    ]) {
      await expect(ada.query(call)).rejects.toThrow(/permission denied/);
    }
  });

  it('gives a function the owner creates later no EXECUTE for PUBLIC', async () => {
    await cluster.superQuery('SET ROLE vendesk_owner; CREATE FUNCTION vendesk.later_helper() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$; RESET ROLE;');
    await expect(ada.query('SELECT vendesk.later_helper()')).rejects.toThrow(/permission denied/);
    await cluster.superQuery('DROP FUNCTION vendesk.later_helper()');
  });
});

describe('who may finish or cancel a job', () => {
  it('refuses a member who neither adopted it, prepared it nor administers, even holding a claim; the preparer and an admin may, each an audit row', async () => {
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(2, 10_000, 8032000001), sha: 'f'.repeat(64) });
    await approve(bola, 'bola', job.id);
    const finish = (client: pg.Client, who: string, id: string) => client.query('SELECT * FROM vendesk.finish_job($1, $2, $3)', [id, desk[who].id, desk[who].name]);
    const notAllowed = /Only the preparer of job .* \(ada\), an admin, or a desktop that adopted the job to run it may finish it/;
    await expect(finish(dayo, 'dayo', job.id)).rejects.toThrow(notAllowed);
    await expect(dayo.query('SELECT vendesk.cancel_job($1, $2, $3)', [job.id, desk.dayo.id, desk.dayo.name])).rejects.toThrow(
      /Only the preparer of job .* or an admin may cancel it/,
    );
    await expect(ada.query('SELECT vendesk.finish_job($1)', [job.id])).rejects.toThrow(/does not exist/);
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [job.id])).rows[0].state).toBe('approved');
    // dayo claims a row (team schema 7: a claim alone does not make his desktop the one running it).
    await claim(dayo, 'dayo', job.id, 2, 10_000, 'ref-d2');
    await expect(finish(dayo, 'dayo', job.id)).rejects.toThrow(notAllowed);
    expect((await cluster.superQuery('SELECT state FROM vendesk.jobs WHERE id = $1', [job.id])).rows[0].state).toBe('running');
    // Its preparer may.
    expect((await finish(ada, 'ada', job.id)).rows[0].state).toBe('finished');
    const rows = await cluster.superQuery("SELECT actor, desktop_name FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'finish'", [job.id]);
    expect(rows.rows).toEqual([{ actor: 'ada', desktop_name: 'Ada PC' }]);
    // An admin cancels another's waiting job, audited.
    const other = await prepareRaw(ada, desk.ada, { items: rowsOf(1, 10_000, 8033000001) });
    await chidi.query('SELECT vendesk.cancel_job($1, $2, $3)', [other.id, desk.chidi.id, desk.chidi.name]);
    const cancel = await cluster.superQuery("SELECT actor FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'cancel'", [other.id]);
    expect(cancel.rows).toEqual([{ actor: 'chidi' }]);
  });
});

describe('desktops are registered', () => {
  it('binds a desktop id to the role that first joined with it; audit rows carry the registered name', async () => {
    await expect(joinDesk(ada, desk.bola)).rejects.toThrow(/Desktop desk-bola is registered to another team member/);
    // Preparing "from" bola's desktop, or from a desktop never joined, is refused; nothing is written.
    await expect(prepareRaw(ada, desk.bola, { items: rowsOf(1, 10_000, 8034000001) })).rejects.toThrow(/not registered to ada/);
    await expect(prepareRaw(ada, { id: 'desk-never', name: 'Nowhere' }, { items: rowsOf(1, 10_000, 8034000001) })).rejects.toThrow(/not registered to ada/);
    await expect(ada.query(`SELECT vendesk.record_profile_change($1, 'Bola PC', '{}'::jsonb)`, [desk.bola.id])).rejects.toThrow(/not registered to ada/);
    // A name passed with one's own desktop id is not what the trail says: the registry's name is.
    const job = await prepareRaw(ada, { id: desk.ada.id, name: 'Finance Lead PC' }, { items: rowsOf(1, 10_000, 8034000001) });
    const row = await cluster.superQuery("SELECT desktop_name FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'prepare'", [job.id]);
    expect(row.rows[0].desktop_name).toBe('Ada PC');
    expect((await cluster.superQuery('SELECT desktop_name FROM vendesk.jobs WHERE id = $1', [job.id])).rows[0].desktop_name).toBe('Ada PC');
    const registry = await ada.query('SELECT desktop_id, desktop_name, role FROM vendesk.desktops WHERE desktop_id = $1', [desk.ada.id]);
    expect(registry.rows).toEqual([{ desktop_id: desk.ada.id, desktop_name: 'Ada PC', role: 'ada' }]);
    await expect(ada.query(`UPDATE vendesk.desktops SET role = 'ada' WHERE desktop_id = $1`, [desk.bola.id])).rejects.toThrow(/permission denied/);
  });
});

describe('approval policy', () => {
  it('needs two different approvers above the dual-approval amount, neither the preparer', async () => {
    await expect(ada.query(`SELECT vendesk.set_team_setting('dual_approval_above_kobo', '100000', $1, $2)`, [desk.ada.id, desk.ada.name])).rejects.toThrow(/permission denied/);
    await setting('dual_approval_above_kobo', 100_000);
    const big = await prepareRaw(ada, desk.ada, { items: rowsOf(2, 60_000, 8035000001) });
    const small = await prepareRaw(ada, desk.ada, { items: rowsOf(1, 100_000, 8036000001) });
    expect((await approve(bola, 'bola', small.id)).state).toBe('approved');
    expect((await approve(bola, 'bola', big.id)).state).toBe('awaiting_approval');
    await expect(approve(bola, 'bola', big.id)).rejects.toThrow(/You approved job .* already/);
    await expect(claim(ada, 'ada', big.id, 2, 60_000, 'ref-big')).rejects.toThrow(/awaiting_approval/);
    expect((await approve(eze, 'eze', big.id)).state).toBe('approved');
    const approvals = await ada.query('SELECT decided_by FROM vendesk.approvals WHERE job_id = $1 ORDER BY decided_at', [big.id]);
    expect(approvals.rows.map((r) => r.decided_by)).toEqual(['bola', 'eze']);
    const audit = await cluster.superQuery("SELECT actor, detail FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'approve' ORDER BY seq", [big.id]);
    expect(audit.rows.map((r) => [r.actor, JSON.parse(r.detail).approvals, JSON.parse(r.detail).approvalsNeeded])).toEqual([
      ['bola', 1, 2],
      ['eze', 2, 2],
    ]);
    const settingRow = await cluster.superQuery("SELECT actor, amount_kobo::int AS kobo, detail FROM vendesk.audit_trail WHERE action = 'cap_change' ORDER BY seq DESC LIMIT 1");
    expect(settingRow.rows[0]).toMatchObject({ actor: 'chidi', kobo: 100_000 });
    await setting('dual_approval_above_kobo', null);
  });

  it('refuses new claims once the approval is older than the valid minutes, and answers claims made before', async () => {
    await setting('approval_valid_minutes', 30);
    const job = await prepareRaw(ada, desk.ada, { items: rowsOf(3, 10_000, 8037000001) });
    await approve(bola, 'bola', job.id);
    expect((await claim(ada, 'ada', job.id, 2, 10_000, 'ref-e2')).request_ref).toBe('ref-e2');
    // 31 minutes pass (the superuser moves the approval back in time, triggers off).
    await cluster.superQuery(
      "BEGIN; SET LOCAL session_replication_role = replica; UPDATE vendesk.approvals SET decided_at = decided_at - interval '31 minutes' WHERE job_id = '" + job.id + "'; COMMIT;",
    );
    await expect(claim(ada, 'ada', job.id, 3, 10_000, 'ref-e3')).rejects.toThrow(/The approval of job .* expired at .*valid for 30 minutes/);
    expect((await claim(ada, 'ada', job.id, 2, 10_000, 'ref-e2')).request_ref).toBe('ref-e2');
    await setting('approval_valid_minutes', null);
    expect((await claim(ada, 'ada', job.id, 3, 10_000, 'ref-e3')).request_ref).toBe('ref-e3');
    await expect(setting('approval_valid_minutes', 0)).rejects.toThrow(/1 minute to 10 years/);
  });
});
