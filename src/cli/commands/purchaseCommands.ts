/**
 * `vendesk buy electricity|cable|airtime|data`, `vendesk purchases`, `vendesk receipt`,
 * `vendesk pending`, `vendesk pending resolve`, `vendesk requery`: the same operations as the
 * Purchases and Pending pages, with the same checks (a duplicate of a pending purchase is refused
 * here too). Airtime and data for one number are bought as the window buys them: through the bulk
 * engine as a one-item job.
 *
 * Exit codes: 0 bought or accepted (a pending purchase is not a failure: `vendesk requery`
 * settles it), 1 declined, refused, uncertain or any error, 2 usage (including a missing --yes),
 * 4 sent for a team member's approval (a LIVE purchase above the team's threshold: docs/team.md).
 *
 * Longer than 400 lines on purpose: one declaration per command — its options, its JSON and what
 * it prints — in the order `vendesk --help` lists them; each is short, and the area reads as one.
 */
import { formatDateTime } from '../../shared/localDates';
import { z } from 'zod';
import { BULK_ITEM_STATES } from '../../shared/contract/bulk';
import type { PendingItemView, RequeryRunSummary } from '../../shared/contract/pending';
import { nothingCharged, receiptOrAwaiting, type PurchaseView, type TopUpCheckView, type TopUpView } from '../../shared/contract/purchases';
import { AppError } from '../../shared/appError';
import { formatNaira, koboToNaira } from '../../shared/money';
import { visibleText } from '../../shared/visibleText';
import { walletCostWords } from '../../shared/spendText';
import { cliText } from '../cliHints';
import {
  EXIT,
  command,
  nairaOption,
  numberOption,
  requireOption,
  requirePositional,
  stringOption,
  UsageError,
  type CliContext,
  type CliFailure,
  type CliResult,
  type OptionSpec,
} from '../cliCommand';
import { isoTime, naira, nairaOrNull } from '../jsonShape';
import { lines, tt, type TerminalText } from '../terminal';

const PURCHASE_STATES = ['sending', 'success', 'pending', 'failed', 'rejected', 'uncertain', 'needs_support', 'not_found'] as const;

export const purchaseShape = z.strictObject({
  id: z.string(),
  kind: z.enum(['electricity', 'cable']),
  state: z.enum(PURCHASE_STATES),
  status: z.string(),
  whatToDo: z.string().nullable(),
  reference: z.string().nullable(),
  provider: z.string(),
  account: z.string().describe('meter or smartcard number'),
  vendType: z.enum(['PREPAID', 'POSTPAID']).nullable(),
  bouquet: z.string().nullable(),
  amount: naira,
  walletCost: nairaOrNull.describe('Naira: what the wallet was charged (the log’s wallet cost; a failed one’s is given back); null while not known, or when nothing was charged'),
  refunded: nairaOrNull.describe('Naira: what came back to the wallet for a failed purchase (its FAILED log entry’s wallet cost); null until read, and for any other'),
  phone: z.string(),
  customerName: z.string(),
  token: z.string().nullable(),
  units: z.number().nullable(),
  receiptNo: z.string().nullable(),
  reason: z.string().nullable(),
  refund: z.enum(['not_applicable', 'checking', 'confirmed', 'not_charged', 'missing']),
  requeryAttempts: z.number(),
  nextRequeryAt: isoTime.nullable(),
  createdAt: isoTime,
});

/** What every receipt in the JSON starts with, whatever was bought. */
function receiptHead<P extends Pick<PurchaseView | TopUpView, 'id' | 'kind' | 'state' | 'statusText' | 'whatToDo' | 'reference'>>(p: P) {
  return { id: p.id, kind: p.kind as P['kind'], state: p.state as P['state'], status: p.statusText, whatToDo: cliText(p.whatToDo), reference: p.reference };
}

/** A purchase as the CLI's JSON prints it: amounts in Naira. */
function purchaseJson(p: PurchaseView): z.infer<typeof purchaseShape> {
  return {
    ...receiptHead(p),
    provider: p.providerCode,
    account: p.account,
    vendType: p.vendType,
    bouquet: p.bouquetCode,
    amount: koboToNaira(p.amountKobo),
    walletCost: nairaOf(p.costKobo),
    refunded: nairaOf(p.refund.refundedKobo),
    phone: p.phone,
    customerName: p.customerName,
    token: p.token,
    units: p.units,
    receiptNo: p.receiptNo,
    reason: p.reason,
    refund: p.refund.state,
    requeryAttempts: p.requery.attempts,
    nextRequeryAt: p.requery.nextAt,
    createdAt: p.createdAt,
  };
}

function receiptText(p: PurchaseView): TerminalText {
  const said = [
    tt`${p.statusText}`,
    tt`  ${p.kind === 'electricity' ? 'Meter' : 'Smartcard'}: ${p.account} (${p.providerName}${p.vendType ? `, ${p.vendType}` : ''}${p.bouquetName ? `, ${p.bouquetName}` : ''})`,
  ];
  if (p.customerName) said.push(tt`  Customer: ${p.customerName}${p.customerAddress ? `, ${p.customerAddress}` : ''}`);
  said.push(tt`  Amount: ${formatNaira(p.amountKobo)}   Wallet cost: ${walletCostWords(p.costKobo, p.refund.refundedKobo, nothingCharged(p))}   Phone: ${p.phone}`);
  if (p.reference) said.push(tt`  Reference: ${p.reference}`);
  if (p.token) said.push(tt`  Token: ${p.token}`);
  if (p.units !== null) said.push(tt`  Units: ${p.units} kWh`);
  if (p.receiptNo) said.push(tt`  Receipt no: ${p.receiptNo}`);
  if (p.refund.message) said.push(tt`  ${p.refund.message}`);
  if (p.whatToDo) said.push(tt`${cliText(p.whatToDo)}`);
  return lines(said);
}

const SETTLED_OK = new Set(['success', 'pending', 'accepted']);

/** A purchase that was not bought (declined, refused, uncertain): the command fails, saying so on stderr. */
function purchaseFailure(p: Pick<PurchaseView | TopUpView, 'state' | 'statusText' | 'whatToDo'>): CliFailure | undefined {
  if (SETTLED_OK.has(p.state)) return undefined;
  return { exitCode: EXIT.failed, message: p.statusText, ...(p.whatToDo ? { hint: cliText(p.whatToDo) } : {}) };
}

/** Naira in the JSON, or null when not known. */
function nairaOf(kobo: number | null): number | null {
  return kobo === null ? null : koboToNaira(kobo);
}

/** A purchase's answer: done when bought or accepted and pending, failed otherwise. */
export function purchaseResult(purchase: PurchaseView): CliResult<z.infer<typeof purchaseShape>> {
  const failure = purchaseFailure(purchase);
  return { json: purchaseJson(purchase), text: receiptText(purchase), ...(failure ? { failure } : {}) };
}

const BUY_EXIT_CODES = {
  0: 'bought, or accepted and pending (`vendesk requery` settles it)',
  1: 'declined, refused or uncertain (the JSON says which), or the command failed',
  2: 'usage error, or --yes missing (nothing bought)',
  4: "LIVE, in a team: above the team's approval threshold, sent for approval (nothing bought; `vendesk purchases resume TEAM_JOB` once approved)",
} as const;

// ---------------------------------------------------------------- airtime and data for one number

export const topUpShape = z.strictObject({
  id: z.string().describe('the id of its one-item job'),
  kind: z.enum(['airtime', 'data']),
  state: z.enum(BULK_ITEM_STATES),
  status: z.string(),
  whatToDo: z.string().nullable(),
  reference: z.string().nullable(),
  phone: z.string(),
  network: z.string(),
  product: z.string().describe('catalog product code or data plan'),
  description: z.string(),
  amount: naira,
  walletCost: nairaOrNull.describe('Naira: what the wallet was charged (the log’s transaction_cost, a pending purchase’s too); a failed one’s is given back; null while not known'),
  refunded: nairaOrNull.describe('Naira: what came back to the wallet for a failed purchase (its FAILED log entry’s wallet cost); null until read, and for any other'),
  reason: z.string().nullable(),
  settledBy: z.string().nullable(),
  createdAt: isoTime,
  finalAt: isoTime.nullable(),
});

function topUpJson(p: TopUpView): z.infer<typeof topUpShape> {
  return {
    ...receiptHead(p),
    phone: p.phone,
    network: p.network,
    product: p.productCode,
    description: p.description,
    amount: koboToNaira(p.amountKobo),
    walletCost: nairaOf(p.costKobo),
    refunded: nairaOf(p.refundedKobo),
    reason: cliText(p.reason),
    settledBy: p.settledBy,
    createdAt: p.createdAt,
    finalAt: p.finalAt,
  };
}

function topUpText(p: TopUpView): TerminalText {
  const said = [
    tt`${p.statusText}`,
    tt`  ${p.kind === 'airtime' ? 'Airtime' : 'Data'}: ${p.description} (${p.productCode}) for ${p.phone}`,
    tt`  Amount: ${formatNaira(p.amountKobo)}   Wallet cost: ${walletCostWords(p.costKobo, p.refundedKobo, nothingCharged(p))}`,
  ];
  if (p.reference) said.push(tt`  Reference: ${p.reference}`);
  if (p.reason) said.push(tt`  ${cliText(p.reason)}`);
  if (p.whatToDo) said.push(tt`${cliText(p.whatToDo)}`);
  return lines(said);
}

export function topUpResult(p: TopUpView): CliResult<z.infer<typeof topUpShape>> {
  const failure = purchaseFailure(p);
  return { json: topUpJson(p), text: topUpText(p), ...(failure ? { failure } : {}) };
}

function checkText(c: TopUpCheckView): string {
  return `${c.kind === 'airtime' ? `${formatNaira(c.amountKobo)} of ${c.description}` : `${c.description} (${c.productCode}, ${formatNaira(c.amountKobo)})`} for ${c.phone}`;
}

/** Checks, then (with --yes) buys airtime or data for one number through the bulk engine. */
async function buyTopUp(
  ctx: CliContext,
  request: { kind: 'airtime'; phone: string; amountKobo: number; network?: string } | { kind: 'data'; phone: string; productCode: string; network?: string },
) {
  const repeat = ctx.args.options.repeat === true;
  const app = await ctx.app();
  const check = await ctx.call('purchases.checkTopUp', request);
  for (const warning of check.warnings) ctx.progress(`Note: ${warning}`);
  if (check.recent) ctx.progress(`Note: ${check.recent}${repeat ? ' Buying it again (--repeat).' : ''}`);
  if (ctx.args.options.yes !== true) confirmOrStop(false, `Would buy ${checkText(check)} on ${app.connection.kind.toUpperCase()} ${app.connection.profileName}.`);
  ctx.progress(`Buying ${checkText(check)} on ${app.connection.kind.toUpperCase()}…`);
  // Sent for approval instead: exit 4, with the team job and what to run once it is approved.
  return topUpResult(receiptOrAwaiting(await ctx.call('purchases.buyTopUp', { ...request, repeat })));
}

/** The department a purchase is charged to (docs/cost-centres.md). */
const COST_CENTRE_OPTION = { name: 'cost-centre', kind: 'string', description: 'The cost centre (department) it is charged to, e.g. Sales' } as const;

const topUpOptions = {
  phone: { name: 'phone', kind: 'string', description: 'The number to top up (any Nigerian spelling: 0803…, +234 803…)' },
  amount: { name: 'amount', kind: 'string', description: 'Amount in Naira, e.g. 500 or 1,500' },
  plan: { name: 'plan', kind: 'string', description: 'Data plan code (case-sensitive), e.g. MTN-1GB-7D' },
  network: { name: 'network', kind: 'string', description: "MTN, Airtel, Glo or 9mobile (default: the number's prefix; give it for a ported number)" },
  repeat: { name: 'repeat', kind: 'boolean', description: 'Buy even though the same was bought for this number in the last 24 hours' },
  yes: { name: 'yes', kind: 'boolean', description: 'Buy without asking (required: money is spent)' },
  costCentre: COST_CENTRE_OPTION,
} as const;

/** `vendesk buy airtime` (an amount) or `vendesk buy data` (a plan) for one number. */
function topUpCommand(kind: 'airtime' | 'data') {
  const airtime = kind === 'airtime';
  return command({
    path: ['buy', kind],
    summary: airtime
      ? 'Buy airtime for one number (no spreadsheet); checked like a bulk row, bought once'
      : 'Buy a data plan for one number (no spreadsheet); the plan code is from `vendesk catalog data`',
    usage: `vendesk buy ${kind} --phone N ${airtime ? '--amount NAIRA' : '--plan CODE'} [--network N] [--cost-centre NAME] [--repeat] --yes [--json]`,
    options: [topUpOptions.phone, airtime ? topUpOptions.amount : topUpOptions.plan, topUpOptions.network, topUpOptions.costCentre, topUpOptions.repeat, topUpOptions.yes],
    output: topUpShape,
    exitCodes: BUY_EXIT_CODES,
    async run(ctx) {
      const amountKobo = airtime ? nairaOption(ctx.args, 'amount') : undefined;
      if (airtime && amountKobo === undefined) throw new UsageError('--amount is required');
      const phone = requireOption(ctx.args, 'phone');
      const network = stringOption(ctx.args, 'network');
      const costCentre = stringOption(ctx.args, 'cost-centre');
      const given = { ...(network ? { network } : {}), ...(costCentre !== undefined ? { costCentre } : {}) };
      return buyTopUp(
        ctx,
        amountKobo !== undefined ? { kind: 'airtime', phone, amountKobo, ...given } : { kind: 'data', phone, productCode: requireOption(ctx.args, 'plan'), ...given },
      );
    },
  });
}

/** Stops before buying: the summary on the mistake's first line (its values escaped, so none can break it), what to do on the next. */
function confirmOrStop(yes: boolean, summary: string): void {
  if (!yes) throw new UsageError(`${visibleText(summary)}\nNothing was bought. Add --yes to buy it.`);
}

/**
 * Electricity and cable: without --yes the service's own check of the meter or smartcard is shown
 * and nothing is bought; with it, the purchase is made and its receipt printed.
 */
function vendingBuyCommand<Request>(def: {
  path: string[];
  summary: string;
  usage: string;
  options: OptionSpec[];
  read(ctx: CliContext): Request;
  wouldBuy(ctx: CliContext, request: Request): Promise<string>;
  buying(request: Request): string;
  buy(ctx: CliContext, request: Request): Promise<PurchaseView>;
}) {
  return command({
    path: def.path,
    summary: def.summary,
    usage: def.usage,
    options: [
      ...def.options,
      { name: 'phone', kind: 'string', description: "Customer's phone number" },
      COST_CENTRE_OPTION,
      { name: 'yes', kind: 'boolean', description: 'Buy without asking (required: money is spent)' },
    ],
    output: purchaseShape,
    exitCodes: BUY_EXIT_CODES,
    async run(ctx) {
      const request = def.read(ctx);
      if (ctx.args.options.yes !== true) confirmOrStop(false, await def.wouldBuy(ctx, request));
      const app = await ctx.app();
      ctx.progress(`${def.buying(request)} on ${app.connection.kind.toUpperCase()}…`);
      return purchaseResult(await def.buy(ctx, request));
    },
  });
}

const buyElectricityCommand = vendingBuyCommand({
  path: ['buy', 'electricity'],
  summary: 'Buy an electricity token (validates the meter first)',
  usage: 'vendesk buy electricity --disco CODE --meter N --type PREPAID|POSTPAID --amount NAIRA --phone N [--cost-centre NAME] --yes [--json]',
  options: [
    { name: 'disco', kind: 'string', description: 'Electricity company code from the catalog (IKEDC, EKEDC, …)' },
    { name: 'meter', kind: 'string', description: 'Meter number' },
    { name: 'type', kind: 'string', description: 'PREPAID or POSTPAID (must match the meter)' },
    { name: 'amount', kind: 'string', description: 'Amount in Naira, e.g. 5000 or 5,000.00' },
  ],
  read(ctx) {
    const type = requireOption(ctx.args, 'type').toUpperCase();
    if (type !== 'PREPAID' && type !== 'POSTPAID') throw new UsageError(`--type must be PREPAID or POSTPAID, got "${type}"`);
    const amountKobo = nairaOption(ctx.args, 'amount');
    if (amountKobo === undefined) throw new UsageError('--amount is required');
    return {
      disco: requireOption(ctx.args, 'disco'),
      meter: requireOption(ctx.args, 'meter'),
      vendType: type as 'PREPAID' | 'POSTPAID',
      amountKobo,
      phone: requireOption(ctx.args, 'phone'),
      costCentre: stringOption(ctx.args, 'cost-centre'),
    };
  },
  async wouldBuy(ctx, request) {
    const meter = await ctx.call('purchases.validateMeter', { disco: request.disco, meter: request.meter, vendType: request.vendType });
    return `Would buy ${formatNaira(request.amountKobo)} of electricity for meter ${meter.meter} (${meter.disco}, ${meter.vendType}): ${meter.name}, ${meter.address}.`;
  },
  buying: (request) => `Buying ${formatNaira(request.amountKobo)} for meter ${request.meter}`,
  buy: async (ctx, request) => receiptOrAwaiting(await ctx.call('purchases.buyElectricity', request)),
});

const buyCableCommand = vendingBuyCommand({
  path: ['buy', 'cable'],
  summary: 'Buy a cable TV bouquet (validates the smartcard first)',
  usage: 'vendesk buy cable --provider P --smartcard N --bouquet CODE --phone N [--cost-centre NAME] --yes [--json]',
  options: [
    { name: 'provider', kind: 'string', description: 'DSTV, GOTV, STARTIMES or SHOWMAX' },
    { name: 'smartcard', kind: 'string', description: 'Smartcard or IUC number' },
    { name: 'bouquet', kind: 'string', description: 'Bouquet code from the catalog (case-sensitive)' },
  ],
  read: (ctx) => ({
    provider: requireOption(ctx.args, 'provider'),
    smartcard: requireOption(ctx.args, 'smartcard'),
    bouquetCode: requireOption(ctx.args, 'bouquet'),
    phone: requireOption(ctx.args, 'phone'),
    costCentre: stringOption(ctx.args, 'cost-centre'),
  }),
  async wouldBuy(ctx, request) {
    const card = await ctx.call('purchases.validateSmartcard', { provider: request.provider, smartcard: request.smartcard });
    return `Would buy ${request.bouquetCode} for ${card.provider} smartcard ${card.smartcard}: ${card.name}${card.customerType ? ` (${card.customerType})` : ''}.`;
  },
  buying: (request) => `Buying ${request.bouquetCode} for smartcard ${request.smartcard}`,
  buy: async (ctx, request) => receiptOrAwaiting(await ctx.call('purchases.buyCable', request)),
});

const pendingShape = purchaseShape.extend({
  due: z.boolean(),
  dueInSeconds: z.number().nullable(),
  support: z.string().nullable().describe('the details support asks for, ready to paste'),
});

function pendingJson(item: PendingItemView): z.infer<typeof pendingShape> {
  return { ...purchaseJson(item.purchase), due: item.due, dueInSeconds: item.dueInSeconds, support: item.support?.text ?? null };
}

function pendingLine(item: PendingItemView): TerminalText {
  const p = item.purchase;
  const when = item.due ? 'due now' : item.dueInSeconds !== null ? `next check in ${item.dueInSeconds} s` : 'not requeried automatically';
  return tt`${p.id}  ${p.state.padEnd(13)} ${formatNaira(p.amountKobo).padStart(12)}  ${p.kind === 'electricity' ? 'meter' : 'smartcard'} ${p.account}  ref ${p.reference ?? '—'}  attempts ${p.requery.attempts}  ${when}`;
}

const pendingCommand = command({
  path: ['pending'],
  summary: 'List purchases waiting for a final answer (pending, uncertain, needing support)',
  usage: 'vendesk pending [--json]',
  options: [],
  output: z.strictObject({ count: z.number(), items: z.array(pendingShape) }),
  async run(ctx) {
    const items = await ctx.call('pending.list', { includeSettled: false });
    const text =
      items.length === 0 ? tt`No purchases are waiting for a final answer.` : lines([`${items.length} purchase(s) waiting for a final answer:`, ...items.map(pendingLine)]);
    return { json: { count: items.length, items: items.map(pendingJson) }, text };
  },
});

const pendingResolveCommand = command({
  path: ['pending', 'resolve'],
  summary: 'Resolve a pending, uncertain or support-bound purchase by hand (what support confirmed), with a note',
  usage: 'vendesk pending resolve ID --outcome success|failed --note TEXT [--meter-token TOKEN] [--json]',
  options: [
    { name: 'outcome', kind: 'string', description: 'success or failed, as the service or its support confirmed' },
    { name: 'note', kind: 'string', description: 'How you know, e.g. "support ticket 1234 confirmed the token"' },
    { name: 'meter-token', kind: 'string', description: 'Prepaid electricity: the token support gave' },
  ],
  output: pendingShape,
  async run(ctx) {
    const id = requirePositional(ctx.args, 0, 'Name the purchase: vendesk pending resolve ID (vendesk pending lists them)');
    const outcome = requireOption(ctx.args, 'outcome').toUpperCase();
    if (outcome !== 'SUCCESS' && outcome !== 'FAILED') throw new UsageError(`--outcome must be success or failed, got "${outcome.toLowerCase()}"`);
    const token = stringOption(ctx.args, 'meter-token');
    const item = await ctx.call('pending.resolve', { id, outcome, note: requireOption(ctx.args, 'note'), ...(token ? { token } : {}) });
    return { json: pendingJson(item), text: receiptText(item.purchase) };
  },
});

function summaryText(s: RequeryRunSummary): TerminalText {
  if (s.checked === 0) return tt`Nothing to check.`;
  const parts = [`Checked ${s.checked}: ${s.success} succeeded, ${s.failed} failed, ${s.stillPending} still pending`];
  if (s.rescheduled) parts.push(`${s.rescheduled} rescheduled (too early or provider unreachable)`);
  if (s.needsSupport) parts.push(`${s.needsSupport} need support`);
  if (s.notFound) parts.push(`${s.notFound} not found`);
  return lines([parts.join(', ') + '.', ...s.items.map(pendingLine)]);
}

const requeryCommand = command({
  path: ['requery'],
  summary: 'Check pending purchases with the service now (--due: only those whose check is due)',
  usage: 'vendesk requery [--due] [--json]',
  options: [{ name: 'due', kind: 'boolean', description: 'Only purchases whose next check is due' }],
  output: z.strictObject({
    checked: z.number(),
    success: z.number(),
    failed: z.number(),
    stillPending: z.number(),
    needsSupport: z.number(),
    notFound: z.number(),
    rescheduled: z.number(),
    items: z.array(pendingShape),
  }),
  async run(ctx) {
    const summary = await ctx.call('pending.requeryDue', { all: ctx.args.options.due !== true });
    const { items, ...counts } = summary;
    return { json: { ...counts, items: items.map(pendingJson) }, text: summaryText(summary) };
  },
});

// ---------------------------------------------------------------- purchases and receipts

const KIND_NAMES = ['electricity', 'cable', 'airtime', 'data'] as const;

const purchasesCommand = command({
  path: ['purchases'],
  summary: 'The latest single purchases of the connection in use (electricity, cable TV, airtime, data), newest first',
  usage: 'vendesk purchases [--kind electricity|cable|airtime|data] [--limit N] [--json]',
  options: [
    { name: 'kind', kind: 'string', description: 'Only this kind' },
    { name: 'limit', kind: 'string', description: 'How many (1–500, default 20)' },
  ],
  output: z.array(z.union([purchaseShape, topUpShape])),
  async run(ctx) {
    const kindText = stringOption(ctx.args, 'kind');
    const kind = KIND_NAMES.find((k) => k === kindText?.toLowerCase());
    if (kindText !== undefined && !kind) throw new UsageError(`--kind must be electricity, cable, airtime or data, got "${kindText}"`);
    const limit = numberOption(ctx.args, 'limit') ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${limit}"`);
    const app = await ctx.app();
    const vending = kind === 'airtime' || kind === 'data' ? [] : await ctx.call('purchases.recent', { limit, ...(kind ? { kind } : {}) });
    const topUps = kind === 'electricity' || kind === 'cable' ? [] : await ctx.call('purchases.recentTopUps', { limit, ...(kind ? { kind } : {}) });
    const all = [
      ...vending.map((p) => ({
        at: p.createdAt,
        json: purchaseJson(p),
        line: tt`${p.id}  ${formatDateTime(p.createdAt).padEnd(18)}  ${p.kind.padEnd(11)} ${p.state.padEnd(13)} ${formatNaira(p.amountKobo).padStart(12)}  ${p.account}`,
      })),
      ...topUps.map((p) => ({
        at: p.createdAt,
        json: topUpJson(p),
        line: tt`${p.id}  ${formatDateTime(p.createdAt).padEnd(18)}  ${p.kind.padEnd(11)} ${p.state.padEnd(13)} ${formatNaira(p.amountKobo).padStart(12)}  ${p.phone}`,
      })),
    ]
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, limit);
    const text =
      all.length === 0
        ? tt`No purchases on this connection (${app.connection.kind.toUpperCase()} ${app.connection.profileName}).`
        : lines([...all.map((p) => p.line), 'A receipt: vendesk receipt ID']);
    return { json: all.map((p) => p.json), text };
  },
});

/** Electricity and cable purchases and single airtime and data purchases, by id: whichever it is. */
async function anyPurchase(ctx: CliContext, id: string): Promise<{ vending: PurchaseView } | { topUp: TopUpView }> {
  try {
    return { vending: await ctx.call('purchases.get', { id }) };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'purchase_not_found') throw error;
  }
  try {
    return { topUp: await ctx.call('purchases.topUp', { id }) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'purchase_not_found') {
      throw new AppError('purchase_not_found', `There is no purchase ${id} on this connection.`, error.hint);
    }
    throw error;
  }
}

const receiptCommand = command({
  path: ['receipt'],
  summary: 'One purchase and its receipt (electricity token, cable TV, airtime or data), by its id',
  usage: 'vendesk receipt ID [--json]',
  options: [],
  output: z.union([purchaseShape, topUpShape]),
  async run(ctx) {
    const id = requirePositional(ctx.args, 0, 'Name the purchase: vendesk receipt ID (vendesk purchases lists them)');
    const found = await anyPurchase(ctx, id);
    return 'vending' in found ? { json: purchaseJson(found.vending), text: receiptText(found.vending) } : { json: topUpJson(found.topUp), text: topUpText(found.topUp) };
  },
});

export const PURCHASE_COMMANDS = [
  buyElectricityCommand,
  buyCableCommand,
  topUpCommand('airtime'),
  topUpCommand('data'),
  purchasesCommand,
  receiptCommand,
  pendingCommand,
  pendingResolveCommand,
  requeryCommand,
];
