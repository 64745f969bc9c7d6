/**
 * Refusals a team member reads, against a real PostgreSQL 15 (issue 23, items 6 and 8, and
 * "encrypted by default"):
 * - a member holding the audit trail's lock (`BEGIN; SELECT vendesk.record_join(…)` left open in
 *   psql) cannot stall an approver: `vendesk approve` fails within the lock timeout saying the
 *   database is busy, and once the holder lets go nothing of the failed command was committed;
 * - PostgreSQL's refusals reach the user as sentences, never a function's name;
 * - a database on another host without TLS, or with a certificate this computer does not trust, is
 *   refused in words before the password is sent.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamError } from '../../../src/main/team/teamErrors';
import { teamClientConfig } from '../../../src/main/team/teamLink';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { startCliPeer, type CliPeer, type CliRun } from '../cli/cliHarness';
import { until } from '../../support/until';

let cluster: PostgresCluster;
const desks: Record<string, CliPeer> = {};
const pw: Record<string, string> = {};
const clients: pg.Client[] = [];

const url = (user: string) => `postgres://${user}@127.0.0.1:${cluster.port}/postgres`;

async function joinAs(name: string, roles: string[]): Promise<void> {
  pw[name] = await cluster.createLogin(name, roles);
  desks[name] = await startCliPeer(`team-refusals-${name}`);
  const file = path.join(desks[name].dir, `${name}.pw`);
  fs.writeFileSync(file, `${pw[name]}\n`, { mode: 0o600 });
  await desks[name].json(['team', 'join', '--url', url(name), '--password-file', file]);
}

async function connectAs(name: string): Promise<pg.Client> {
  const client = new pg.Client(cluster.config(name, pw[name]));
  await client.connect();
  clients.push(client);
  return client;
}

/** A team job waiting for approval, prepared by `preparer` (written by the superuser: only its state matters here). */
async function waitingJob(preparer: string): Promise<string> {
  const r = await cluster.superQuery<{ id: string }>(
    `INSERT INTO vendesk.jobs (kind, desktop_id, desktop_name, claim_scope, item_count, total_kobo, preview, prepared_by)
     VALUES ('bulk', 'desk-x', 'Desk X', 'job:' || gen_random_uuid(), 1, 10000, '{}'::jsonb, $1) RETURNING id`,
    [preparer],
  );
  return r.rows[0].id;
}

/**
 * What bola reads when vendesk connects to `address` with the TLS settings that address gets,
 * the connection itself going to 127.0.0.1 on the address's port (the address names another host).
 */
async function refusalConnectingTo(address: string): Promise<ReturnType<typeof teamError>> {
  const client = new pg.Client({ ...teamClientConfig(address, pw.bola), host: '127.0.0.1' });
  client.on('error', () => undefined);
  const failure = await client.connect().then(
    () => null,
    (e: unknown) => e,
  );
  await client.end().catch(() => undefined);
  return teamError(failure);
}

function errorOf(run: CliRun): { code: string; message: string; hint?: string } {
  return (JSON.parse(run.stdout) as { error: { code: string; message: string; hint?: string } }).error;
}

/** Nothing of the schema's insides in what the member reads. */
function expectNoInternals(run: CliRun): void {
  expect(run.stdout + run.stderr).not.toMatch(/decide_job|set_team_setting|permission denied|function|vendesk\.\w+\(/i);
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const setup = new pg.Client(cluster.config());
  await setup.connect();
  const { migrateTeamSchema } = await import('../../../src/main/team/teamMigrations');
  await migrateTeamSchema(setup);
  await setup.end();
  await joinAs('ada', ['vendesk_preparer']);
  await joinAs('bola', ['vendesk_approver']);
  await joinAs('dayo', ['vendesk_preparer', 'vendesk_approver']);
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  for (const d of Object.values(desks)) await d.close();
  await cluster?.stop();
});

describe('no member can stall the team', () => {
  it("fails the approver's command with a sentence while a member holds the trail's lock, and commits nothing of it later", async () => {
    const jobId = await waitingJob('ada');
    const holder = await connectAs('ada');
    await holder.query('BEGIN');
    await holder.query("SELECT vendesk.record_join('holder-desk', 'psql left open')");
    let approve: CliRun;
    try {
      approve = await desks.bola.run(['approve', jobId]);
    } finally {
      await holder.query('COMMIT');
    }
    expect(approve.code).toBe(1);
    expect(errorOf(approve)).toMatchObject({ code: 'team_busy', message: 'The team database is busy; try again in a moment.' });
    expectNoInternals(approve);
    // The holder has let go: the failed command's approval was aborted by the server, not queued.
    const approvals = await cluster.superQuery('SELECT * FROM vendesk.approvals WHERE job_id = $1', [jobId]);
    expect(approvals.rows).toEqual([]);
    const job = await cluster.superQuery<{ state: string }>('SELECT state FROM vendesk.jobs WHERE id = $1', [jobId]);
    expect(job.rows[0].state).toBe('awaiting_approval');
    const audit = await cluster.superQuery("SELECT * FROM vendesk.audit_trail WHERE job_id = $1 AND action = 'approve'", [jobId]);
    expect(audit.rows).toEqual([]);
    // Free again, the same command approves.
    expect(await desks.bola.json(['approve', jobId])).toMatchObject({ state: 'approved', decidedBy: 'bola' });
  });

  it('commits nothing of a call whose vendesk went away while it waited (Ctrl-C, a crash), even when the lock frees in time', async () => {
    const jobId = await waitingJob('ada');
    const holder = await connectAs('ada');
    await holder.query('BEGIN');
    await holder.query("SELECT vendesk.record_join('holder-desk', 'psql left open')");
    // Without the lock timeout, so that only the server's check of the connection can end the wait.
    const bola = new pg.Client({ ...teamClientConfig(url('bola'), pw.bola), lock_timeout: 0 });
    bola.on('error', () => undefined);
    await bola.connect();
    const pid = (await bola.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    // bola's own desktop, registered when it joined (team schema 004 refuses any other desktop id at once, before the lock).
    const desk = (await cluster.superQuery<{ desktop_id: string; desktop_name: string }>("SELECT desktop_id, desktop_name FROM vendesk.desktops WHERE role = 'bola'")).rows[0];
    const approving = bola.query("SELECT vendesk.decide_job($1, 'approved', '', $2, $3)", [jobId, desk.desktop_id, desk.desktop_name]).catch(() => 'gone');
    // The approval waits for the holder's lock; then its process disappears without a word.
    await until(
      async () => (await cluster.superQuery<{ w: string | null }>('SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0]?.w === 'Lock',
      'the member to wait on the lock',
    );
    (bola as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect(await approving).toBe('gone');
    // The server notices within its check interval and aborts the waiting call; only then does the holder let go.
    await until(async () => (await cluster.superQuery('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rows.length === 0, "the member's connection to end");
    await holder.query('COMMIT');
    const approvals = await cluster.superQuery('SELECT * FROM vendesk.approvals WHERE job_id = $1', [jobId]);
    expect(approvals.rows).toEqual([]);
  });

  it('signs every team connection in with a lock timeout, a statement timeout, an idle-in-transaction limit, a check that its client is there and its own search path', async () => {
    const config = teamClientConfig(url('bola'), pw.bola);
    // The database's owner setting other defaults changes nothing of that.
    await cluster.superQuery("ALTER DATABASE postgres SET lock_timeout = 0; ALTER DATABASE postgres SET search_path = 'public, pg_catalog'");
    const client = new pg.Client(config);
    await client.connect();
    clients.push(client);
    const r = await client.query<{ lock: string; statement: string; idle: string; check: string; path: string }>(
      `SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS statement,
         current_setting('idle_in_transaction_session_timeout') AS idle, current_setting('client_connection_check_interval') AS check,
         current_setting('search_path') AS path`,
    );
    expect(r.rows[0]).toEqual({ lock: '5s', statement: '1min', idle: '1min', check: '1s', path: 'pg_catalog,vendesk,pg_temp' });
    await cluster.superQuery('ALTER DATABASE postgres RESET lock_timeout; ALTER DATABASE postgres RESET search_path');
  });
});

describe('refusals in sentences', () => {
  it('a preparer approving or rejecting: "You cannot approve: your role holds no approver role."', async () => {
    const jobId = await waitingJob('dayo');
    const approve = await desks.ada.run(['approve', jobId]);
    expect(approve.code).toBe(1);
    expect(errorOf(approve)).toMatchObject({ code: 'team_refused', message: 'You cannot approve: your role holds no approver role.' });
    expectNoInternals(approve);
    const reject = await desks.ada.run(['reject', jobId, '--note', 'no'], 'globals first', { json: false });
    expect(reject.code).toBe(1);
    expect(reject.stderr + reject.stdout).toContain('You cannot reject: your role holds no approver role.');
    expectNoInternals(reject);
  });

  it('approving your own job: "The approver cannot be the preparer."', async () => {
    const jobId = await waitingJob('dayo');
    const own = await desks.dayo.run(['approve', jobId]);
    expect(own.code).toBe(1);
    expect(errorOf(own)).toMatchObject({ code: 'team_refused', message: 'The approver cannot be the preparer.' });
    expectNoInternals(own);
  });

  it('a member who is no admin changing the threshold: "You cannot change team settings: your role holds no admin role."', async () => {
    const r = await desks.bola.run(['team', 'threshold', '50000']);
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ code: 'team_refused', message: 'You cannot change team settings: your role holds no admin role.' });
    expectNoInternals(r);
  });

  it("the schema's own refusals in people's words pass on; a role rule names the role, not the function", () => {
    expect(teamError(Object.assign(new Error('Only a member of vendesk_admin may change team settings'), { code: '42501' })).message).toBe(
      'You cannot change team settings: your role holds no admin role.',
    );
    expect(teamError(Object.assign(new Error('Only the desktop running job 1, its preparer or an admin may finish it'), { code: '42501' })).message).toBe(
      'Only the desktop running job 1, its preparer or an admin may finish it.',
    );
  });

  it('a raw PostgreSQL refusal naming a function never reaches the user as is', () => {
    for (const message of ['permission denied for function decide_job', 'function vendesk.prepare_job(text) does not exist', 'permission denied for table jobs']) {
      const e = teamError(Object.assign(new Error(message), { code: message.startsWith('function') ? '42883' : '42501' }));
      expect(e.message).not.toMatch(/decide_job|prepare_job|function|permission denied|jobs/);
    }
  });
});

describe('encrypted by default', () => {
  it('refuses a database on another host that does not offer TLS, in words, before the password is sent', async () => {
    // The address names another host; the connection is pointed at the test cluster (TLS off) with
    // the TLS settings that address gets.
    const address = `postgres://bola@db.example.ng:${cluster.port}/postgres`;
    expect(teamClientConfig(address, pw.bola).ssl).toEqual({ rejectUnauthorized: true, servername: 'db.example.ng' });
    const error = await refusalConnectingTo(address);
    expect(error.code).toBe('team_tls_unavailable');
    expect(error.message).toMatch(/does not accept encrypted connections/);
    expect(error.hint).toMatch(/sslmode=disable/);
  });

  it('refuses a server whose certificate this computer does not trust, in words, before the password is sent', async () => {
    // A server that answers PostgreSQL's TLS request with a certificate it signed itself for db.example.ng.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-tls-'));
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=db.example.ng', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const context = { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
    let receivedAfterTls = 0;
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write('S');
        const secure = new tls.TLSSocket(socket, { isServer: true, ...context });
        secure.on('data', (d) => (receivedAfterTls += d.length));
        secure.on('error', () => undefined);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const error = await refusalConnectingTo(`postgres://bola@db.example.ng:${port}/postgres`);
      expect(error.code).toBe('team_tls_certificate');
      expect(error.message).toMatch(/certificate could not be trusted/);
      expect(error.message + (error.hint ?? '')).not.toContain(pw.bola);
      expect(receivedAfterTls).toBe(0); // not even the sign-in (with the password) was sent
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
