/**
 * `vendesk buy electricity`, `vendesk buy cable`, `vendesk pending`, `vendesk requery`: the same
 * operations as the Purchases and Pending pages, with the same checks (a duplicate of a pending
 * purchase is refused here too).
 *
 * Exit codes: 0 bought or accepted (a pending purchase is not a failure: `vendesk requery`
 * settles it), 1 declined, refused, uncertain or any error, 2 usage (including a missing --yes).
 */
import type { PendingItemView, RequeryRunSummary } from '../../shared/contract/pending';
import type { PurchaseView } from '../../shared/contract/purchases';
import { formatNaira, koboToNaira } from '../../shared/money';
import { callOrThrow } from '../callOrThrow';
import { EXIT, nairaOption, requireOption, UsageError, type CliCommand, type CliResult } from '../cliCommand';

/** A purchase as the CLI's JSON prints it: amounts in Naira. */
function purchaseJson(p: PurchaseView) {
  return {
    id: p.id,
    kind: p.kind,
    state: p.state,
    status: p.statusText,
    whatToDo: p.whatToDo,
    reference: p.reference,
    provider: p.providerCode,
    account: p.account,
    vendType: p.vendType,
    bouquet: p.bouquetCode,
    amount: koboToNaira(p.amountKobo),
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

function receiptText(p: PurchaseView): string {
  const lines = [p.statusText];
  lines.push(`  ${p.kind === 'electricity' ? 'Meter' : 'Smartcard'}: ${p.account} (${p.providerName}${p.vendType ? `, ${p.vendType}` : ''}${p.bouquetName ? `, ${p.bouquetName}` : ''})`);
  if (p.customerName) lines.push(`  Customer: ${p.customerName}${p.customerAddress ? `, ${p.customerAddress}` : ''}`);
  lines.push(`  Amount: ${formatNaira(p.amountKobo)}   Phone: ${p.phone}`);
  if (p.reference) lines.push(`  Reference: ${p.reference}`);
  if (p.token) lines.push(`  Token: ${p.token}`);
  if (p.units !== null) lines.push(`  Units: ${p.units} kWh`);
  if (p.receiptNo) lines.push(`  Receipt no: ${p.receiptNo}`);
  if (p.refund.message) lines.push(`  ${p.refund.message}`);
  if (p.whatToDo) lines.push(p.whatToDo);
  return lines.join('\n');
}

const SETTLED_OK = new Set(['success', 'pending']);

/** A purchase's answer: done when bought or accepted and pending, failed otherwise. */
function purchaseResult(purchase: PurchaseView): CliResult {
  return { exitCode: SETTLED_OK.has(purchase.state) ? EXIT.ok : EXIT.failed, json: purchaseJson(purchase), text: receiptText(purchase) };
}

function confirmOrStop(yes: boolean, summary: string): void {
  if (!yes) throw new UsageError(`${summary}\nNothing was bought. Add --yes to buy it.`);
}

const buyElectricityCommand: CliCommand = {
  path: ['buy', 'electricity'],
  summary: 'Buy an electricity token (validates the meter first)',
  usage: 'vendesk buy electricity --disco CODE --meter N --type PREPAID|POSTPAID --amount NAIRA --phone N --yes [--json]',
  options: [
    { name: 'disco', kind: 'string', description: 'Electricity company code from the catalog (IKEDC, EKEDC, …)' },
    { name: 'meter', kind: 'string', description: 'Meter number' },
    { name: 'type', kind: 'string', description: 'PREPAID or POSTPAID (must match the meter)' },
    { name: 'amount', kind: 'string', description: 'Amount in Naira, e.g. 5000 or 5,000.00' },
    { name: 'phone', kind: 'string', description: "Customer's phone number" },
    { name: 'yes', kind: 'boolean', description: 'Buy without asking (required: money is spent)' },
  ],
  async run(ctx) {
    const type = requireOption(ctx.args, 'type').toUpperCase();
    if (type !== 'PREPAID' && type !== 'POSTPAID') throw new UsageError(`--type must be PREPAID or POSTPAID, got "${type}"`);
    const amountKobo = nairaOption(ctx.args, 'amount');
    if (amountKobo === undefined) throw new UsageError('--amount is required');
    const request = {
      disco: requireOption(ctx.args, 'disco'),
      meter: requireOption(ctx.args, 'meter'),
      vendType: type as 'PREPAID' | 'POSTPAID',
      amountKobo,
      phone: requireOption(ctx.args, 'phone'),
    };
    const app = await ctx.app();
    if (ctx.args.options.yes !== true) {
      const meter = await callOrThrow(app, 'purchases.validateMeter', { disco: request.disco, meter: request.meter, vendType: request.vendType });
      confirmOrStop(false, `Would buy ${formatNaira(amountKobo)} of electricity for meter ${meter.meter} (${meter.disco}, ${meter.vendType}): ${meter.name}, ${meter.address}.`);
    }
    ctx.progress(`Buying ${formatNaira(amountKobo)} for meter ${request.meter} on ${app.connection.kind.toUpperCase()}…`);
    return purchaseResult(await callOrThrow(app, 'purchases.buyElectricity', request));
  },
};

const buyCableCommand: CliCommand = {
  path: ['buy', 'cable'],
  summary: 'Buy a cable TV bouquet (validates the smartcard first)',
  usage: 'vendesk buy cable --provider P --smartcard N --bouquet CODE --phone N --yes [--json]',
  options: [
    { name: 'provider', kind: 'string', description: 'DSTV, GOTV, STARTIMES or SHOWMAX' },
    { name: 'smartcard', kind: 'string', description: 'Smartcard or IUC number' },
    { name: 'bouquet', kind: 'string', description: 'Bouquet code from the catalog (case-sensitive)' },
    { name: 'phone', kind: 'string', description: "Customer's phone number" },
    { name: 'yes', kind: 'boolean', description: 'Buy without asking (required: money is spent)' },
  ],
  async run(ctx) {
    const request = {
      provider: requireOption(ctx.args, 'provider'),
      smartcard: requireOption(ctx.args, 'smartcard'),
      bouquetCode: requireOption(ctx.args, 'bouquet'),
      phone: requireOption(ctx.args, 'phone'),
    };
    const app = await ctx.app();
    if (ctx.args.options.yes !== true) {
      const card = await callOrThrow(app, 'purchases.validateSmartcard', { provider: request.provider, smartcard: request.smartcard });
      confirmOrStop(false, `Would buy ${request.bouquetCode} for ${card.provider} smartcard ${card.smartcard}: ${card.name}${card.customerType ? ` (${card.customerType})` : ''}.`);
    }
    ctx.progress(`Buying ${request.bouquetCode} for smartcard ${request.smartcard} on ${app.connection.kind.toUpperCase()}…`);
    return purchaseResult(await callOrThrow(app, 'purchases.buyCable', request));
  },
};

function pendingJson(item: PendingItemView) {
  return { ...purchaseJson(item.purchase), due: item.due, dueInSeconds: item.dueInSeconds, support: item.support?.text ?? null };
}

function pendingLine(item: PendingItemView): string {
  const p = item.purchase;
  const when = item.due ? 'due now' : item.dueInSeconds !== null ? `next check in ${item.dueInSeconds} s` : 'not requeried automatically';
  return `${p.id}  ${p.state.padEnd(13)} ${formatNaira(p.amountKobo).padStart(12)}  ${p.kind === 'electricity' ? 'meter' : 'smartcard'} ${p.account}  ref ${p.reference ?? '—'}  attempts ${p.requery.attempts}  ${when}`;
}

const pendingCommand: CliCommand = {
  path: ['pending'],
  summary: 'List purchases waiting for a final answer (pending, uncertain, needing support)',
  usage: 'vendesk pending [--json]',
  options: [],
  async run(ctx) {
    const app = await ctx.app();
    const items = await callOrThrow(app, 'pending.list', { includeSettled: false });
    const text = items.length === 0 ? 'No purchases are waiting for a final answer.' : [`${items.length} purchase(s) waiting for a final answer:`, ...items.map(pendingLine)].join('\n');
    return { json: { count: items.length, items: items.map(pendingJson) }, text };
  },
};

function summaryText(s: RequeryRunSummary): string {
  if (s.checked === 0) return 'Nothing to check.';
  const parts = [`Checked ${s.checked}: ${s.success} succeeded, ${s.failed} failed, ${s.stillPending} still pending`];
  if (s.rescheduled) parts.push(`${s.rescheduled} rescheduled (too early or provider unreachable)`);
  if (s.needsSupport) parts.push(`${s.needsSupport} need support`);
  if (s.notFound) parts.push(`${s.notFound} not found`);
  return [parts.join(', ') + '.', ...s.items.map(pendingLine)].join('\n');
}

const requeryCommand: CliCommand = {
  path: ['requery'],
  summary: 'Check pending purchases with the service now (--due: only those whose check is due)',
  usage: 'vendesk requery [--due] [--json]',
  options: [{ name: 'due', kind: 'boolean', description: 'Only purchases whose next check is due' }],
  async run(ctx) {
    const app = await ctx.app();
    const summary = await callOrThrow(app, 'pending.requeryDue', { all: ctx.args.options.due !== true });
    const { items, ...counts } = summary;
    return { json: { ...counts, items: items.map(pendingJson) }, text: summaryText(summary) };
  },
};

export const PURCHASE_COMMANDS: CliCommand[] = [buyElectricityCommand, buyCableCommand, pendingCommand, requeryCommand];
