/**
 * Issue 37, attack 1: terminal control characters forging what a command-line approver reads. A
 * preparer's free text — the desktop's name, the file's name, an airtime row's meter/smartcard
 * field (not sent for airtime), a product, a note — carries ESC, CR, line clears, concealed text,
 * OSC 8 links and bidi overrides, laid out to show ₦100.00 to 08031111111 where the job buys
 * ₦5,000.00 for 08039999901. The text is planted as the PostgreSQL superuser with raw SQL (triggers
 * off), so the test holds even though the team database's own functions refuse such text (team
 * schema 007): the point is what the terminal shows when it is already there.
 *
 * The approver runs the real `vendesk` in a pseudo-terminal; a real terminal emulator (xterm.js)
 * reads the screen. The approver must read 08039999901 and ₦5,000.00, never the forged line, and no
 * ESC, lone CR, C1, bidi override or OSC 8 may reach the terminal raw. Then another member's `bulk
 * adopt` tries to buy it: the team database (schema 7) refuses to claim an item holding an escape,
 * so the job pauses and the service's own log holds nothing for either number.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { rawControls, screenOf, vendeskOnTerminal, type TerminalRun } from '../../support/terminalScreen';
import { allLogEntries, writeCsv } from '../bulk/bulkTestFiles';
import { closeTeamRoom, joinAsNewLogin, joinTeamAs, liveDesk, type LiveDesk, type TeamRoom } from './teamDesks';

const ORG = 'forgery-org';
const ADA_TOKEN = 'forgery-org-ada-5c2d';
const CHIDI_TOKEN = 'forgery-org-chidi-9e41';
const ESC = '\x1b';
/** The desktop's name: back to the start of the line, then a line that looks like vendesk's. */
const DESKTOP = `${ESC}[0m\r  prepared by chidi at 2026-11-02T09:00:00.000Z, on desktop "Accounts PC 1"`;
/** The airtime row's meter/smartcard field (not sent for airtime): clear the line, write a cheaper row, hide the rest. */
const ACCOUNT = `${ESC}[0m\r${ESC}[2K2  08031111111 — MTN MTN-VTU ₦100.00${ESC}[8m`;
/** The file's name: a fake count and total, then hide what follows. */
const FILE = `${ESC}[0m\r${ESC}[2K  1 item(s), total ₦100.00: bulk airtime${ESC}[8m`;
/** A note with a hyperlink (OSC 8) and a right-to-left override. */
const NOTE = `${ESC}]8;;https://evil.example/${ESC}\\Approved: ₦100.00 to 08031111111${ESC}]8;;${ESC}\\ \u202Eelif`;
/** A second job's product and network: the product a line of its own, the network a CSI (C1). */
const PRODUCT = `MTN-VTU\r\n2  08031111111  ₦100.00`;
const NETWORK = `\u009b2KMTN`;

let cluster: PostgresCluster;
let room: TeamRoom;
let sandbox: SandboxHandle;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-team-forgery-'));

interface Desk extends LiveDesk {
  /** The real CLI on a pseudo-terminal, without --json: what a person reads. */
  screen(args: string[]): Promise<TerminalRun>;
}

async function desk(name: string, token: string): Promise<Desk> {
  const d = await liveDesk(root, name, { baseUrl: sandbox.url, token });
  return { ...d, screen: (args) => vendeskOnTerminal(['--data-dir', d.dir, '--base-url', sandbox.url, ...args], { HOME: root, VENDESK_TOKEN: token }) };
}

/** SQL as the PostgreSQL superuser with every trigger off, in one transaction: text already in the database. */
async function plant(statements: [string, unknown[]][]): Promise<void> {
  const su = new pg.Client(cluster.config());
  await su.connect();
  try {
    await su.query('BEGIN');
    await su.query('SET LOCAL session_replication_role = replica');
    for (const [sql, params] of statements) await su.query(sql, params);
    await su.query('COMMIT');
  } finally {
    await su.end();
  }
}

/**
 * What the approver's screen must be: nothing obeyed or hidden reached the terminal, and the forged
 * phone and amount appear only inside an escaped value (after a visible `\x1b`, `\r`, `\n`…), never as a line.
 */
function expectNothingForged(run: TerminalRun): void {
  expect(rawControls(run.raw), run.screen.join('\n')).toEqual([]);
  expect(run.concealed).toBe(0);
  for (const line of run.screen) {
    expect(line).not.toMatch(/^\s*2\s+08031111111/);
    expect(line).not.toMatch(/^\s*1 item\(s\), total ₦100\.00/);
    if (/08031111111|₦100\.00/.test(line)) expect(line, line).toMatch(/\\(x[0-9a-f]{2}|[rnt]|u[0-9a-f]{4}).*(08031111111|₦100\.00)/);
  }
}

/** The screen line that holds `text`; fails when none does. */
function lineWith(run: TerminalRun, text: string): string {
  const line = run.screen.find((l) => l.includes(text));
  expect(line, `no line with ${text}:\n${run.screen.join('\n')}`).toBeDefined();
  return line as string;
}

let ada: Desk;
let bola: Desk;
let chidi: Desk;
let teamJob: string;
let otherJob: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  room = { root, cluster };
  sandbox = await startSandbox({ port: 0, bearers: { [ADA_TOKEN]: ORG, [CHIDI_TOKEN]: ORG }, quiet: true });
  ada = await desk('ada', ADA_TOKEN);
  bola = await desk('bola', ADA_TOKEN);
  chidi = await desk('chidi', CHIDI_TOKEN);
  await joinTeamAs(room, ada, cluster.superuser, cluster.superuserPassword); // the administrator sets the database up
  await joinAsNewLogin(room, ada, ['vendesk_preparer']);
  await joinAsNewLogin(room, bola, ['vendesk_approver']);
  await joinAsNewLogin(room, chidi, ['vendesk_preparer']);

  // ada prepares one airtime item, ₦5,000.00 for 08039999901, and another of ₦200.00 (LIVE, in a team: sent for approval).
  const prepare = async (file: string, phone: string, naira: number) => {
    const sheet = writeCsv(ada.dir, file, [
      ['Name', 'Phone', 'Network', 'Amount'],
      ['Staff', phone, 'MTN', naira],
    ]);
    const r = await ada.run(['bulk', 'submit', sheet, '--kind', 'airtime', '--yes', '--confirm-total', String(naira)]);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    // Waiting for approval (exit 4) is said on stderr too, with --json: the one rule of a failed command.
    expect(r.stderr).toMatch(
      /^Error: Bulk job \S+ waits for approval by another team member \(team job [0-9a-f-]{36}\)\. Nothing was bought\.\nAn approver runs `vendesk approve /m,
    );
    return /\(team job ([0-9a-f-]{36})/.exec(JSON.parse(r.stdout).error.message)?.[1] as string;
  };
  teamJob = await prepare('payroll.csv', '08039999901', 5000);
  otherJob = await prepare('bonus.csv', '08039999902', 200);

  // Her text as it would be if the database had let it in. The rows digest is computed again over
  // the planted row, so every desktop's check agrees with it and the job can run.
  await plant([
    ['UPDATE vendesk.desktops SET desktop_name = $1 WHERE desktop_id = (SELECT desktop_id FROM vendesk.jobs WHERE id = $2)', [DESKTOP, teamJob]],
    ['UPDATE vendesk.jobs SET desktop_name = $1, file_name = $2 WHERE id IN ($3, $4)', [DESKTOP, FILE, teamJob, otherJob]],
    ["UPDATE vendesk.job_items SET item = item || jsonb_build_object('account', $1::text) WHERE job_id = $2", [ACCOUNT, teamJob]],
    ["UPDATE vendesk.job_items SET item = item || jsonb_build_object('productCode', $1::text, 'network', $2::text) WHERE job_id = $3", [PRODUCT, NETWORK, otherJob]],
    ['UPDATE vendesk.jobs SET items_digest = vendesk.job_items_digest(id) WHERE id IN ($1, $2)', [teamJob, otherJob]],
  ]);
}, 240_000);

afterAll(() => closeTeamRoom(root, cluster, sandbox));

describe('what a command-line approver reads is what is bought (issue 37, attack 1)', () => {
  it('the screen check sees a forgery when the bytes reach a terminal raw', async () => {
    // As vendesk printed it before: the free text written as it is, on the line before the rows.
    const raw = `Job ${teamJob}: waiting for approval\r\n  ${FILE}, 1 item(s), total ₦5,000.00\r\n  prepared by ada on ${DESKTOP}\r\nRow  Phone        Meter/smartcard  Amount\r\n2    08039999901  ${ACCOUNT}  ₦5,000.00\r\n`;
    const seen = await screenOf(raw);
    expect(rawControls(Buffer.from(raw))).not.toEqual([]);
    expect(seen.screen).toContain('2  08031111111 — MTN MTN-VTU ₦100.00');
    expect(seen.screen.some((l) => l.startsWith('  1 item(s), total ₦100.00'))).toBe(true);
    expect(seen.concealed).toBeGreaterThan(0);
  });

  it('`vendesk approvals`: the job as its typed fields say, the free text escaped after them', async () => {
    const run = await bola.screen(['approvals']);
    expect(run.code, run.screen.join('\n')).toBe(0);
    expectNothingForged(run);
    expect(lineWith(run, teamJob)).toMatch(/waiting for approval\s+1\s+₦5,000\.00\s+bulk airtime\s/);
    expect(lineWith(run, otherJob)).toMatch(/waiting for approval\s+1\s+₦200\.00\s+bulk airtime\s/);
    expect(lineWith(run, teamJob)).toContain('\\x1b[0m\\r  prepared by chidi');
  });

  it("`vendesk approvals JOB`: each row's recipient and amount first; the meter/smartcard field airtime does not send is not shown", async () => {
    const run = await bola.screen(['approvals', teamJob]);
    expect(run.code, run.screen.join('\n')).toBe(0);
    expectNothingForged(run);
    expect(run.screen).toContain(`Job ${teamJob}: waiting for approval`);
    expect(lineWith(run, 'item(s), total')).toMatch(/^ {2}1 item\(s\), total ₦5,000\.00: bulk airtime; wallet after /);
    expect(lineWith(run, 'Row  Phone')).toMatch(/^Row\s+Phone\s+Amount\s+Network\s+Product$/);
    expect(lineWith(run, '08039999901')).toMatch(/^2\s+08039999901\s+₦5,000\.00\s+MTN\s+\S+$/);
    expect(run.screen.join('\n')).not.toContain('08031111111');
    expect(lineWith(run, 'also carry a meter or smartcard field')).toContain('Row(s) 2 also carry a meter or smartcard field, which airtime does not send');
    expect(lineWith(run, 'on desktop')).toContain('on desktop "\\x1b[0m\\r  prepared by chidi');
    expect(lineWith(run, 'file "')).toBe('  file "\\x1b[0m\\r\\x1b[2K  1 item(s), total ₦100.00: bulk airtime\\x1b[8m"');
  });

  it('`vendesk approvals JOB` of a job whose product and network carry line breaks and a CSI: escaped in their cells', async () => {
    const run = await bola.screen(['approvals', otherJob]);
    expect(run.code).toBe(0);
    expectNothingForged(run);
    expect(lineWith(run, '08039999902')).toBe(`2    08039999902  ₦200.00  \\x9b2KMTN  MTN-VTU\\r\\n2  08031111111  ₦100.00`);
  });

  it('`vendesk approve JOB`: the confirmation shows what was approved, from the rows the database stores', async () => {
    const run = await bola.screen(['approve', teamJob]);
    expect(run.code, run.screen.join('\n')).toBe(0);
    expectNothingForged(run);
    expect(run.screen).toContain(`Job ${teamJob}: approved`);
    expect(lineWith(run, 'item(s), total')).toMatch(/^ {2}1 item\(s\), total ₦5,000\.00: bulk airtime/);
    expect(lineWith(run, '08039999901')).toMatch(/^2\s+08039999901\s+₦5,000\.00\s+MTN/);
  });

  it('`vendesk approvals --state all` and the job again, once a note with a link and a bidi override is on its approval', async () => {
    await plant([['UPDATE vendesk.approvals SET note = $1 WHERE job_id = $2', [NOTE, teamJob]]]);
    const all = await bola.screen(['approvals', '--state', 'all']);
    expect(all.code).toBe(0);
    expectNothingForged(all);
    expect(lineWith(all, teamJob)).toMatch(/approved\s+1\s+₦5,000\.00\s+bulk airtime\s+1 of 1 approval\s+bola\s/);
    const job = await bola.screen(['approvals', teamJob]);
    expectNothingForged(job);
    expect(lineWith(job, 'note:')).toBe('  note: "\\x1b]8;;https://evil.example/\\x1b\\Approved: ₦100.00 to 08031111111\\x1b]8;;\\x1b\\ \\u202eelif"');
  });

  it('another member runs it: the team database refuses to claim an item holding an escape (team schema 7), so nothing is bought; `bulk list` shows the file name escaped', async () => {
    const adopted = await chidi.run(['bulk', 'adopt', teamJob]);
    // The planted meter field holds ESC: the claim is refused and the job pauses, nothing sent.
    expect(adopted.code, adopted.stdout + adopted.stderr).toBe(1);
    expect(JSON.parse(adopted.stdout)).toMatchObject({ items: 1, state: 'paused', success: 0, totalCharged: 0 });
    expect(adopted.stderr).toContain('U+001B');
    const log = await allLogEntries(sandbox.url, ADA_TOKEN);
    expect(log.filter((e) => e.phone_number === '08039999901')).toEqual([]);
    expect(log.filter((e) => e.phone_number === '08031111111')).toEqual([]);

    const list = await chidi.screen(['bulk', 'list']);
    expect(list.code).toBe(0);
    expectNothingForged(list);
    expect(lineWith(list, 'airtime')).toMatch(/airtime\s+paused\s+1\s+0\s.*—\s+\\x1b\[0m\\r\\x1b\[2K {2}1 item\(s\), total ₦100\.00: bulk airtime\\x1b\[8m$/);
  });

  it('--json carries the same text escaped, as one JSON document: no raw ESC, C1 or bidi override', async () => {
    const r = await bola.run(['approvals', teamJob]);
    expect(r.code).toBe(0);
    expect(rawControls(Buffer.from(r.stdout.trimEnd()))).toEqual([]);
    expect(r.stdout).toContain('\\u001b[0m\\r\\u001b[2K2  08031111111');
    expect(r.stdout).toContain('\\u202eelif');
    const doc = JSON.parse(r.stdout) as { job: { fileName: string; note: string }; rows: { account: string }[] };
    expect(doc.job.fileName).toBe(FILE);
    expect(doc.job.note).toBe(NOTE);
    expect(doc.rows[0].account).toBe(ACCOUNT);
  });
});
