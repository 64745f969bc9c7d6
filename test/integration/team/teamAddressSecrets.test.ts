/**
 * Issue 37, item 6: a team address typed wrong with a password in it (`postgres://ada:PASSWORD@…`
 * with a port that is not a number, a bracket too many, a missing colon) was echoed whole in
 * `team_bad_url`, password and all. The attack is the slip itself: each such address, given to
 * `vendesk team join` (with --json and without) and to the window's join, must come back refused
 * with no part of the address — its password above all — in the message, the hint, the details,
 * the JSON document or anything on stderr. No database is needed: the address is refused first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/main/dispatch';
import { startTestApp, type TestApp } from '../../support/testApp';
import { runInProcess } from '../cli/cliHarness';

const PASSWORD = 'Tq8-hunter-Zx41';
const MISTYPED: [string, string][] = [
  ['a port that is not a number', `postgres://ada:${PASSWORD}@db.example.ng:54x2/finance_team`],
  ['a server in brackets that is no IPv6 address', `postgres://ada:${PASSWORD}@[db.example.ng]:5432/finance_team`],
  ['no colon after the scheme', `postgresql//ada:${PASSWORD}@db.example.ng:5432/finance_team`],
  ['a space in the server', `postgres://ada:${PASSWORD}@db example.ng:5432/finance_team`],
  ['a port past 65535', `postgres://ada:${PASSWORD}@db.example.ng:99999/finance_team`],
];
/** Parts of the addresses that are theirs alone (the password, the user with it, the server). */
const TELLTALES = [PASSWORD, `ada:${PASSWORD}`, 'db.example.ng', 'db example.ng', 'finance_team', '54x2', '99999'];

let t: TestApp;
let passwordFile: string;
beforeAll(async () => {
  t = await startTestApp();
  passwordFile = path.join(t.dataDir, 'role.pw');
  fs.writeFileSync(passwordFile, 'another-secret\n', { mode: 0o600 });
});
afterAll(async () => {
  await t.close();
});

function expectNoAddress(out: string, address: string): void {
  expect(out).not.toContain(address);
  for (const part of TELLTALES) expect(out).not.toContain(part);
}

describe('a mistyped team address holding a password is never echoed', () => {
  it.each(MISTYPED)('vendesk team join --url with %s', async (_what, address) => {
    const env = { VENDESK_TOKEN: t.token };
    const json = await runInProcess(['team', 'join', '--url', address, '--password-file', passwordFile, '--data-dir', t.dataDir, '--json'], env);
    const text = await runInProcess(['team', 'join', '--url', address, '--password-file', passwordFile, '--data-dir', t.dataDir], env);
    expect(json.code).toBe(1);
    expect(text.code).toBe(1);
    const error = (JSON.parse(json.stdout) as { error: { code: string; message: string; hint: string } }).error;
    expect(error).toEqual({
      code: 'team_bad_url',
      message:
        'The team database address could not be read: check the server, its port (a number) and the database. (vendesk does not repeat it: a mistyped address may hold a password.)',
      hint: 'Write it as postgres://USER@HOST:PORT/DATABASE with no password in it: the password is given on its own (its field in Settings → Team, --password-file or VENDESK_TEAM_PASSWORD).',
    });
    expect(text.stderr).toContain('The team database address could not be read');
    for (const out of [json.stdout, json.stderr, text.stdout, text.stderr]) expectNoAddress(out, address);
  });

  it.each(MISTYPED)('the window’s join (team.join) with %s', async (_what, address) => {
    const result = await dispatch(t.app, 'team.join', { url: address, password: 'another-secret' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // Refused by the address's rule, or before it by the form's (no postgres:// at the start).
    expect(['team_bad_url', 'invalid_input']).toContain(result.error.code);
    expectNoAddress(JSON.stringify(result), address);
  });

  it('an address of another kind, or with an sslmode vendesk does not take, is not echoed either', async () => {
    for (const address of [`mysql://ada:${PASSWORD}@db.example.ng:3306/finance_team`, `postgres://ada@db.example.ng:5432/finance_team?sslmode=${PASSWORD}`]) {
      const result = await dispatch(t.app, 'team.join', { url: address, password: 'another-secret' });
      expect(result.ok).toBe(false);
      expectNoAddress(JSON.stringify(result), address);
    }
    // A libpq mode vendesk does not take is named back (it is one of a fixed list, never free text).
    const prefer = await dispatch(t.app, 'team.join', { url: 'postgres://ada@db.example.ng:5432/finance_team?sslmode=prefer', password: 'x' });
    expect(prefer.ok ? null : prefer.error.message).toBe('sslmode=prefer is not one vendesk knows.');
  });
});
