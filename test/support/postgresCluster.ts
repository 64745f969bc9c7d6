/**
 * A real, throwaway PostgreSQL 15 cluster for tests (Debian's `postgresql` package): `initdb` into a
 * fresh temp folder, started with `pg_ctl` on a free 127.0.0.1 port with its socket in that folder,
 * stopped and removed by `stop()`. PostgreSQL refuses to run as root, so as root the folder is given
 * to the `postgres` user and the binaries run through `runuser`; otherwise they run directly.
 *
 * TCP connections need a password (scram-sha-256), as on a team's real server; the superuser's
 * password is made here and only ever passed in a connection config, never on a command line.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export interface PostgresCluster {
  host: '127.0.0.1';
  port: number;
  /** The cluster's superuser (`postgres` as root, else the current user). */
  superuser: string;
  superuserPassword: string;
  database: string;
  /** A connection config for `user` (the superuser by default). */
  config(user?: string, password?: string, database?: string): pg.ClientConfig;
  /** Runs SQL as the superuser on one connection and closes it. */
  superQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Runs SQL as the superuser with every trigger off (`session_replication_role = replica`), in one transaction: what only a superuser can do. */
  forge(sql: string, params?: unknown[]): Promise<void>;
  /** Creates a login role with a random password (member of `grantRoles`); returns its password. */
  createLogin(name: string, grantRoles?: string[]): Promise<string>;
  /** Shuts the server down at once (synchronously: nothing of the caller runs in between), keeping its data. */
  halt(): void;
  /** Starts it again after `halt`, on the same port with the same data. */
  restart(): void;
  stop(): Promise<void>;
}

function run(bin: string, args: string[]): SpawnSyncReturns<string> {
  const file = path.join(POSTGRES_BIN, bin);
  const r = isRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8', timeout: 120_000 })
    : spawnSync(file, args, { encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw new Error(`${bin} could not run: ${r.error.message} (install Debian's postgresql package: apt-get install -y postgresql)`);
  return r;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!fs.existsSync(path.join(POSTGRES_BIN, 'initdb'))) {
    throw new Error(`No PostgreSQL at ${POSTGRES_BIN}: install Debian's postgresql package (apt-get install -y postgresql) or set POSTGRES_BIN.`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-pg-'));
  const data = path.join(dir, 'data');
  const superuser = isRoot ? 'postgres' : os.userInfo().username;
  const superuserPassword = crypto.randomBytes(18).toString('base64url');
  const pwfile = path.join(dir, 'pwfile');
  fs.writeFileSync(pwfile, `${superuserPassword}\n`, { mode: 0o600 });
  if (isRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) throw new Error("There is no postgres user: install Debian's postgresql package (apt-get install -y postgresql).");
    const uid = Number(id.stdout.trim());
    const group = Number(gid.stdout.trim());
    fs.chownSync(dir, uid, group);
    fs.chownSync(pwfile, uid, group);
  }
  const init = run('initdb', ['-D', data, '-U', superuser, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  fs.rmSync(pwfile, { force: true });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);

  let port = 0;
  const startOn = (p: number) => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${p} -k ${dir} -h 127.0.0.1 -c fsync=off`, 'start']);
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    const started = startOn(port);
    if (started.status === 0) break;
    if (attempt >= 2) {
      const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
      throw new Error(`pg_ctl start failed: ${started.stderr}\n${log}`);
    }
  }

  const database = 'postgres';
  const config = (user = superuser, password = superuserPassword, db = database): pg.ClientConfig => ({
    host: '127.0.0.1',
    port,
    user,
    password,
    database: db,
  });
  const superQuery = async <R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>> => {
    const client = new pg.Client(config());
    await client.connect();
    try {
      return await client.query<R>(sql, params);
    } finally {
      await client.end();
    }
  };
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    superuser,
    superuserPassword,
    database,
    config,
    superQuery,
    async forge(sql, params) {
      const client = new pg.Client(config());
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL session_replication_role = replica');
        await client.query(sql, params);
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    },
    async createLogin(name, grantRoles = []) {
      const password = crypto.randomBytes(18).toString('base64url');
      await superQuery(`CREATE ROLE ${quoteIdent(name)} LOGIN PASSWORD ${quoteLiteral(password)}`);
      for (const role of grantRoles) await superQuery(`GRANT ${quoteIdent(role)} TO ${quoteIdent(name)}`);
      return password;
    },
    halt() {
      const r = run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      if (r.status !== 0) throw new Error(`pg_ctl stop failed: ${r.stderr}`);
    },
    restart() {
      const r = startOn(port);
      if (r.status !== 0) throw new Error(`pg_ctl start failed: ${r.stderr}`);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
