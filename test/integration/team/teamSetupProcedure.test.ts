/**
 * The setup procedure of docs/team.md, followed word for word against a real PostgreSQL 15: its
 * SQL blocks run as the role each names (`-- as postgres`, `-- as vendesk_setup`; psql's
 * `\password ROLE` becomes the ALTER ROLE … PASSWORD it sends), its `vendesk` lines run through the
 * CLI (the example server replaced by the test cluster, each `--password-file` written with the
 * password of the role in the address). The setup join exits 0 saying the schema is ready; then
 * the forger of issue 23 (the setup role granting itself vendesk_owner, switching triggers off,
 * approving in another member's name, resetting a member's password) is refused at every step.
 * Edit the procedure in the docs to something unsafe and this test fails.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { ROOT } from '../../support/testApp';
import { startCliPeer, type CliPeer, type CliRun } from '../cli/cliHarness';

const START = '<!-- setup procedure:';
const END = '<!-- end of setup procedure -->';

interface Block {
  lang: 'sql' | 'sh';
  lines: string[];
}

function procedureBlocks(): Block[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'team.md'), 'utf8');
  const section = doc.slice(doc.indexOf(START), doc.indexOf(END));
  expect(section.length).toBeGreaterThan(0);
  return [...section.matchAll(/```(sql|sh)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] as 'sql' | 'sh', lines: m[2].split('\n').filter((l) => l.trim() !== '') }));
}

let cluster: PostgresCluster;
let desk: CliPeer;
let database = '';
const passwords: Record<string, string> = {};
const clients: pg.Client[] = [];
const runs: { line: string; run: CliRun }[] = [];

async function connect(user: string, db: string): Promise<pg.Client> {
  const client = new pg.Client(user === cluster.superuser ? cluster.config(undefined, undefined, db) : cluster.config(user, passwords[user], db));
  await client.connect();
  clients.push(client);
  return client;
}

/** One SQL block, statement by statement, as the role its first line names. */
async function runSql(block: Block): Promise<void> {
  const who = /^-- as (\S+)/.exec(block.lines[0])?.[1];
  expect(who, 'each SQL block of the procedure says who runs it').toBeDefined();
  const client = who === 'postgres' ? await connect(cluster.superuser, cluster.database) : await connect(who!, database);
  let statement = '';
  for (const line of block.lines.slice(1)) {
    const meta = /^\\password (\S+)$/.exec(line.trim());
    if (meta) {
      passwords[meta[1]] = crypto.randomBytes(18).toString('base64url');
      await client.query(`ALTER ROLE ${meta[1]} PASSWORD '${passwords[meta[1]]}'`);
      continue;
    }
    statement += `${line}\n`;
    if (line.trim().endsWith(';')) {
      const created = /CREATE DATABASE (\w+)/.exec(statement);
      if (created) database = created[1];
      await client.query(statement);
      statement = '';
    }
  }
  expect(statement.trim()).toBe('');
}

/** One `vendesk …` line as typed, against the test cluster; the password file holds the role's password. */
async function runCommand(line: string): Promise<void> {
  const words = line.trim().split(/\s+/);
  expect(words[0]).toBe('vendesk');
  const args = words.slice(1).map((w) => w.replace('db.example.ng:5432', `127.0.0.1:${cluster.port}`));
  const url = args[args.indexOf('--url') + 1];
  const at = args.indexOf('--password-file');
  if (at >= 0) {
    const role = decodeURIComponent(new URL(url).username);
    const file = path.join(desk.dir, path.basename(args[at + 1]));
    fs.writeFileSync(file, `${passwords[role]}\n`, { mode: 0o600 });
    args[at + 1] = file;
  }
  runs.push({ line, run: await desk.run(args, 'globals first', { json: false }) });
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  desk = await startCliPeer('team-setup-procedure');
  for (const block of procedureBlocks()) {
    if (block.lang === 'sql') await runSql(block);
    else for (const line of block.lines) await runCommand(line);
  }
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => undefined);
  await desk?.close();
  await cluster?.stop();
});

describe('the setup procedure of docs/team.md, word for word', () => {
  it('joins with the setup role with exit 0: the schema is ready, the roles come next', () => {
    const setupJoin = runs.find((r) => r.line.includes('postgres://vendesk_setup@'));
    expect(setupJoin?.run.code, setupJoin?.run.stdout).toBe(0);
    expect(setupJoin?.run.stdout).toMatch(/The schema is ready \(version \d+, set up \(steps 1, [\d, ]+\)\); now create the team's roles/);
    expect(setupJoin?.run.stdout).toContain('This desktop is not joined');
    for (const r of runs) expect(r.run.stdout + r.run.stderr).not.toContain(passwords.vendesk_setup);
  });

  it('ends with every command exiting 0, and team doctor calling the setup finished', async () => {
    for (const r of runs) expect(r.run.code, `${r.line}\n${r.run.stdout}${r.run.stderr}`).toBe(0);
    expect(runs.at(-1)?.line).toMatch(/^vendesk team doctor/);
    expect(runs.at(-1)?.run.stdout).toMatch(/Setup: +finished/);
    const status = await desk.json<{ user: string; roles: string[]; setup: { finished: boolean; problems: unknown[] } }>(['team', 'status']);
    expect(status).toMatchObject({ roles: ['preparer', 'approver', 'admin'], setup: { finished: true, problems: [] } });
  });

  it('gave the database a limit on transactions left open', async () => {
    const r = await cluster.superQuery<{ setconfig: string[] }>(
      'SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = $1 AND s.setrole = 0',
      [database],
    );
    expect(r.rows[0]?.setconfig).toContain('idle_in_transaction_session_timeout=60s');
  });

  it("leaves the setup role unable to forge: it cannot become vendesk_owner, approve in bola's name, or change bola's password", async () => {
    const superuser = await connect(cluster.superuser, database);
    const job = await superuser.query<{ id: string }>(
      `INSERT INTO vendesk.jobs (kind, desktop_id, desktop_name, claim_scope, item_count, total_kobo, preview, prepared_by)
       VALUES ('bulk', 'desk-ada', 'Ada PC', 'job:forged-test', 2, 20000, '{}'::jsonb, 'ada') RETURNING id`,
    );
    const jobId = job.rows[0].id;
    const setup = await connect('vendesk_setup', database);
    const attack = [
      'GRANT vendesk_owner TO vendesk_setup',
      'SET ROLE vendesk_owner',
      'ALTER ROLE vendesk_setup CREATEROLE',
      'ALTER ROLE vendesk_setup SUPERUSER',
      'ALTER TABLE vendesk.approvals DISABLE TRIGGER USER',
      `INSERT INTO vendesk.approvals (job_id, prepared_by, decision, decided_by, desktop_id, desktop_name) VALUES ('${jobId}', 'ada', 'approved', 'bola', 'desk-bola', 'Bola PC')`,
      `UPDATE vendesk.jobs SET state = 'approved' WHERE id = '${jobId}'`,
      'ALTER TABLE vendesk.approvals DROP CONSTRAINT approver_is_not_preparer',
      "ALTER ROLE bola PASSWORD 'chosen-by-the-forger'",
      'CREATE ROLE forged_approver LOGIN',
    ];
    for (const sql of attack) await expect(setup.query(sql), sql).rejects.toThrow(/permission denied|must have admin option|must be owner|must be superuser/);
    const approvals = await superuser.query('SELECT * FROM vendesk.approvals WHERE job_id = $1', [jobId]);
    expect(approvals.rows).toEqual([]);
    const state = await superuser.query<{ state: string }>('SELECT state FROM vendesk.jobs WHERE id = $1', [jobId]);
    expect(state.rows[0].state).toBe('awaiting_approval');
    // bola's password is still bola's own.
    const bola = await connect('bola', database);
    expect((await bola.query('SELECT session_user AS u')).rows[0].u).toBe('bola');
  });
});

describe('vendesk team doctor', () => {
  it('names every login role that could still forge, with what removes its power (exit 1), and is content once they are gone', async () => {
    await cluster.superQuery('CREATE ROLE mallory LOGIN CREATEROLE');
    await cluster.superQuery('CREATE ROLE eve LOGIN');
    await cluster.superQuery('GRANT vendesk_owner TO eve');
    await cluster.superQuery('CREATE ROLE role_makers NOLOGIN CREATEROLE');
    await cluster.superQuery('CREATE ROLE frank LOGIN IN ROLE role_makers');
    await cluster.superQuery('CREATE ROLE owners NOLOGIN IN ROLE vendesk_owner');
    await cluster.superQuery('CREATE ROLE grace LOGIN');
    await cluster.superQuery('GRANT owners TO grace WITH ADMIN OPTION');
    try {
      const doctor = await desk.run(['team', 'doctor']);
      expect(doctor.code).toBe(1);
      const problems = (JSON.parse(doctor.stdout) as { setup: { finished: boolean; problems: { role: string; kind: string; fix: string }[] } }).setup;
      expect(problems.finished).toBe(false);
      expect(problems.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ role: 'mallory', kind: 'createrole', fix: expect.stringContaining('ALTER ROLE mallory NOCREATEROLE;') }),
          expect.objectContaining({ role: 'eve', kind: 'owner', fix: 'REVOKE vendesk_owner FROM eve;' }),
          expect.objectContaining({ role: 'frank', kind: 'createrole', fix: 'REVOKE role_makers FROM frank;' }),
          expect.objectContaining({
            role: 'grace',
            kind: 'owner',
            message: expect.stringMatching(/^grace can become vendesk_owner \(through owners, a role it holds\)/),
            fix: 'REVOKE owners FROM grace;',
          }),
        ]),
      );
      const status = await desk.run(['team', 'status'], 'globals first', { json: false });
      expect(status.stdout).toMatch(
        /Setup: +NOT finished[\s\S]*eve can become vendesk_owner:[\s\S]*frank can become role_makers, which may create roles[\s\S]*mallory may create roles/,
      );
    } finally {
      await cluster.superQuery('DROP ROLE mallory; DROP ROLE eve; DROP ROLE frank; DROP ROLE role_makers; DROP ROLE grace; DROP ROLE owners');
    }
    expect((await desk.run(['team', 'doctor'])).code).toBe(0);
  });
});
