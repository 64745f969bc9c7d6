/**
 * Issue 38, item 2: one rule for what a failed command prints. With or without --json, an exit
 * code of 1 or more puts the message and the hint on stderr (a nightly crontab keeps only stderr);
 * with --json, stdout still holds the one JSON document. A command that works prints on stderr no
 * more with --json than it did before (its progress lines).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../support/testSandbox';
import { runVendesk } from '../../support/vendeskProcess';
import { writeCsv } from '../bulk/bulkTestFiles';
import { runInProcess, startCliPeer, type CliPeer, type CliRun } from './cliHarness';

const TOKEN = 'cli-failed-org-3b8e';
let peer: CliPeer;
/** The address of a service that was there and is stopped. */
let stoppedUrl: string;

beforeAll(async () => {
  peer = await startCliPeer(TOKEN);
  const stopped = await startTestSandbox({ tokens: [TOKEN] });
  stoppedUrl = stopped.url;
  await stopped.close();
});

afterAll(() => peer.close());

/** The one JSON document of stdout, and stderr's lines. */
function said(r: CliRun): { doc: { error?: { code: string; message: string; hint?: string } }; errLines: string[] } {
  return { doc: JSON.parse(r.stdout), errLines: r.stderr.trimEnd().split('\n') };
}

/** The same failure, with and without --json: stderr says the message and the hint; with --json, stdout is the error document. */
async function failsWithMessageOnStderr(args: string[], code: number | number[], message: RegExp): Promise<void> {
  const codes = Array.isArray(code) ? code : [code];
  const json = await peer.run(args);
  expect(codes, json.stdout + json.stderr).toContain(json.code);
  const { doc, errLines } = said(json);
  expect(doc.error?.message).toMatch(message);
  expect(errLines[0]).toBe(`Error: ${doc.error?.message}`);
  expect(errLines[1]).toBe(doc.error?.hint);
  const text = await peer.run(args, 'globals first', { json: false });
  expect(text.code).toBe(json.code);
  expect(text.stdout).toBe('');
  expect(text.stderr).toBe(json.stderr);
}

describe('a failed command says why on stderr, with and without --json', () => {
  it('reconcile of a file that is not there (exit 1)', async () => {
    await failsWithMessageOnStderr(['reconcile', path.join(peer.dir, 'MISSING.csv')], 1, /There is no file at .*MISSING\.csv/);
  });

  it('report spend with the range reversed', async () => {
    await failsWithMessageOnStderr(['report', 'spend', '--from', '2026-11-20', '--to', '2026-11-01'], [1, 2], /after|swap/i);
  });

  it('sync against a service that is stopped (exit 1), in the real process as a crontab runs it: stderr alone says why', async () => {
    const home = path.join(peer.dir, 'home');
    fs.mkdirSync(home, { recursive: true });
    const r = await runVendesk(['--data-dir', path.join(peer.dir, 'nightly'), '--base-url', stoppedUrl, '--json', 'sync'], { HOME: home, VENDESK_TOKEN: TOKEN });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { error: { code: string; message: string; hint?: string } };
    expect(r.stderr).toContain(`Error: ${doc.error.message}`);
    expect(r.stderr.trim().length).toBeGreaterThan('Error: '.length);
    if (doc.error.hint) expect(r.stderr).toContain(doc.error.hint);
  });

  it('a command whose answer is a failure (doctor: nothing answers; exit 1) says its sentence on stderr too', async () => {
    const r = await runInProcess(['--data-dir', path.join(peer.dir, 'doctor'), '--base-url', stoppedUrl, '--json', 'doctor'], { VENDESK_TOKEN: TOKEN });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { verdict: string; summary: string };
    expect(report.verdict).toBe('unreachable');
    expect(r.stderr.split('\n')[0]).toBe(`Error: ${report.summary}`);
  });

  it('a usage mistake (exit 2): the one line and what to do, on stderr with --json too', async () => {
    const r = await peer.run(['synk']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("vendesk: 'synk' is not a vendesk command. Did you mean 'vendesk sync'?\nRun 'vendesk --help' for the commands.\n");
    expect(JSON.parse(r.stdout).error.code).toBe('usage');
    const noToken = await peer.run(['balance'], 'globals first', { env: { VENDESK_TOKEN: '' } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toBe('Error: --base-url needs a token.\nSet VENDESK_TOKEN in the environment.\n');
  });

  it('invalid rows (exit 3): how many and what to do on stderr; each row in the document', async () => {
    const sheet = writeCsv(peer.dir, 'staff.csv', [
      ['Phone', 'Amount'],
      ['08031234567', 500],
      ['0803123', 500],
    ]);
    const r = await peer.run(['bulk', 'validate', sheet, '--kind', 'airtime']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'Error: 1 of 2 row(s) are invalid (each is listed).\nCorrect them in the file and check it again, or buy the valid rows only with bulk submit --skip-invalid.\n',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, invalid: 1, errors: [{ row: 3, field: 'phone' }] });
    const submit = await peer.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes']);
    expect(submit.code).toBe(3);
    expect(submit.stderr).toBe('Error: 1 row(s) are invalid; nothing was bought.\nFix them, or add --skip-invalid to buy only the valid rows.\n');
    expect(JSON.parse(submit.stdout).error.code).toBe('invalid_rows');
  });

  it('a command that works prints nothing on stderr with --json, or only its progress', async () => {
    const balance = await peer.run(['balance']);
    expect(balance.code).toBe(0);
    expect(balance.stderr).toBe('');
    const sync = await peer.run(['sync']);
    expect(sync.code).toBe(0);
    for (const line of sync.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^sync: \d+( of \d+)? entries, \d+ pages$/);
  });
});
