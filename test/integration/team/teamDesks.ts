/**
 * Desktops of a team, each its own data folder driven through the CLI (JSON answers), joined to a
 * throwaway PostgreSQL cluster as a team member would: `vendesk team join --password-file`, the
 * password handed over in a file (never on a command line), each desktop named "<name> PC" ("<name> PC (<role>)" when
 * it joins as another member than its own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createApp } from '../../../src/main/app';
import { QUICK_CLI_JOBS } from '../bulk/bulkTestFiles';
import { runInProcess, type CliRun } from '../cli/cliHarness';
import type { PostgresCluster } from '../../support/postgresCluster';

export interface TeamDesk {
  name: string;
  dataDir: string;
  run(args: string[]): Promise<CliRun>;
}

/** Where a test's desktops live: their data folders and password files under `root`, joined to `cluster`. */
export interface TeamRoom {
  root: string;
  cluster: PostgresCluster;
}

/** A new desktop with the data folder `<root>/<name>`, speaking to the service at `baseUrl` with `token`. */
export function cliDesk(root: string, name: string, service: { baseUrl: string; token: string }): TeamDesk {
  const dataDir = path.join(root, name);
  fs.mkdirSync(dataDir);
  return { name, dataDir, run: (args) => runInProcess(['--data-dir', dataDir, '--base-url', service.baseUrl, '--json', ...args], { VENDESK_TOKEN: service.token }) };
}

/** A desktop that runs bulk jobs: its own data folder `<root>/<name>`, LIVE to the service with `token`, its jobs on a short clock (QUICK_CLI_JOBS). */
export interface LiveDesk {
  name: string;
  dir: string;
  token: string;
  /** `vendesk --json ARGS` in this data folder. */
  run(args: string[]): Promise<CliRun>;
}

export async function liveDesk(root: string, name: string, service: { baseUrl: string; token: string }): Promise<LiveDesk> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  const app = await createApp({ dataDir: dir, shell: 'test', connection: { baseUrl: service.baseUrl, token: service.token, kind: 'live' } });
  app.settings.set('bulk.settings', QUICK_CLI_JOBS);
  await app.close();
  return {
    name,
    dir,
    token: service.token,
    run: (args) => runInProcess(['--data-dir', dir, '--base-url', service.baseUrl, '--json', ...args], { VENDESK_TOKEN: service.token }),
  };
}

/**
 * Joins the desktop to the team database as `role` (on `port`, the cluster's own by default); the join must succeed.
 * The desktop is "<name> PC" when it joins as its own member, "<name> PC (<role>)" as another (the administrator
 * setting the database up from it): a desktop name belongs to one member (team schema 7).
 */
export async function joinTeamAs(room: TeamRoom, d: Pick<TeamDesk, 'name' | 'run'>, role: string, password: string, port = room.cluster.port): Promise<void> {
  const file = path.join(room.root, `${d.name}-${role}.pw`);
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  const desktopName = role === d.name ? `${d.name} PC` : `${d.name} PC (${role})`;
  const r = await d.run(['team', 'join', '--url', `postgres://${role}@127.0.0.1:${port}/postgres`, '--password-file', file, '--desktop-name', desktopName]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

/** Creates the login named as the desktop, member of `roles`, and joins the desktop with it; its password. */
export async function joinAsNewLogin(room: TeamRoom, d: Pick<TeamDesk, 'name' | 'run'>, roles: string[], port?: number): Promise<string> {
  const password = await room.cluster.createLogin(d.name, roles);
  await joinTeamAs(room, d, d.name, password, port);
  return password;
}

/**
 * Ends what a team test started, whatever of it did start: the sandbox, the cluster, then the
 * folder of its desktops and password files.
 */
export async function closeTeamRoom(root: string, cluster: PostgresCluster | undefined, sandbox: { close(): Promise<void> } | undefined): Promise<void> {
  await sandbox?.close();
  await cluster?.stop();
  fs.rmSync(root, { recursive: true, force: true });
}
