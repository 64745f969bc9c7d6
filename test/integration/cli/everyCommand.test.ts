/**
 * Every command of the command table, run against a standalone sandbox both ways round — the
 * global options (`--data-dir`, `--base-url`, `--json`) before the command and after it — with
 * the same exit code either way, stdout exactly one JSON document that the command's declared
 * shape (the one docs/cli.md shows) accepts, and no amount in kobo anywhere.
 *
 * A command added to the table without a scenario here fails the first test: give it one.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVendorExportCsv } from '../../../bench/generate/vendorExport';
import { COMMANDS } from '../../../src/cli/commands';
import { monthOfDay, shiftMonth } from '../../../src/shared/months';
import { errorDocument } from '../../../src/cli/jsonShape';
import type { LogEntry, PageObject } from '../../../src/shared/wire';
import { migrateTeamSchema } from '../../../src/main/team/teamMigrations';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgresCluster';
import { joinDesk, prepareRaw } from '../../support/teamJobs';
import { airtimeRows, mtnPhone, QUICK_SETTLEMENT, writeCsv } from '../bulk/bulkTestFiles';
import { makeContacts, writeContactsCsv } from '../messaging/contactsFiles';
import { account } from '../purchases/purchaseHelpers';
import { ORDERS, allKeys, startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'every-command-org-3c1e';
const PHONE = '08031234567';

type Round = 0 | 1;
interface Scenario {
  /** The command's words and arguments for round 0 (globals first) or 1 (globals last): side effects differ per round. */
  args: (round: Round) => string[];
  exit: number;
}

let peer: CliPeer;
/** The team database of the team commands (this data folder joins it as the approver `bola`). */
let team: PostgresCluster;
const f = {
  pendingIds: [] as string[],
  electricityId: '',
  topUpId: '',
  jobId: '',
  jobTotal: 0,
  phonebookId: '',
  contactsFile: '',
  messageRef: '',
  messageJobId: '',
  pausedMessageJobs: [] as string[],
  otp: [] as { reference: string; code: string }[],
  exportFile: '',
  runId: '',
  exceptionSeq: '',
  validFile: '',
  invalidFile: '',
  bulkFiles: [] as string[],
  today: new Date().toISOString().slice(0, 10),
  teamUrl: '',
  teamPasswordFile: '',
  teamJobs: [] as string[],
  approvedSingle: '',
  standingFiles: [] as string[],
  standingOrder: '',
  standingStates: [] as string[],
  topUpReference: '',
  recipientsFile: '',
};

const SCENARIOS: Record<string, Scenario[]> = {
  balance: [{ args: () => ['balance'], exit: 0 }],
  doctor: [{ args: () => ['doctor'], exit: 0 }],
  'phonebook create': [{ args: (r) => ['phonebook', 'create', `Branch ${r}`, '--description', 'Lagos'], exit: 0 }],
  'phonebook list': [{ args: () => ['phonebook', 'list'], exit: 0 }],
  'phonebook contacts': [{ args: () => ['phonebook', 'contacts', f.phonebookId, '--limit', '5'], exit: 0 }],
  'contacts import': [{ args: () => ['contacts', 'import', f.contactsFile, '--phonebook', f.phonebookId], exit: 0 }],
  'template create': [{ args: (r) => ['template', 'create', '--name', `Pay notice ${r}`, '--body', 'Hi {{1}}, paid.', '--use-case', 'payroll'], exit: 0 }],
  'template list': [{ args: () => ['template', 'list'], exit: 0 }],
  'sms send': [
    { args: () => ['sms', 'send', '--to', PHONE, '--sender', 'VENDESK', '--message', 'Salary paid'], exit: 0 },
    { args: () => ['sms', 'send', '--to', PHONE, '--message', 'Salary paid', '--email', 'pay@example.com', '--dry-run'], exit: 0 },
    { args: () => ['sms', 'send', '--contacts', f.contactsFile, '--sender', 'VENDESK', '--message', 'Hello {Name}, salary paid'], exit: 0 },
    { args: () => ['sms', 'send', '--contacts', f.contactsFile, '--message', 'Hello {Name}', '--dry-run'], exit: 0 },
  ],
  'sms senders': [{ args: () => ['sms', 'senders'], exit: 0 }],
  'sms jobs': [{ args: () => ['sms', 'jobs', '--limit', '5'], exit: 0 }],
  'sms job': [{ args: () => ['sms', 'job', f.messageJobId, '--state', 'sent'], exit: 0 }],
  'sms resume': [{ args: () => ['sms', 'resume', f.messageJobId], exit: 0 }],
  'sms notifications': [
    { args: () => ['sms', 'notifications', '--finance-contact', '+234 809 555 0001'], exit: 0 },
    { args: () => ['sms', 'notifications'], exit: 0 },
  ],
  'sms cancel': [{ args: (r) => ['sms', 'cancel', f.pausedMessageJobs[r]], exit: 0 }],
  'sms status': [{ args: () => ['sms', 'status', f.messageRef], exit: 0 }],
  'sms history': [{ args: () => ['sms', 'history', '--per-page', '5'], exit: 0 }],
  'otp send': [{ args: () => ['otp', 'send', '--to', PHONE, '--sender', 'VENDESK'], exit: 0 }],
  'otp confirm': [{ args: (r) => ['otp', 'confirm', f.otp[r].reference, f.otp[r].code], exit: 0 }],
  'bulk validate': [
    { args: () => ['bulk', 'validate', f.validFile, '--kind', 'airtime'], exit: 0 },
    { args: () => ['bulk', 'validate', f.invalidFile, '--kind', 'airtime'], exit: 3 },
  ],
  'bulk submit': [
    { args: (r) => ['bulk', 'submit', f.bulkFiles[r], '--kind', 'airtime', '--yes', '--confirm-total', '300'], exit: 0 },
    { args: () => ['bulk', 'submit', f.invalidFile, '--kind', 'airtime', '--yes', '--confirm-total', '300'], exit: 3 },
  ],
  'bulk resume': [{ args: () => ['bulk', 'resume', f.jobId], exit: 0 }],
  'bulk status': [{ args: () => ['bulk', 'status', f.jobId], exit: 0 }],
  'bulk cancel': [{ args: () => ['bulk', 'cancel', f.jobId], exit: 0 }],
  'bulk list': [{ args: () => ['bulk', 'list', '--limit', '5'], exit: 0 }],
  'bulk export': [
    { args: (r) => ['bulk', 'export', f.jobId, '--out', path.join(peer.dir, `results ${r}.xlsx`)], exit: 0 },
    { args: (r) => ['bulk', 'export', f.jobId, '--out', path.join(peer.dir, `results ${r}.csv`)], exit: 0 },
  ],
  'bulk template': [
    { args: (r) => ['bulk', 'template', 'data', '--out', path.join(peer.dir, `data template ${r}.xlsx`)], exit: 0 },
    { args: (r) => ['bulk', 'template', 'contacts', '--out', path.join(peer.dir, `contacts template ${r}.csv`)], exit: 0 },
  ],
  // Standing orders from 2030 on: nothing is due while these scenarios run (test/integration/standing/ buys them).
  'standing add': [
    { args: (r) => standingAdd(f.standingFiles[r], `Staff ${r}`), exit: 0 },
    { args: () => ['standing', 'add', f.invalidFile, '--kind', 'airtime', '--name', 'Bad', '--monthly-on', '31', '--yes', '--confirm-total', '200'], exit: 3 },
  ],
  'standing edit': [{ args: (r) => ['standing', 'edit', f.standingOrder, '--name', `Renamed ${r}`, '--grace-days', String(4 + r), '--yes', '--confirm-total', '300'], exit: 0 }],
  'standing list': [{ args: () => ['standing', 'list'], exit: 0 }],
  'standing show': [{ args: () => ['standing', 'show', f.standingOrder], exit: 0 }],
  'standing run-due': [
    { args: () => ['standing', 'run-due', '--dry-run'], exit: 0 },
    { args: () => ['standing', 'run-due'], exit: 0 },
  ],
  // Not due yet: refused, nothing bought.
  'standing run': [{ args: () => ['standing', 'run', f.standingOrder, '--occurrence', '2030-01-31'], exit: 1 }],
  'standing skip': [{ args: (r) => ['standing', 'skip', f.standingOrder, '--occurrence', r === 0 ? '2030-01-31' : '2030-02-28'], exit: 0 }],
  'standing pause': [{ args: (r) => ['standing', 'pause', f.standingStates[r]], exit: 0 }],
  'standing resume': [{ args: (r) => ['standing', 'resume', f.standingStates[r]], exit: 0 }],
  'standing end': [{ args: (r) => ['standing', 'end', f.standingStates[r]], exit: 0 }],
  // Not a team's order: refused with standing_not_team.
  'standing approve': [{ args: () => ['standing', 'approve', f.standingOrder, '--ceiling', '500', '--runs', '2'], exit: 1 }],
  // Before this folder joins the team: refused with team_not_joined (test/integration/team/teamAdopt.test.ts runs one).
  'bulk adopt': [{ args: () => ['bulk', 'adopt', '0b6f2c1e-5d4a-4f3b-9c2d-1e0f9a8b7c6d'], exit: 1 }],
  'bulk caps': [
    { args: () => ['bulk', 'caps'], exit: 0 },
    { args: () => ['bulk', 'caps', '--per-job', '₦500,000', '--per-day', 'off'], exit: 0 },
  ],
  'buy electricity': [
    { args: () => ['buy', 'electricity', '--disco', 'IKEDC', '--meter', account('1234'), '--type', 'POSTPAID', '--amount', '1,500', '--phone', PHONE, '--yes'], exit: 0 },
  ],
  'buy cable': [{ args: () => ['buy', 'cable', '--provider', 'GOTV', '--smartcard', account('7777'), '--bouquet', 'gotv-smallie', '--phone', PHONE, '--yes'], exit: 0 }],
  'buy airtime': [{ args: (r) => ['buy', 'airtime', '--phone', mtnPhone(900 + r), '--amount', '150', '--yes'], exit: 0 }],
  'buy data': [{ args: (r) => ['buy', 'data', '--phone', mtnPhone(910 + r), '--plan', 'MTN-100MB-1D', '--yes'], exit: 0 }],
  purchases: [
    { args: () => ['purchases'], exit: 0 },
    { args: () => ['purchases', '--kind', 'airtime', '--limit', '3'], exit: 0 },
  ],
  receipt: [
    { args: () => ['receipt', f.topUpId], exit: 0 },
    { args: () => ['receipt', f.electricityId], exit: 0 },
  ],
  pending: [{ args: () => ['pending'], exit: 0 }],
  'pending resolve': [{ args: (r) => ['pending', 'resolve', f.pendingIds[r], '--outcome', 'failed', '--note', 'support ticket 12 says it failed'], exit: 0 }],
  requery: [{ args: () => ['requery'], exit: 0 }],
  reconcile: [{ args: () => ['reconcile', f.exportFile], exit: 0 }],
  'reconcile runs': [{ args: () => ['reconcile', 'runs'], exit: 0 }],
  'reconcile items': [
    { args: () => ['reconcile', 'items', f.runId], exit: 0 },
    { args: () => ['reconcile', 'items', f.runId, '--category', 'missing-locally', '--limit', '10'], exit: 0 },
  ],
  'reconcile requery': [{ args: () => ['reconcile', 'requery', f.runId], exit: 0 }],
  'reconcile resolve': [{ args: () => ['reconcile', 'resolve', f.runId, f.exceptionSeq, '--note', 'vendor confirmed by email'], exit: 0 }],
  // --base-url is a LIVE connection: its export comes from the vendor (test/integration/reconcile/sandboxExport.test.ts runs the sandbox's).
  'sandbox export': [{ args: () => ['sandbox', 'export'], exit: 1 }],
  'report spend': [
    { args: (r) => ['report', 'spend', '--from', f.today, '--to', f.today, '--out', path.join(peer.dir, `spend ${r}.xlsx`)], exit: 0 },
    { args: (r) => ['report', 'spend', '--from', f.today, '--to', f.today, '--by', 'cost-centre', '--out', path.join(peer.dir, `spend by centre ${r}.xlsx`)], exit: 0 },
  ],
  'recipients import': [{ args: () => ['recipients', 'import', f.recipientsFile], exit: 0 }],
  // Month-end: months well over (three and two months back), closed in order and reopened latest first.
  close: [{ args: (r) => ['close', pastMonth(3), '--out', path.join(peer.dir, `close pack ${r}.xlsx`)], exit: 0 }],
  'month list': [{ args: () => ['month', 'list'], exit: 0 }],
  'month close': [{ args: (r) => ['month', 'close', pastMonth(r === 0 ? 3 : 2)], exit: 0 }],
  'month reopen': [{ args: (r) => ['month', 'reopen', pastMonth(r === 0 ? 2 : 3), '--reason', 'late vendor credit note'], exit: 0 }],
  // A month without entries: an empty journal (no line needs an account).
  journal: [{ args: (r) => ['journal', pastMonth(3), '--format', r === 0 ? 'xero' : 'plain', '--out', path.join(peer.dir, `journal ${r}.csv`)], exit: 0 }],
  'accounts list': [{ args: () => ['accounts', 'list'], exit: 0 }],
  'accounts set': [{ args: (r) => (r === 0 ? ['accounts', 'set', 'wallet', '1200'] : ['accounts', 'set', 'AIRTIME', '*', '6100']), exit: 0 }],
  'accounts remove': [{ args: (r) => (r === 0 ? ['accounts', 'remove', 'wallet'] : ['accounts', 'remove', 'AIRTIME', '*']), exit: 0 }],
  'cost-centre set': [{ args: (r) => ['cost-centre', 'set', f.topUpReference, r === 0 ? 'Operations' : 'Sales'], exit: 0 }],
  'cost-centre history': [{ args: () => ['cost-centre', 'history', f.topUpReference], exit: 0 }],
  sync: [{ args: () => ['sync'], exit: 0 }],
  logs: [{ args: () => ['logs', '--limit', '5'], exit: 0 }],
  'export logs': [{ args: (r) => ['export', 'logs', '--out', path.join(peer.dir, `log ${r}.csv`)], exit: 0 }],
  catalog: ['airtime', 'data', 'cable', 'electricity'].map((kind) => ({ args: () => ['catalog', kind], exit: 0 })),
  completion: ['bash', 'zsh'].map((shell) => ({ args: () => ['completion', shell], exit: 0 })),
  'team join': [{ args: () => ['team', 'join', '--url', f.teamUrl, '--password-file', f.teamPasswordFile, '--desktop-name', 'Bola PC'], exit: 0 }],
  'team status': [{ args: () => ['team', 'status'], exit: 0 }],
  'team doctor': [{ args: () => ['team', 'doctor'], exit: 0 }],
  'team threshold': [
    { args: () => ['team', 'threshold', '250,000'], exit: 0 },
    { args: () => ['team', 'threshold', 'none'], exit: 0 },
  ],
  'team policy': [
    { args: () => ['team', 'policy', '--dual-above', '500,000', '--valid-for', '1440'], exit: 0 },
    { args: () => ['team', 'policy', '--dual-above', 'none', '--valid-for', 'none'], exit: 0 },
  ],
  // Bought on the first run; the second returns the same receipt and buys nothing.
  'purchases resume': [{ args: () => ['purchases', 'resume', f.approvedSingle], exit: 0 }],
  approvals: [
    { args: () => ['approvals'], exit: 0 },
    { args: () => ['approvals', '--state', 'all'], exit: 0 },
    { args: () => ['approvals', f.teamJobs[0]], exit: 0 },
    { args: () => ['approvals', f.teamJobs[0], '--page', '2'], exit: 0 },
  ],
  approve: [{ args: (r) => ['approve', f.teamJobs[r], '--note', 'checked'], exit: 0 }],
  reject: [{ args: (r) => ['reject', f.teamJobs[2 + r], '--note', 'wrong month'], exit: 0 }],
  'audit verify': [{ args: () => ['audit', 'verify'], exit: 0 }],
  'audit export': [{ args: (r) => ['audit', 'export', '--from', f.today, '--to', f.today, '--out', path.join(peer.dir, `audit ${r}.xlsx`)], exit: 0 }],
  'team leave': [{ args: () => ['team', 'leave'], exit: 0 }],
};

/** `standing add` of a 3-row, ₦300 file from 2030 on (nothing due while these scenarios run). */
function standingAdd(file: string, name: string): string[] {
  return ['standing', 'add', file, '--kind', 'airtime', '--name', name, '--monthly-on', '31', '--start', '2030-01-01', '--yes', '--confirm-total', '300'];
}

/** Run in their own process until Ctrl-C: test/integration/cli/scriptedProcess.test.ts runs them both ways round. */
const OUT_OF_PROCESS = new Set(['sandbox', 'web']);

/** The month `back` months before today's. */
const pastMonth = (back: number) => shiftMonth(monthOfDay(f.today), -back);

async function serviceLog(): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for (let page = 1; ; page++) {
    const r = await fetch(`${peer.sandbox.url}/logEntries?page=${page}&perPage=100&status=all`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const data = ((await r.json()) as { data: PageObject<LogEntry> }).data;
    out.push(...data.Items);
    if (page >= data.TotalPages || data.Items.length === 0) return out;
  }
}

beforeAll(async () => {
  // No command here is about the 5 s an airtime purchase stays in progress: settled in 0.5 s.
  peer = await startCliPeer(TOKEN, QUICK_SETTLEMENT);
  // A team database: jobs prepared by `ada` for this data folder (`bola`, an approver) to decide.
  // The folder joins only in the `team join` scenario (after the bulk ones: joined, a LIVE bulk job
  // waits for approval), and leaves in `team leave`.
  team = await startPostgresCluster();
  const setup = new pg.Client(team.config());
  await setup.connect();
  await migrateTeamSchema(setup);
  await setup.end();
  const ada = await team.createLogin('ada', ['vendesk_preparer']);
  f.teamPasswordFile = writeSecret('bola.pw', await team.createLogin('bola', ['vendesk_approver', 'vendesk_admin']));
  const chidi = await team.createLogin('chidi', ['vendesk_approver']);
  f.teamUrl = `postgres://bola@127.0.0.1:${team.port}/postgres`;
  const asAda = new pg.Client(team.config('ada', ada));
  await asAda.connect();
  await joinDesk(asAda, { id: 'desk-a', name: 'Ada PC' });
  for (let i = 0; i < 4; i++) {
    const items = [{ row: 2, phone: mtnPhone(600 + i), amountKobo: 150_000 }];
    f.teamJobs.push((await prepareRaw(asAda, { id: 'desk-a', name: 'Ada PC' }, { items, walletKobo: null })).id);
  }
  await asAda.end();
  await peer.control.setWallet(5_000_000);
  // Purchases to read, resolve and reconcile.
  for (let i = 0; i < 2; i++) {
    const p = await peer.json<{ id: string; state: string }>([
      'buy',
      'electricity',
      '--disco',
      'IKEDC',
      '--meter',
      account('2222'),
      '--type',
      'POSTPAID',
      '--amount',
      '1000',
      '--phone',
      PHONE,
      '--yes',
    ]);
    expect(p.state).toBe('pending');
    f.pendingIds.push(p.id);
  }
  f.electricityId = (
    await peer.json<{ id: string }>(['buy', 'electricity', '--disco', 'IKEDC', '--meter', account('1234'), '--type', 'POSTPAID', '--amount', '2000', '--phone', PHONE, '--yes'])
  ).id;
  const topUp = await peer.json<{ id: string; reference: string | null }>(['buy', 'airtime', '--phone', mtnPhone(800), '--amount', '100', '--cost-centre', 'Sales', '--yes']);
  f.topUpId = topUp.id;
  f.topUpReference = topUp.reference ?? '';
  f.recipientsFile = writeCsv(peer.dir, 'recipients.csv', [
    ['Phone', 'Name', 'Department'],
    [mtnPhone(801), 'Driver', 'Logistics'],
  ]);
  f.validFile = writeCsv(peer.dir, 'valid.csv', airtimeRows(3, 100, 700));
  f.invalidFile = writeCsv(peer.dir, 'invalid.csv', [
    ['Phone', 'Network', 'Amount'],
    [mtnPhone(1), 'MTN', 100],
    ['12345', 'MTN', 100],
  ]);
  f.bulkFiles = [0, 1].map((r) => writeCsv(peer.dir, `bulk ${r}.csv`, airtimeRows(3, 100, 720 + 10 * r)));
  f.jobId = (
    await peer.json<{ jobId: string }>(['bulk', 'submit', writeCsv(peer.dir, 'job.csv', airtimeRows(2, 100, 750)), '--kind', 'airtime', '--yes', '--confirm-total', '200'])
  ).jobId;
  // Standing orders.
  f.standingFiles = [0, 1].map((r) => writeCsv(peer.dir, `standing ${r}.csv`, airtimeRows(3, 100, 760 + 10 * r)));
  const standing = (name: string) => peer.json<{ orderId: string }>(standingAdd(f.standingFiles[0], name));
  f.standingOrder = (await standing('Staff airtime')).orderId;
  for (let r = 0; r < 2; r++) f.standingStates.push((await standing(`Paused ${r}`)).orderId);
  // Messaging.
  f.phonebookId = String((await peer.json<{ id: number }>(['phonebook', 'create', 'Fixture staff'])).id);
  f.contactsFile = writeContactsCsv(path.join(peer.dir, 'contacts.csv'), makeContacts(5));
  f.messageRef = (await peer.json<{ reference: string }>(['sms', 'send', '--to', PHONE, '--sender', 'VENDESK', '--message', 'Fixture'])).reference;
  f.messageJobId = String((await peer.json<{ id: number }>(['sms', 'send', '--contacts', f.contactsFile, '--sender', 'VENDESK', '--message', 'Hello {Name}'])).id);
  // Two jobs the service refused a message of: paused (exit 1), one for each round of `sms cancel`.
  for (let i = 0; i < 2; i++) {
    await peer.control.addFault({ path: '/sendMessage', status: 400, count: 1 });
    const paused = await peer.run(['sms', 'send', '--contacts', f.contactsFile, '--sender', 'VENDESK', '--message', `Hello {Name} ${i}`]);
    expect(paused.code, paused.stdout).toBe(1);
    f.pausedMessageJobs.push(String((JSON.parse(paused.stdout) as { id: number }).id));
  }
  for (let i = 0; i < 2; i++) {
    const reference = (await peer.json<{ reference: string }>(['otp', 'send', '--to', PHONE, '--sender', 'VENDESK'])).reference;
    const outbox = await peer.control.outbox();
    f.otp.push({ reference, code: outbox.find((e) => e.reference === reference)?.code ?? '' });
  }
  // A vendor export: the service's own log, and one row vendesk has never seen (missing locally).
  await peer.json(['sync']);
  const log = await serviceLog();
  const stranger = { ...log[0], id: '' as const, transaction_id: 'VENDOR-ONLY-0001', phone_number: '08059998877' };
  f.exportFile = path.join(peer.dir, 'vendor export.csv');
  writeVendorExportCsv(f.exportFile, [...log, stranger]);
  f.runId = (await peer.json<{ runId: string }>(['reconcile', f.exportFile])).runId;
  const items = await peer.json<{ items: { seq: number; category: string }[] }>(['reconcile', 'items', f.runId, '--category', 'missingLocally']);
  f.exceptionSeq = String(items.items[0].seq);
  // A single LIVE purchase above the team's threshold, prepared here (bola is also the admin) and
  // approved by chidi, for `purchases resume`; then this folder leaves until the `team join` scenario.
  expect((await peer.run(['team', 'join', '--url', f.teamUrl, '--password-file', f.teamPasswordFile])).code).toBe(0);
  expect((await peer.run(['team', 'threshold', '1000'])).code).toBe(0);
  const held = await peer.run(['buy', 'airtime', '--phone', mtnPhone(990), '--amount', '1500', '--yes']);
  expect(held.code, held.stdout).toBe(4);
  f.approvedSingle = (JSON.parse(held.stdout) as { error: { details?: unknown; message: string } }).error.message.match(/team job ([0-9a-f-]{36})/)?.[1] ?? '';
  const asChidi = new pg.Client(team.config('chidi', chidi));
  await asChidi.connect();
  await joinDesk(asChidi, { id: 'desk-c', name: 'Chidi PC' });
  await asChidi.query("SELECT vendesk.decide_job($1, 'approved', 'ok', 'desk-c', 'Chidi PC')", [f.approvedSingle]);
  await asChidi.end();
  expect((await peer.run(['team', 'threshold', 'none'])).code).toBe(0);
  expect((await peer.run(['team', 'leave'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await peer?.close();
  await team?.stop();
});

function writeSecret(name: string, secret: string): string {
  const file = path.join(peer.dir, name);
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return file;
}

describe('every command, both ways round', () => {
  it('has a scenario for every command of the table', () => {
    const names = COMMANDS.map((c) => c.path.join(' ')).filter((n) => !OUT_OF_PROCESS.has(n));
    expect(names.filter((n) => !SCENARIOS[n])).toEqual([]);
    expect(Object.keys(SCENARIOS).filter((n) => !names.includes(n))).toEqual([]);
  });

  for (const c of COMMANDS) {
    const name = c.path.join(' ');
    if (OUT_OF_PROCESS.has(name)) continue;
    it(`vendesk ${name}`, async () => {
      for (const [v, scenario] of (SCENARIOS[name] ?? []).entries()) {
        for (const [round, order] of ORDERS.entries()) {
          const args = scenario.args(round as Round);
          const r = await peer.run(args, order);
          const what = `variant ${v}, ${order}: vendesk ${args.join(' ')}\n${r.stdout}\n${r.stderr}`;
          expect(r.code, what).toBe(scenario.exit);
          const doc = JSON.parse(r.stdout) as unknown;
          const parsed = c.output.safeParse(doc);
          expect(parsed.success ? null : parsed.error.issues, what).toBeNull();
          expect(
            allKeys(doc).filter((k) => /kobo/i.test(k)),
            what,
          ).toEqual([]);
        }
      }
    });
  }

  it('prints a failure as the documented error document, whichever side the global options stand', async () => {
    for (const order of ORDERS) {
      const r = await peer.run(['bulk', 'status', '00000000-0000-4000-8000-000000000000'], order);
      expect(r.code).toBe(1);
      const doc = errorDocument.parse(JSON.parse(r.stdout));
      expect(doc.error).toEqual({
        code: 'job_not_found',
        message: 'There is no bulk job 00000000-0000-4000-8000-000000000000.',
        hint: 'List the bulk jobs of this connection with `vendesk bulk list`.',
      });
    }
  });
});

describe('what the new commands do', () => {
  it('bulk export writes the results the service recorded, one row per spreadsheet row', async () => {
    const out = path.join(peer.dir, 'check.csv');
    const r = await peer.json<{ rows: number; path: string }>(['bulk', 'export', f.jobId, '--out', out]);
    expect(r).toMatchObject({ rows: 2, path: out });
    const text = fs.readFileSync(out, 'utf8');
    const log = await serviceLog();
    for (const phone of [mtnPhone(750), mtnPhone(751)]) {
      const entry = log.find((e) => e.phone_number === phone);
      expect(entry?.status).toBe('SUCCESS');
      expect(text).toContain(entry?.transaction_id ?? 'missing');
    }
  });

  it('bulk caps reads and sets the caps of the connection in use, and a job above them is refused', async () => {
    const set = await peer.json(['bulk', 'caps', '--per-job', '250', '--per-day', 'off']);
    expect(set).toMatchObject({ perJob: 250, perDay: null, changed: true });
    expect(await peer.json(['bulk', 'caps'])).toMatchObject({ perJob: 250, perDay: null, changed: false });
    const refused = await peer.run(['bulk', 'submit', writeCsv(peer.dir, 'capped.csv', airtimeRows(3, 100, 760)), '--kind', 'airtime', '--yes', '--confirm-total', '300']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.message).toMatch(
      /above the spending cap per job of ₦250\.00\. Split the file, or raise the cap per job \(`vendesk bulk caps`\)\. Nothing was bought\./,
    );
    await peer.json(['bulk', 'caps', '--per-job', 'off']);
  });

  it('phonebook contacts lists what the service holds, searchable', async () => {
    const r = await peer.json<{ matching: number; contacts: { phoneNumber: string }[] }>(['phonebook', 'contacts', 'Fixture staff']);
    expect(r.matching).toBeGreaterThan(0);
    const one = r.contacts[0].phoneNumber;
    const found = await peer.json<{ matching: number; contacts: { phoneNumber: string }[] }>(['phonebook', 'contacts', f.phonebookId, '--search', one]);
    expect(found.contacts.map((c) => c.phoneNumber)).toEqual([one]);
  });

  it('reconcile resolve keeps the note on the item, and the run counts it resolved', async () => {
    await peer.json(['reconcile', 'resolve', f.runId, f.exceptionSeq, '--note', 'refund arrived 3 Dec, ticket 1234']);
    const items = await peer.json<{ items: { seq: number; resolutionNote: string | null; resolvedAt: string | null }[] }>([
      'reconcile',
      'items',
      f.runId,
      '--category',
      'missingLocally',
    ]);
    expect(items.items.find((i) => String(i.seq) === f.exceptionSeq)).toMatchObject({ resolutionNote: 'refund arrived 3 Dec, ticket 1234', resolvedAt: expect.any(String) });
  });

  it('messaging costs are Naira, and agree with the wallet the service debited', async () => {
    const before = (await peer.json<{ balance: number }>(['balance'])).balance;
    const sent = await peer.json<{ totalCost: number; smsCost: number; emailCost: number }>([
      'sms',
      'send',
      '--to',
      PHONE,
      '--sender',
      'VENDESK',
      '--message',
      'x'.repeat(200),
      '--email',
      'pay@example.com',
    ]);
    expect(sent).toMatchObject({ smsCost: 8, emailCost: 1, totalCost: 9 });
    expect(Math.round((before - (await peer.json<{ balance: number }>(['balance'])).balance) * 100)).toBe(900);
  });
});
