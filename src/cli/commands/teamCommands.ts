/**
 * The team workspace on the command line: `vendesk team join|status|leave|threshold|policy`, `vendesk approvals [JOB_ID]`,
 * `vendesk approve JOB`, `vendesk reject JOB --note`, `vendesk audit verify`,
 * `vendesk audit export`. The database password is read from a file (`--password-file`) or
 * `VENDESK_TEAM_PASSWORD`, never from the command line. Amounts in the JSON are Naira.
 *
 * Longer than 400 lines on purpose: one declaration per command — its options, its JSON and what
 * it prints — in the order `vendesk --help` lists them; each is short, and the area reads as one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../shared/appError';
import type { AuditVerifyView, SinglePurchaseKind, TeamJobRowView, TeamJobRowsView, TeamJobView, TeamJoinResult, TeamPolicyView, TeamStatusView } from '../../shared/contract/team';
import { shortDigest } from '../../shared/teamDigest';
import { parseTeamUrl } from '../../main/team/teamLink';
import { formatNaira, parseNairaText } from '../../shared/money';
import { EXIT, command, dateRangeOptions, requireOption, requirePositional, stringOption, UsageError, type CliContext } from '../cliCommand';
import { isoTime, naira, nairaOrNull } from '../jsonShape';
import { lines, quoted, textTable, tt, type TerminalText } from '../terminal';
import { FORCE_OPTION, outTarget, writeExportTo } from '../outFile';
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
  dualApprovalAbove: nairaOrNull.describe('jobs above it need two approvers, neither the preparer; null: one approver'),
  approvalValidMinutes: z.number().nullable().describe('nothing more is sent under an approval older than this; null: no limit'),
  problem: z.string().nullable().describe('why the database could not be read just now'),
  auditQueued: z.number().describe("audit rows of this desktop's actions waiting to be written to the team database"),
  setup: z
    .strictObject({
      finished: z.boolean().describe('no login role but a superuser can create roles, become vendesk_owner or a superuser, and only team members may connect'),
      problems: z.array(
        z.strictObject({
          role: z.string(),
          kind: z.enum(['createrole', 'owner', 'superuser', 'owner_login', 'public_connect']),
          message: z.string(),
          fix: z.string().describe('the SQL that removes the power'),
        }),
      ),
    })
    .nullable()
    .describe('null when the database could not be read'),
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
    dualApprovalAbove: toNairaOrNull(s.dualApprovalAboveKobo),
    approvalValidMinutes: s.approvalValidMinutes,
    problem: s.problem,
    auditQueued: s.auditQueued,
    setup: s.setup,
  };
}

/** The setup check in words: finished, or each role that could still forge and what removes it. */
function setupText(s: TeamStatusView): TerminalText[] {
  if (!s.setup) return [];
  if (s.setup.finished) return [tt`Setup:         finished (no login role but a superuser can create roles or become the owner)`];
  return [
    tt`Setup:         NOT finished — each of these could forge an approval or reach the team database:`,
    ...s.setup.problems.flatMap((p) => [tt`  ${p.message}`, tt`    Fix: ${p.fix}`]),
  ];
}

function statusText(s: TeamStatusView): TerminalText {
  if (!s.joined) return tt`This desktop is not joined to a team database.`;
  const said = [
    tt`Team database: ${s.url ?? ''}`,
    tt`Signed in as:  ${s.user ?? ''} (${s.roles.length > 0 ? s.roles.join(', ') : 'no team role'})`,
    tt`This desktop:  ${s.desktopName ?? ''}`,
    tt`Approval above: ${s.approvalThresholdKobo === null ? 'no single-purchase threshold' : formatNaira(s.approvalThresholdKobo)}`,
    ...policyLines(s),
  ];
  if (s.auditQueued > 0) said.push(tt`Audit rows waiting: ${s.auditQueued} (written when the team database answers)`);
  said.push(...setupText(s));
  if (s.problem) said.push(tt`Problem: ${s.problem}`);
  return lines(said);
}

/** The approval policy in words (`team status`, `team policy`, `approvals`). */
function policyLines(s: TeamPolicyView): string[] {
  return [
    `Two approvers: ${s.dualApprovalAboveKobo === null ? 'never (one approver, not the preparer, for any amount)' : `for a job above ${formatNaira(s.dualApprovalAboveKobo)} (neither the preparer)`}`,
    `Approval valid: ${s.approvalValidMinutes === null ? 'without limit' : `${s.approvalValidMinutes} minute(s) after it is given; then nothing more is sent under it`}`,
  ];
}

/** What the setup join says: the schema is ready, this desktop is not joined, the roles come next. */
function setupJoinText(j: TeamJoinResult): TerminalText {
  const step = j.migrated.length > 0 ? `set up (step${j.migrated.length > 1 ? 's' : ''} ${j.migrated.join(', ')})` : 'already current';
  return lines([
    `The schema is ready (version ${j.schemaVersion}, ${step}); now create the team's roles.`,
    j.joined
      ? tt`This desktop stays joined as ${j.user ?? ''}; the setup role's password is not kept here.`
      : 'This desktop is not joined: the setup role holds no team role, and its password is not kept here.',
    'Next, as described in docs/team.md: create one login role per person and grant it vendesk_preparer, vendesk_approver or vendesk_admin;',
    'then end the setup (the setup role gives up CREATEROLE), and each person joins with their own role.',
    ...setupText(j),
  ]);
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
  throw new UsageError(
    'The database password is needed: give --password-file FILE, or set VENDESK_TEAM_PASSWORD.\nA password on the command line would be seen by other users of this computer.',
  );
}

export const teamJoinCommand = command({
  path: ['team', 'join'],
  summary: 'Joins this desktop to the team database (the first join, by a role that may create roles, sets vendesk up in it)',
  usage: 'vendesk team join --url postgres://USER@HOST:PORT/DATABASE [--password-file FILE] [--desktop-name NAME] [--json]  (password also from VENDESK_TEAM_PASSWORD)',
  options: [
    {
      name: 'url',
      kind: 'string',
      description:
        'The database: postgres://USER@HOST:PORT/DATABASE; no password in it. Another host is reached with TLS and its certificate checked unless ?sslmode=disable, require or verify-ca says otherwise',
    },
    { name: 'password-file', kind: 'string', description: "File whose first line is your role's password (or env VENDESK_TEAM_PASSWORD)" },
    { name: 'desktop-name', kind: 'string', description: 'How the audit trail names this desktop (default: the computer name)' },
  ],
  output: statusShape.extend({
    migrated: z.array(z.number()).describe('schema steps this join applied'),
    setupRole: z.boolean().describe("joined with the setup role: the schema is ready, this desktop is not joined; create the team's roles next"),
  }),
  async run(ctx) {
    const url = requireOption(ctx.args, 'url');
    parseTeamUrl(url); // an address holding a password is refused before anything else
    const password = readPassword(ctx);
    const desktopName = stringOption(ctx.args, 'desktop-name');
    const joined = await ctx.call('team.join', { url, password, ...(desktopName ? { desktopName } : {}) });
    const migrated = joined.migrated.length > 0 ? [`Set up vendesk's schema in the database (step${joined.migrated.length > 1 ? 's' : ''} ${joined.migrated.join(', ')}).`] : [];
    const json = { ...statusJson(joined), migrated: joined.migrated, setupRole: joined.setupRole };
    if (joined.setupRole) return { json, text: setupJoinText(joined) };
    return { json, text: lines([statusText(joined), ...migrated]) };
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

export const teamDoctorCommand = command({
  path: ['team', 'doctor'],
  summary:
    'Checks that the team database leaves no forger: names each login role (not a superuser) that may create roles or can become vendesk_owner, and a database any login may connect to',
  usage: 'vendesk team doctor [--json]',
  options: [],
  output: statusShape,
  exitCodes: {
    0: 'the setup is finished: no such role',
    1: 'a role could forge an approval, or any login may connect to the database (each is named with the SQL that removes it), or the database could not be read',
  },
  async run(ctx) {
    const s = await ctx.call('team.status', {});
    if (!s.joined)
      throw new AppError(
        'team_not_joined',
        'This desktop is not joined to a team database.',
        'Join with your own role first (`vendesk team join --url postgres://USER@HOST:PORT/DATABASE --password-file FILE`).',
      );
    const text = s.setup ? lines(setupText(s)) : tt`The team database could not be read: ${s.problem ?? 'unknown problem'}`;
    if (s.setup?.finished === true) return { json: statusJson(s), text };
    const failure = s.setup
      ? {
          exitCode: EXIT.failed,
          message: `The setup is not finished: ${s.setup.problems.length} role(s) could forge an approval (each is listed).`,
          hint: 'Run the SQL listed under each role.',
        }
      : { exitCode: EXIT.failed, message: `The team database could not be read: ${s.problem ?? 'unknown problem'}` };
    return { json: statusJson(s), text, failure };
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
    return { json: statusJson(s), text: tt`This desktop left the team database; its password was removed from this computer.` };
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
  approvedBy: z.array(z.string()).describe('who approved it, in order'),
  approvalsNeeded: z.number().describe('2 above the dual-approval amount, else 1'),
  itemsDigest: z.string().nullable().describe("SHA-256 of the job's rows, computed by the team database; each desktop checks it before it sends"),
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
    approvedBy: j.approvedBy,
    approvalsNeeded: j.approvalsNeeded,
    itemsDigest: j.itemsDigest,
    sameFileJobs: j.sameFileJobs,
    purchase: j.purchase
      ? {
          kind: j.purchase.kind,
          recipient: j.purchase.account,
          phone: j.purchase.phone,
          description: j.purchase.description,
          customerName: j.purchase.customerName,
          amount: j.purchase.amountKobo / 100,
        }
      : null,
    preparedHere: j.preparedHere,
  };
}

const KIND_WORDS: Record<SinglePurchaseKind, string> = { airtime: 'airtime', data: 'data', electricity: 'electricity', cable: 'cable TV' };

/** What a job buys, from its typed fields only: "bulk airtime", "single electricity". */
function buysText(j: TeamJobView): string {
  return `${j.kind === 'single' ? 'single' : 'bulk'} ${j.buys ? KIND_WORDS[j.buys] : '(kind not recorded)'}`;
}

/** The job's free text — the spreadsheet's name, a single purchase's description and customer — quoted, after everything typed. */
function jobFreeText(j: TeamJobView): TerminalText | null {
  if (j.purchase) return tt`${quoted(j.purchase.description)}${j.purchase.customerName ? tt`, customer ${quoted(j.purchase.customerName)}` : ''}`;
  return j.fileName === null ? null : tt`file ${quoted(j.fileName)}`;
}

const STATE_TEXT: Record<TeamJobView['state'], string> = {
  awaiting_approval: 'waiting for approval',
  approved: 'approved',
  rejected: 'rejected',
  running: 'running',
  finished: 'finished',
  cancelled: 'cancelled',
};

/**
 * A team job as an approver reads it, laid out from typed fields first — how many items, the
 * total, what they buy (and for whom, for a single purchase) — and the free text a preparer chose
 * (the desktop's and the file's names, a description) after them, quoted and escaped, each on a
 * line of its own that starts with what it is.
 */
function jobText(j: TeamJobView): TerminalText {
  const forWhom = j.purchase ? ` for ${j.purchase.account}` : '';
  const said = [
    tt`Job ${j.id}: ${STATE_TEXT[j.state]}`,
    tt`  ${j.itemCount} item(s), total ${formatNaira(j.totalKobo)}: ${buysText(j)}${forWhom}${j.walletAfterKobo === null ? '' : `; wallet after ${formatNaira(j.walletAfterKobo)}`}`,
  ];
  if (j.state === 'awaiting_approval' && j.approvedBy.length > 0) said.push(tt`  ${approvalsText(j)}: approved by ${j.approvedBy.join(', ')}; another approver is needed`);
  if (j.decidedBy) said.push(tt`  ${j.state === 'rejected' ? 'rejected' : 'approved'} by ${j.decidedBy} at ${j.decidedAt ?? ''}`);
  if (j.decisionNote) said.push(tt`  note: ${quoted(j.decisionNote)}`);
  said.push(tt`  prepared by ${j.preparedBy} at ${j.preparedAt}, on desktop ${quoted(j.preparedOn)}`);
  const free = jobFreeText(j);
  if (free) said.push(tt`  ${free}`);
  said.push(tt`  rows digest ${shortDigest(j.itemsDigest)} (see the rows: vendesk approvals ${j.id})`);
  if (j.sameFileJobs.length > 0) said.push(tt`  Same spreadsheet as job(s) ${j.sameFileJobs.join(', ')}`);
  if (j.purchase && j.preparedHere && j.state === 'approved') said.push(tt`  Buy it here: vendesk purchases resume ${j.id}`);
  return lines(said);
}

/** "1 of 2 approvals". */
function approvalsText(j: TeamJobView): string {
  return `${j.approvedBy.length} of ${j.approvalsNeeded} approval${j.approvalsNeeded > 1 ? 's' : ''}`;
}

/** Amounts read down a column: each padded on the left to the widest. */
function rightAligned(values: string[]): string[] {
  const width = Math.max(0, ...values.map((v) => v.length));
  return values.map((v) => v.padStart(width));
}

/**
 * A page of a job's rows as the team database stores them, each row's recipient and amount first,
 * and only the fields a desktop sends for what the job buys: an airtime or data row's meter or
 * smartcard field is not sent, so it is not shown (a line says which rows carry one). When the
 * page holds every row, their count and sum are checked against the job's.
 */
function rowsText(r: TeamJobRowsView): TerminalText {
  const { job } = r;
  if (r.rows.length === 0) return lines([jobText(job), `Page ${r.page} has no rows (the job has ${r.pages} page(s)).`]);
  const toPhone = job.buys === 'airtime' || job.buys === 'data';
  const toAccount = job.buys === 'electricity' || job.buys === 'cable';
  const amounts = rightAligned(r.rows.map((row) => formatNaira(row.amountKobo)));
  const cells = (row: TeamJobRowView, i: number): string[] => {
    if (toPhone) return [String(row.row), row.phone ?? '—', amounts[i], row.network ?? '—', row.product];
    if (toAccount) return [String(row.row), row.account ?? '—', amounts[i], row.product, row.phone ?? '—'];
    return [String(row.row), row.phone ?? '—', row.account ?? '—', amounts[i], row.network ?? '—', row.product];
  };
  const head = toPhone
    ? ['Row', 'Phone', 'Amount', 'Network', 'Product']
    : toAccount
      ? ['Row', job.buys === 'electricity' ? 'Meter' : 'Smartcard', 'Amount', job.buys === 'electricity' ? 'Disco' : 'Bouquet', 'Phone']
      : ['Row', 'Phone', 'Meter/smartcard', 'Amount', 'Network', 'Product'];
  const said: (TerminalText | string)[] = [jobText(job), textTable([head, ...r.rows.map(cells)])];
  if (!job.buys) said.push('The team database does not record what this job buys: every field of its rows is shown.');
  const unsent = toPhone ? r.rows.filter((row) => row.account !== null && row.account !== row.phone).map((row) => row.row) : [];
  if (unsent.length > 0) {
    said.push(`Row(s) ${unsent.join(', ')} also carry a meter or smartcard field, which ${job.buys} does not send: it is not shown, and nothing is bought with it.`);
  }
  if (r.pages === 1 && r.page === 1) {
    const sum = r.rows.reduce((total, row) => total + row.amountKobo, 0);
    if (sum !== job.totalKobo || r.rows.length !== job.itemCount) {
      said.push(
        `WARNING: the job's rows are ${r.rows.length} item(s) for ${formatNaira(sum)}, not the ${job.itemCount} item(s) for ${formatNaira(job.totalKobo)} the job says. Do not approve it; tell your administrator.`,
      );
    }
  }
  said.push(r.page < r.pages ? `Page ${r.page} of ${r.pages}: the next is \`vendesk approvals ${job.id} --page ${r.page + 1}\`.` : `Page ${r.page} of ${r.pages}.`);
  return lines(said);
}

const rowShape = z.strictObject({
  row: z.number().describe('spreadsheet row (1 for a single purchase)'),
  phone: z.string().nullable(),
  account: z.string().nullable().describe('meter or smartcard'),
  network: z.string().nullable(),
  product: z.string().describe('product code, plan or kind'),
  amount: naira,
});

const listShape = z.strictObject({
  state: z.enum(['waiting', 'approved', 'rejected', 'all']),
  policy: z.strictObject({ approvalThreshold: nairaOrNull, dualApprovalAbove: nairaOrNull, approvalValidMinutes: z.number().nullable() }),
  jobs: z.array(jobShape),
});
const rowsShape = z.strictObject({ job: jobShape, page: z.number(), pages: z.number(), pageSize: z.number(), rows: z.array(rowShape) });

function rowsResult(r: TeamJobRowsView): { json: z.infer<typeof rowsShape>; text: TerminalText } {
  const json = {
    job: jobJson(r.job),
    page: r.page,
    pages: r.pages,
    pageSize: r.pageSize,
    rows: r.rows.map((row) => ({ row: row.row, phone: row.phone, account: row.account, network: row.network, product: row.product, amount: row.amountKobo / 100 })),
  };
  return { json, text: rowsText(r) };
}

/** A job in the list: the typed figures first; who prepared it, on which desktop, and its file (free text) last. */
function jobListRow(j: TeamJobView): string[] {
  const free = jobFreeText(j);
  return [
    j.id,
    STATE_TEXT[j.state],
    String(j.itemCount),
    formatNaira(j.totalKobo),
    `${buysText(j)}${j.purchase ? ` for ${j.purchase.account}` : ''}`,
    approvalsText(j),
    j.decidedBy ?? '—',
    shortDigest(j.itemsDigest),
    j.preparedBy,
    j.preparedOn,
    free ? free.text : '—',
  ];
}

export const approvalsCommand = command({
  path: ['approvals'],
  summary: "Team jobs waiting for approval (or approved, rejected, all), with who prepared and decided them; with a JOB_ID, that job's rows (what is bought), a page at a time",
  usage: 'vendesk approvals [JOB_ID [--page N]] [--state waiting|approved|rejected|all] [--json]',
  options: [
    { name: 'state', kind: 'string', description: 'waiting (default), approved, rejected or all' },
    { name: 'page', kind: 'string', description: "With JOB_ID: which page of the job's rows (50 a page; default 1)" },
  ],
  output: z.union([listShape, rowsShape]),
  async run(ctx) {
    const jobId = ctx.args.positionals[0];
    const pageText = stringOption(ctx.args, 'page');
    if (jobId) {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jobId))
        throw new UsageError(`"${jobId}" is not a team job id (see \`vendesk approvals --state all\`).`);
      if (pageText !== undefined && !/^[1-9]\d{0,8}$/.test(pageText)) throw new UsageError(`--page must be a whole number from 1, like 2; got "${pageText}"`);
      return rowsResult(await ctx.call('approvals.rows', { jobId, page: pageText === undefined ? 1 : Number(pageText), pageSize: 50 }));
    }
    if (pageText !== undefined) throw new UsageError('--page goes with a JOB_ID: vendesk approvals JOB_ID --page N');
    const state = stringOption(ctx.args, 'state') ?? 'waiting';
    if (state !== 'waiting' && state !== 'approved' && state !== 'rejected' && state !== 'all') {
      throw new UsageError(`--state must be waiting, approved, rejected or all; got "${state}"`);
    }
    const jobs = await ctx.call('approvals.list', { state });
    const s = await ctx.call('team.status', {});
    const table =
      jobs.length === 0
        ? tt`No team jobs ${state === 'all' ? 'yet' : state === 'waiting' ? 'wait for approval' : `were ${state}`}.`
        : textTable([
            ['Job', 'State', 'Items', 'Total', 'Buys', 'Approvals', 'Decided by', 'Rows digest', 'Prepared by', 'On desktop', 'File or purchase'],
            ...jobs.map(jobListRow),
          ]);
    const policy = {
      approvalThreshold: toNairaOrNull(s.approvalThresholdKobo),
      dualApprovalAbove: toNairaOrNull(s.dualApprovalAboveKobo),
      approvalValidMinutes: s.approvalValidMinutes,
    };
    const text = lines([table, ...policyLines(s), ...(jobs.length > 0 ? ["A job's rows: vendesk approvals JOB_ID"] : [])]);
    return { json: { state: state as z.infer<typeof listShape>['state'], policy, jobs: jobs.map(jobJson) }, text };
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
      if (decision === 'reject' || ctx.json) return { json: jobJson(job), text: jobText(job) };
      // What was approved, row by row (its first page), as the team database stores it.
      let text: TerminalText;
      try {
        text = rowsText(await ctx.call('approvals.rows', { jobId, page: 1, pageSize: 50 }));
      } catch (error) {
        text = lines([jobText(job), tt`Its rows could not be read just now (${error instanceof Error ? error.message : String(error)}): see them with vendesk approvals ${jobId}`]);
      }
      return { json: jobJson(job), text };
    },
  });
}

const verifyShape = z.strictObject({
  intact: z.boolean(),
  rows: z.number(),
  head: z.strictObject({ seq: z.number(), hash: z.string() }).nullable().describe('the last row'),
  breaks: z.array(z.strictObject({ seq: z.number(), kind: z.enum(['altered', 'relinked', 'missing', 'head_missing']), message: z.string() })),
  unrecorded: z
    .array(
      z.strictObject({
        code: z.enum(['approval_unrecorded', 'claim_unrecorded', 'settle_unrecorded', 'job_unrecorded', 'state_unrecorded', 'send_after_expiry']),
        jobId: z.string().nullable(),
        item: z.number().nullable().describe('spreadsheet row of a claim or settlement'),
        message: z.string(),
      }),
    )
    .describe('approvals, claims, settlements and job states that have no audit row'),
});

function verifyText(v: AuditVerifyView): TerminalText {
  if (v.intact) {
    return tt`The audit trail is intact: ${v.rows} row(s), each matching its hash and linked to the one before${v.head ? ` (last row ${v.head.seq})` : ''}; every approval, claim, settlement and job state has its row, and nothing was sent after its approval expired.`;
  }
  const said: (TerminalText | string)[] = [];
  if (v.breaks.length > 0) said.push(`The audit trail is NOT intact (${v.rows} row(s) read):`, ...v.breaks.map((b) => tt`  ${b.message}`));
  else said.push(`The audit trail's chain is intact (${v.rows} row(s)), but the team database holds what the trail does not record, or the trail what the team's rules forbid:`);
  if (v.unrecorded.length > 0 && v.breaks.length > 0) said.push('Not recorded in the trail, or against the rules:');
  said.push(...v.unrecorded.map((u) => tt`  ${u.message} [${u.code}]`));
  return lines(said);
}

export const auditVerifyCommand = command({
  path: ['audit', 'verify'],
  summary: "Checks the team audit trail's hash chain row by row, in vendesk's own code, and that every approval, claim, settlement and job state has its row",
  usage: 'vendesk audit verify [--json]',
  options: [],
  output: verifyShape,
  exitCodes: {
    0: 'the chain is intact and every approval, claim, settlement and job state has its audit row',
    1: 'a row was altered or deleted, or a state has no audit row (each listed), or the check could not run',
  },
  async run(ctx) {
    const v = await ctx.call('audit.verify', {});
    if (v.intact) return { json: v, text: verifyText(v) };
    const message =
      v.breaks.length > 0
        ? `The audit trail is NOT intact: ${v.breaks.length} broken row(s)${v.unrecorded.length > 0 ? `, and ${v.unrecorded.length} state(s) with no audit row` : ''} (each is listed).`
        : `The audit trail does not record ${v.unrecorded.length} state(s) of the team database (each is listed).`;
    return {
      json: v,
      text: verifyText(v),
      failure: {
        exitCode: EXIT.failed,
        message,
        hint: 'Tell your database administrator: only someone who can become the schema owner, or a superuser, can write around vendesk.',
      },
    };
  },
});

export const auditExportCommand = command({
  path: ['audit', 'export'],
  summary: 'The team audit trail of a range of Lagos days as an Excel workbook for an auditor, with its hashes and a Verification sheet',
  usage: 'vendesk audit export --out FILE.xlsx [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]',
  options: [
    { name: 'out', kind: 'string', description: 'The .xlsx file to write' },
    FORCE_OPTION,
    { name: 'from', kind: 'string', description: 'First day (a Lagos day), included' },
    { name: 'to', kind: 'string', description: 'Last day (a Lagos day), included' },
  ],
  output: z.strictObject({ path: z.string(), rows: z.number(), bytes: z.number(), chainIntact: z.boolean() }),
  async run(ctx) {
    const out = requireOption(ctx.args, 'out');
    const range = dateRangeOptions(ctx.args);
    outTarget(ctx.args, out, 'audit trail.xlsx');
    if (path.extname(out).toLowerCase() !== '.xlsx') throw new UsageError(`--out must end in .xlsx, got "${out}"`);
    const written = await ctx.call('audit.export', { ...(range.from ? { from: range.from } : {}), ...(range.to ? { to: range.to } : {}) });
    const file = writeExportTo(written.path, out, ctx.args);
    const chain = written.verification.intact ? 'the whole chain verified' : 'the chain did NOT verify — see the Verification sheet';
    return {
      json: { path: file, rows: written.rows, bytes: written.bytes, chainIntact: written.verification.intact },
      text: tt`Wrote ${written.rows} audit row(s) to ${file}; ${chain}.`,
    };
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
    return { json: statusJson(s), text: lines([said, statusText(s)]) };
  },
});

/** `--dual-above` / `--valid-for`: a number, or `none`. */
function policyValue(ctx: CliContext, name: string, read: (text: string) => number): number | null | undefined {
  const text = stringOption(ctx.args, name);
  if (text === undefined) return undefined;
  return text.trim().toLowerCase() === 'none' ? null : read(text.trim());
}

export const teamPolicyCommand = command({
  path: ['team', 'policy'],
  summary: 'Sets the approval policy (team admins only): two approvers above an amount, and how long an approval lets anything be sent',
  usage: 'vendesk team policy [--dual-above NAIRA|none] [--valid-for MINUTES|none] [--json]',
  options: [
    { name: 'dual-above', kind: 'string', description: 'Jobs above this many Naira need two approvers, neither the preparer (none: one approver)' },
    { name: 'valid-for', kind: 'string', description: 'Minutes an approval lets rows be sent, from when it is given (none: no limit)' },
  ],
  output: statusShape,
  async run(ctx) {
    const dualApprovalAboveKobo = policyValue(ctx, 'dual-above', (text) => {
      const r = parseNairaText(text);
      if (!r.ok) throw new UsageError(`--dual-above "${text}" is not an amount vendesk reads. ${r.reason}`);
      if (r.kobo < 0) throw new UsageError('--dual-above cannot be below ₦0.');
      return r.kobo;
    });
    const approvalValidMinutes = policyValue(ctx, 'valid-for', (text) => {
      if (!/^[1-9]\d{0,6}$/.test(text) || Number(text) > 5_256_000) throw new UsageError(`--valid-for must be whole minutes from 1 to 5256000 (10 years), or none; got "${text}"`);
      return Number(text);
    });
    if (dualApprovalAboveKobo === undefined && approvalValidMinutes === undefined) {
      throw new UsageError('Give --dual-above NAIRA|none, --valid-for MINUTES|none, or both (e.g. `vendesk team policy --dual-above 500000 --valid-for 1440`).');
    }
    const s = await ctx.call('team.setPolicy', {
      ...(dualApprovalAboveKobo !== undefined ? { dualApprovalAboveKobo } : {}),
      ...(approvalValidMinutes !== undefined ? { approvalValidMinutes } : {}),
    });
    return { json: statusJson(s), text: lines(["The team's approval policy is now:", ...policyLines(s)]) };
  },
});

export const purchasesResumeCommand = command({
  path: ['purchases', 'resume'],
  summary: 'Buys an approved single purchase prepared on this desktop, exactly once (asked again: its receipt, nothing more is bought)',
  usage: 'vendesk purchases resume TEAM_JOB_ID [--json]',
  options: [],
  output: z.union([purchaseShape, topUpShape]),
  exitCodes: {
    0: 'bought, or accepted and pending',
    1: 'declined, refused, uncertain, rejected by the approver, or the command failed',
    4: 'still waits for approval (nothing bought)',
  },
  async run(ctx) {
    const teamJobId = requirePositional(ctx.args, 0, 'Give the team job of the purchase: vendesk purchases resume TEAM_JOB_ID (see `vendesk approvals --state approved`).');
    const bought = await ctx.call('purchases.resume', { teamJobId });
    if (bought.purchase) return purchaseResult(bought.purchase);
    if (bought.topUp) return topUpResult(bought.topUp);
    throw new UsageError(`Team job ${teamJobId} has no purchase.`);
  },
});

export const TEAM_COMMANDS = [
  teamJoinCommand,
  teamStatusCommand,
  teamDoctorCommand,
  teamThresholdCommand,
  teamPolicyCommand,
  purchasesResumeCommand,
  approvalsCommand,
  decideCommand('approve'),
  decideCommand('reject'),
  auditVerifyCommand,
  auditExportCommand,
  teamLeaveCommand,
];
