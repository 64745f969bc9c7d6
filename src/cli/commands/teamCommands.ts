/**
 * The team workspace on the command line: `vendesk team join|status|leave`, `vendesk approvals`,
 * `vendesk approve JOB`, `vendesk reject JOB --note`, `vendesk audit verify`,
 * `vendesk audit export`. The database password is read from a file (`--password-file`) or
 * `VENDESK_TEAM_PASSWORD`, never from the command line. Amounts in the JSON are Naira.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AuditVerifyView, TeamJobView, TeamStatusView } from '../../shared/contract/team';
import { parseTeamUrl } from '../../main/team/teamLink';
import { formatNaira, parseNairaText } from '../../shared/money';
import { command, dateRangeOptions, requireOption, requirePositional, stringOption, UsageError, type CliContext } from '../cliCommand';
import { isoTime, naira, nairaOrNull } from '../jsonShape';
import { textTable } from '../textTable';
import { writeExportTo } from './bulkCommands';
import { purchaseResult, purchaseShape, topUpResult, topUpShape } from './purchaseCommands';

const toNairaOrNull = (kobo: number | null) => (kobo === null ? null : kobo / 100);

const statusShape = z.strictObject({
  joined: z.boolean(),
  url: z.string().nullable().describe('postgres://USER@HOST:PORT/DATABASE, never a password'),
  user: z.string().nullable(),
  database: z.string().nullable(),
  desktopName: z.string().nullable(),
  roles: z.array(z.enum(['preparer', 'approver', 'admin'])),
  schemaVersion: z.number().nullable(),
  approvalThreshold: nairaOrNull.describe('single purchases above it need approval; null: none do'),
  problem: z.string().nullable().describe('why the database could not be read just now'),
  auditQueued: z.number().describe("audit rows of this desktop's actions waiting to be written to the team database"),
});

function statusJson(s: TeamStatusView): z.infer<typeof statusShape> {
  return {
    joined: s.joined,
    url: s.url,
    user: s.user,
    database: s.database,
    desktopName: s.desktopName,
    roles: s.roles,
    schemaVersion: s.schemaVersion,
    approvalThreshold: toNairaOrNull(s.approvalThresholdKobo),
    problem: s.problem,
    auditQueued: s.auditQueued,
  };
}

function statusText(s: TeamStatusView): string {
  if (!s.joined) return 'This desktop is not joined to a team database.';
  const lines = [
    `Team database: ${s.url}`,
    `Signed in as:  ${s.user} (${s.roles.length > 0 ? s.roles.join(', ') : 'no team role'})`,
    `This desktop:  ${s.desktopName}`,
    `Approval above: ${s.approvalThresholdKobo === null ? 'no single-purchase threshold' : formatNaira(s.approvalThresholdKobo)}`,
  ];
  if (s.auditQueued > 0) lines.push(`Audit rows waiting: ${s.auditQueued} (written when the team database answers)`);
  if (s.problem) lines.push(`Problem: ${s.problem}`);
  return lines.join('\n');
}

/** The database password: from `--password-file` (first line) or VENDESK_TEAM_PASSWORD. */
function readPassword(ctx: CliContext): string {
  const file = stringOption(ctx.args, 'password-file');
  if (file !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`--password-file: cannot read "${file}".`);
    }
    const password = text.split(/\r?\n/)[0] ?? '';
    if (password === '') throw new UsageError(`--password-file: "${file}" is empty; put the password on its first line.`);
    return password;
  }
  const env = ctx.env.VENDESK_TEAM_PASSWORD;
  if (env) return env;
  throw new UsageError('The database password is needed: give --password-file FILE, or set VENDESK_TEAM_PASSWORD.\nA password on the command line would be seen by other users of this computer.');
}

export const teamJoinCommand = command({
  path: ['team', 'join'],
  summary: 'Joins this desktop to the team database (the first join, by a role that may create roles, sets vendesk up in it)',
  usage: 'vendesk team join --url postgres://USER@HOST:PORT/DATABASE [--password-file FILE] [--desktop-name NAME] [--json]  (password also from VENDESK_TEAM_PASSWORD)',
  options: [
    { name: 'url', kind: 'string', description: 'The database: postgres://USER@HOST:PORT/DATABASE (add ?sslmode=verify-full across a network); no password in it' },
    { name: 'password-file', kind: 'string', description: "File whose first line is your role's password (or env VENDESK_TEAM_PASSWORD)" },
    { name: 'desktop-name', kind: 'string', description: 'How the audit trail names this desktop (default: the computer name)' },
  ],
  output: statusShape.extend({ migrated: z.array(z.number()).describe('schema steps this join applied') }),
  async run(ctx) {
    const url = requireOption(ctx.args, 'url');
    parseTeamUrl(url); // an address holding a password is refused before anything else
    const password = readPassword(ctx);
    const desktopName = stringOption(ctx.args, 'desktop-name');
    const joined = await ctx.call('team.join', { url, password, ...(desktopName ? { desktopName } : {}) });
    const migratedText = joined.migrated.length > 0 ? `\nSet up vendesk's schema in the database (step${joined.migrated.length > 1 ? 's' : ''} ${joined.migrated.join(', ')}).` : '';
    return { json: { ...statusJson(joined), migrated: joined.migrated }, text: `${statusText(joined)}${migratedText}` };
  },
});

export const teamStatusCommand = command({
  path: ['team', 'status'],
  summary: 'Whether this desktop is joined to a team database, as whom and with which roles',
  usage: 'vendesk team status [--json]',
  options: [],
  output: statusShape,
  async run(ctx) {
    const s = await ctx.call('team.status', {});
    return { json: statusJson(s), text: statusText(s) };
  },
});

export const teamLeaveCommand = command({
  path: ['team', 'leave'],
  summary: 'Forgets the team database on this desktop (the database keeps its jobs and audit trail)',
  usage: 'vendesk team leave [--json]',
  options: [],
  output: statusShape,
  async run(ctx) {
    const s = await ctx.call('team.leave', {});
    return { json: statusJson(s), text: 'This desktop left the team database; its password was removed from this computer.' };
  },
});

const jobShape = z.strictObject({
  id: z.string(),
  kind: z.enum(['bulk', 'single']),
  state: z.enum(['awaiting_approval', 'approved', 'rejected', 'running', 'finished', 'cancelled']),
  fileName: z.string().nullable(),
  items: z.number(),
  total: naira,
  wallet: nairaOrNull.describe('when it was prepared'),
  walletAfter: nairaOrNull.describe('if every item succeeds'),
  preparedBy: z.string(),
  preparedAt: isoTime,
  preparedOn: z.string().describe('desktop name'),
  decidedBy: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  note: z.string().nullable(),
  sameFileJobs: z.array(z.string()).describe('other jobs from the same spreadsheet'),
  purchase: z
    .strictObject({
      kind: z.enum(['airtime', 'data', 'electricity', 'cable']),
      recipient: z.string().describe('phone number, meter or smartcard'),
      phone: z.string(),
      description: z.string(),
      customerName: z.string().nullable(),
      amount: naira,
    })
    .nullable()
    .describe('a single purchase (kind single); null for a bulk job'),
  preparedHere: z.boolean().describe('prepared on this desktop: once approved it is bought here'),
});

function jobJson(j: TeamJobView): z.infer<typeof jobShape> {
  return {
    id: j.id,
    kind: j.kind,
    state: j.state,
    fileName: j.fileName,
    items: j.itemCount,
    total: j.totalKobo / 100,
    wallet: toNairaOrNull(j.walletKobo),
    walletAfter: toNairaOrNull(j.walletAfterKobo),
    preparedBy: j.preparedBy,
    preparedAt: j.preparedAt,
    preparedOn: j.preparedOn,
    decidedBy: j.decidedBy,
    decidedAt: j.decidedAt,
    note: j.decisionNote,
    sameFileJobs: j.sameFileJobs,
    purchase: j.purchase
      ? { kind: j.purchase.kind, recipient: j.purchase.account, phone: j.purchase.phone, description: j.purchase.description, customerName: j.purchase.customerName, amount: j.purchase.amountKobo / 100 }
      : null,
    preparedHere: j.preparedHere,
  };
}

/** What a job buys, in a few words: the spreadsheet, or the single purchase. */
function jobWhat(j: TeamJobView): string {
  if (j.purchase) return `${j.purchase.description} for ${j.purchase.account}${j.purchase.customerName ? ` (${j.purchase.customerName})` : ''}`;
  return j.fileName ?? j.kind;
}

const STATE_TEXT: Record<TeamJobView['state'], string> = {
  awaiting_approval: 'waiting for approval',
  approved: 'approved',
  rejected: 'rejected',
  running: 'running',
  finished: 'finished',
  cancelled: 'cancelled',
};

function jobText(j: TeamJobView): string {
  const lines = [
    `Job ${j.id}: ${STATE_TEXT[j.state]}`,
    `  ${jobWhat(j)}, ${j.itemCount} item(s), total ${formatNaira(j.totalKobo)}${j.walletAfterKobo === null ? '' : `, wallet after ${formatNaira(j.walletAfterKobo)}`}`,
    `  prepared by ${j.preparedBy} on ${j.preparedOn} at ${j.preparedAt}`,
  ];
  if (j.decidedBy) lines.push(`  ${j.state === 'rejected' ? 'rejected' : 'approved'} by ${j.decidedBy} at ${j.decidedAt}${j.decisionNote ? `: ${j.decisionNote}` : ''}`);
  if (j.sameFileJobs.length > 0) lines.push(`  Same spreadsheet as job(s) ${j.sameFileJobs.join(', ')}`);
  if (j.purchase && j.preparedHere && j.state === 'approved') lines.push(`  Buy it here: vendesk purchases resume ${j.id}`);
  return lines.join('\n');
}

export const approvalsCommand = command({
  path: ['approvals'],
  summary: 'Team jobs waiting for approval (or approved, rejected, all), with who prepared and decided them',
  usage: 'vendesk approvals [--state waiting|approved|rejected|all] [--json]',
  options: [{ name: 'state', kind: 'string', description: 'waiting (default), approved, rejected or all' }],
  output: z.strictObject({ state: z.enum(['waiting', 'approved', 'rejected', 'all']), jobs: z.array(jobShape) }),
  async run(ctx) {
    const state = stringOption(ctx.args, 'state') ?? 'waiting';
    if (state !== 'waiting' && state !== 'approved' && state !== 'rejected' && state !== 'all') {
      throw new UsageError(`--state must be waiting, approved, rejected or all; got "${state}"`);
    }
    const jobs = await ctx.call('approvals.list', { state });
    const text =
      jobs.length === 0
        ? `No team jobs ${state === 'all' ? 'yet' : state === 'waiting' ? 'wait for approval' : `were ${state}`}.`
        : textTable([
            ['Job', 'State', 'What', 'Items', 'Total', 'Prepared by', 'Decided by'],
            ...jobs.map((j) => [j.id, STATE_TEXT[j.state], jobWhat(j), String(j.itemCount), formatNaira(j.totalKobo), `${j.preparedBy} (${j.preparedOn})`, j.decidedBy ?? '—']),
          ]);
    return { json: { state, jobs: jobs.map(jobJson) }, text };
  },
});

function decideCommand(decision: 'approve' | 'reject') {
  return command({
    path: [decision],
    summary: decision === 'approve' ? 'Approves a team job someone else prepared (the database refuses your own)' : 'Rejects a team job, saying why (--note)',
    usage: decision === 'approve' ? 'vendesk approve JOB_ID [--note TEXT] [--json]' : 'vendesk reject JOB_ID --note TEXT [--json]',
    options: [{ name: 'note', kind: 'string', description: decision === 'approve' ? 'A note kept with the approval' : 'Why the job is rejected (required)' }],
    output: jobShape,
    async run(ctx) {
      const jobId = requirePositional(ctx.args, 0, `Give the team job to ${decision}: vendesk ${decision} JOB_ID (see \`vendesk approvals\`).`);
      const note = decision === 'reject' ? requireOption(ctx.args, 'note') : (stringOption(ctx.args, 'note') ?? '');
      const job = await ctx.call('approvals.decide', { jobId, decision, note });
      return { json: jobJson(job), text: jobText(job) };
    },
  });
}

const verifyShape = z.strictObject({
  intact: z.boolean(),
  rows: z.number(),
  head: z.strictObject({ seq: z.number(), hash: z.string() }).nullable().describe('the last row'),
  breaks: z.array(z.strictObject({ seq: z.number(), kind: z.enum(['altered', 'relinked', 'missing', 'head_missing']), message: z.string() })),
});

function verifyText(v: AuditVerifyView): string {
  if (v.intact) return `The audit trail is intact: ${v.rows} row(s), each matching its hash and linked to the one before${v.head ? ` (last row ${v.head.seq})` : ''}.`;
  return [`The audit trail is NOT intact (${v.rows} row(s) read):`, ...v.breaks.map((b) => `  ${b.message}`)].join('\n');
}

export const auditVerifyCommand = command({
  path: ['audit', 'verify'],
  summary: "Checks the team audit trail's hash chain row by row, in vendesk's own code",
  usage: 'vendesk audit verify [--json]',
  options: [],
  output: verifyShape,
  exitCodes: { 0: 'the chain is intact', 1: 'a row was altered or deleted (listed), or the check could not run' },
  async run(ctx) {
    const v = await ctx.call('audit.verify', {});
    return { exitCode: v.intact ? 0 : 1, json: v, text: verifyText(v) };
  },
});

export const auditExportCommand = command({
  path: ['audit', 'export'],
  summary: 'The team audit trail of a range of Lagos days as an Excel workbook for an auditor, with its hashes and a Verification sheet',
  usage: 'vendesk audit export --out FILE.xlsx [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]',
  options: [
    { name: 'out', kind: 'string', description: 'The .xlsx file to write' },
    { name: 'from', kind: 'string', description: 'First day (a Lagos day), included' },
    { name: 'to', kind: 'string', description: 'Last day (a Lagos day), included' },
  ],
  output: z.strictObject({ path: z.string(), rows: z.number(), bytes: z.number(), chainIntact: z.boolean() }),
  async run(ctx) {
    const out = requireOption(ctx.args, 'out');
    if (path.extname(out).toLowerCase() !== '.xlsx') throw new UsageError(`--out must end in .xlsx, got "${out}"`);
    const range = dateRangeOptions(ctx.args);
    const written = await ctx.call('audit.export', { ...(range.from ? { from: range.from } : {}), ...(range.to ? { to: range.to } : {}) });
    const file = writeExportTo(written.path, out);
    const chain = written.verification.intact ? 'the whole chain verified' : 'the chain did NOT verify — see the Verification sheet';
    return { json: { path: file, rows: written.rows, bytes: written.bytes, chainIntact: written.verification.intact }, text: `Wrote ${written.rows} audit row(s) to ${file}; ${chain}.` };
  },
});

export const teamThresholdCommand = command({
  path: ['team', 'threshold'],
  summary: 'Sets the amount above which a single LIVE purchase waits for approval by another member (team admins only)',
  usage: 'vendesk team threshold NAIRA|none [--json]',
  options: [],
  output: statusShape,
  async run(ctx) {
    const text = requirePositional(ctx.args, 0, 'Give the amount in Naira (e.g. `vendesk team threshold 50000`), or `none` so that no single purchase needs approval.');
    let thresholdKobo: number | null = null;
    if (text.toLowerCase() !== 'none') {
      const r = parseNairaText(text);
      if (!r.ok) throw new UsageError(`"${text}" is not an amount vendesk reads. ${r.reason}`);
      if (r.kobo < 0) throw new UsageError('The threshold cannot be below ₦0.');
      thresholdKobo = r.kobo;
    }
    const s = await ctx.call('team.setThreshold', { thresholdKobo });
    const said =
      s.approvalThresholdKobo === null
        ? 'No single purchase needs approval now.'
        : `A single LIVE purchase above ${formatNaira(s.approvalThresholdKobo)} now waits for approval by another team member.`;
    return { json: statusJson(s), text: `${said}\n${statusText(s)}` };
  },
});

export const purchasesResumeCommand = command({
  path: ['purchases', 'resume'],
  summary: 'Buys an approved single purchase prepared on this desktop, exactly once (asked again: its receipt, nothing more is bought)',
  usage: 'vendesk purchases resume TEAM_JOB_ID [--json]',
  options: [],
  output: z.union([purchaseShape, topUpShape]),
  exitCodes: { 0: 'bought, or accepted and pending', 1: 'declined, refused, uncertain, rejected by the approver, or the command failed', 4: 'still waits for approval (nothing bought)' },
  async run(ctx) {
    const teamJobId = requirePositional(ctx.args, 0, 'Give the team job of the purchase: vendesk purchases resume TEAM_JOB_ID (see `vendesk approvals --state approved`).');
    const bought = await ctx.call('purchases.resume', { teamJobId });
    if (bought.purchase) return purchaseResult(bought.purchase);
    if (bought.topUp) return topUpResult(bought.topUp);
    throw new UsageError(`Team job ${teamJobId} has no purchase.`);
  },
});

export const TEAM_COMMANDS = [teamJoinCommand, teamStatusCommand, teamThresholdCommand, purchasesResumeCommand, approvalsCommand, decideCommand('approve'), decideCommand('reject'), auditVerifyCommand, auditExportCommand, teamLeaveCommand];
