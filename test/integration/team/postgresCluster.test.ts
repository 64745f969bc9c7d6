/**
 * The throwaway PostgreSQL the team tests run against is a real server: it answers SQL over TCP,
 * refuses a wrong password, and is gone (port closed) once stopped.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('a throwaway PostgreSQL 15 cluster', () => {
  it('answers SQL as its superuser over TCP', async () => {
    const r = await cluster.superQuery<{ version: string }>('SELECT version()');
    expect(r.rows[0].version).toMatch(/^PostgreSQL 15\./);
  });

  it('authenticates logins by password, as a team server does', async () => {
    const password = await cluster.createLogin('ada');
    const good = new pg.Client(cluster.config('ada', password));
    await good.connect();
    expect((await good.query<{ u: string }>('SELECT session_user AS u')).rows[0].u).toBe('ada');
    await good.end();
    const bad = new pg.Client(cluster.config('ada', `${password}x`));
    await expect(bad.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('is stopped and its port closed by stop()', async () => {
    const other = await startPostgresCluster();
    expect(await portOpen(other.port)).toBe(true);
    await other.stop();
    expect(await portOpen(other.port)).toBe(false);
  });
});
