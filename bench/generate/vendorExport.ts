/**
 * Vendor-exported transaction logs and a matching local mirror, for the reconciliation
 * benchmark and tests: `generateLogEntries` makes wire-shaped log entries (deterministic by
 * seed), `writeVendorExportCsv` writes them as a vendor would (the spec's columns, in any order,
 * amounts as `NGN 1,000.00`), `fillMirror` writes entries into the mirror table `log_entries`
 * the way the sync does, and `planDiscrepancies` edits the two sides so each category has a
 * known count.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { seededRandom } from '../../src/sandbox/randomData';
import { networkOfPhone, type Network } from '../../src/shared/phone';
import { LOG_ENTRY_FIELDS, type LogEntry, type LogStatus, type LogType } from '../../src/shared/wire';

/** The spec's log-entry fields, in the spec's order. */
export const LOG_FIELDS: readonly (keyof LogEntry)[] = LOG_ENTRY_FIELDS;

const grouped = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** `NGN 1,000.00` (fast for the common amounts). */
export function wireAmount(kobo: number): string {
  if (kobo % 100 === 0 && kobo < 100_000_000) {
    const n = kobo / 100;
    return n >= 1000 ? `NGN ${Math.floor(n / 1000)},${String(n % 1000).padStart(3, '0')}.00` : `NGN ${n}.00`;
  }
  return `NGN ${grouped.format(kobo / 100)}`;
}

const PREFIXES = ['0803', '0806', '0813', '0816', '0802', '0808', '0812', '0805', '0807', '0809', '0817'];
const AIRTIME = [10_000, 20_000, 50_000, 100_000, 150_000, 200_000, 500_000];
const DATA: [string, number][] = [
  ['MTN-1GB-30D', 100_000],
  ['MTN-2GB-30D', 150_000],
  ['AIRTEL-1.5GB-30D', 100_000],
  ['GLO-2.9GB-30D', 100_000],
];

function timeText(ms: number): string {
  return new Date(ms).toUTCString().slice(5, 25);
}

/** `n` log entries, one every `stepMs` from `startMs`, about 94 % SUCCESS, 6 % FAILED. */
export function generateLogEntries(n: number, options: { seed?: number; startMs: number; stepMs: number; firstId?: number; random?: () => number }): LogEntry[] {
  // `random` carries one seeded sequence across chunks (generated a slice at a time, the same entries).
  const rnd = options.random ?? seededRandom(options.seed ?? 42);
  const out: LogEntry[] = new Array<LogEntry>(n);
  const firstId = options.firstId ?? 1;
  const from = firstId - 1;
  for (let i = 0; i < n; i++) {
    const prefix = PREFIXES[Math.floor(rnd() * PREFIXES.length)];
    const phone = prefix + String(Math.floor(rnd() * 10_000_000)).padStart(7, '0');
    const network = networkOfPhone(phone) as Network;
    const isData = rnd() < 0.3;
    const [plan, kobo] = isData ? DATA[Math.floor(rnd() * DATA.length)] : ['', AIRTIME[Math.floor(rnd() * AIRTIME.length)]];
    const rate = isData ? 2 : 3;
    const commission = Math.floor((kobo * rate) / 100);
    const created = options.startMs + (from + i) * options.stepMs;
    const status: LogStatus = rnd() < 0.06 ? 'FAILED' : 'SUCCESS';
    const id = firstId + i;
    const createdIso = new Date(created).toISOString();
    out[i] = {
      id,
      transaction_id: `VTX${String(id).padStart(10, '0')}`,
      partner_reference: `REQ${String(Math.floor(id / 10)).padStart(9, '0')}`,
      phone_number: phone,
      amount: wireAmount(kobo),
      transaction_cost: (kobo - commission) / 100,
      commission: commission / 100,
      type: (isData ? 'DATA' : 'AIRTIME') as LogType,
      network,
      operator: '',
      region: '',
      description: isData ? `${plan} data bundle` : `${network} airtime`,
      data_plan: plan,
      status,
      time: timeText(created),
      created_at: createdIso,
      updated_at: new Date(created + 5000).toISOString(),
    };
  }
  return out;
}

function csvField(value: string | number): string {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** An exported row: a log entry whose id may be left blank. */
export type ExportEntry = Omit<LogEntry, 'id'> & { id: number | '' };

/** Writes entries as a vendor export CSV; `columns` chooses the order and spelling of headers. */
export function writeVendorExportCsv(
  path: string,
  entries: readonly ExportEntry[],
  options: { columns?: readonly (keyof LogEntry)[]; headers?: Partial<Record<keyof LogEntry, string>>; append?: boolean } = {},
): number {
  const columns = options.columns ?? LOG_FIELDS;
  // `append`: more rows after those written before (a file written a slice at a time), no header.
  const fd = fs.openSync(path, options.append ? 'a' : 'w');
  try {
    let chunk = options.append ? '' : columns.map((c) => csvField(options.headers?.[c] ?? c)).join(',') + '\r\n';
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      let line = '';
      for (let c = 0; c < columns.length; c++) {
        if (c > 0) line += ',';
        line += csvField(e[columns[c]]);
      }
      chunk += line + '\r\n';
      if (chunk.length > 1 << 20) {
        fs.writeSync(fd, chunk);
        chunk = '';
      }
    }
    fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(path).size;
}

function kobo(text: string): number {
  const m = /([\d,]+)(?:\.(\d{1,2}))?/.exec(text);
  if (!m) throw new Error(`not an amount: ${text}`);
  return Number(m[1].replace(/,/g, '')) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Writes entries into the mirror table (migration 002) as the sync would, in one transaction. */
export function fillMirror(db: Database.Database, profileId: string, entries: readonly LogEntry[]): void {
  const insert = db.prepare(
    `INSERT INTO log_entries (profile_id, id, transaction_id, partner_reference, phone_number, amount_kobo, cost_kobo, commission_kobo, type, network, operator, region,
       description, data_plan, status, time_text, created_at, updated_at, synced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const syncedAt = new Date().toISOString();
  db.transaction(() => {
    for (const e of entries) {
      insert.run(
        profileId,
        e.id,
        e.transaction_id,
        e.partner_reference,
        e.phone_number,
        kobo(e.amount),
        Math.round(e.transaction_cost * 100),
        Math.round(e.commission * 100),
        e.type,
        e.network,
        e.operator,
        e.region,
        e.description,
        e.data_plan,
        e.status,
        e.time,
        e.created_at,
        e.updated_at,
        syncedAt,
      );
    }
  })();
}

export interface Discrepancies {
  missingLocally: number;
  missingInExport: number;
  amountMismatch: number;
  statusMismatch: number;
  pending: number;
  /** Export rows without transaction_id (matched by id). */
  byId: number;
  /** Export rows without transaction_id and id (matched by phone, amount and time). */
  byPhoneAmountTime: number;
}

/**
 * Splits generated entries into an export and a mirror with a known number of each
 * discrepancy, spread evenly through the log. Returns both sides (the export as wire entries).
 */
export function planDiscrepancies(
  entries: readonly LogEntry[],
  d: Discrepancies,
  slice: { of: number; at: number } = { of: entries.length, at: 0 },
): { exported: ExportEntry[]; mirror: LogEntry[] } {
  // `slice`: these entries are those from `at` of `of` in all (a log planned a slice at a time, the same plan).
  const exported: ExportEntry[] = [];
  const mirror: LogEntry[] = [];
  const kinds: (keyof Discrepancies)[] = [];
  for (const k of Object.keys(d) as (keyof Discrepancies)[]) for (let i = 0; i < d[k]; i++) kinds.push(k);
  const every = Math.max(1, Math.floor(slice.of / Math.max(1, kinds.length)));
  for (let j = 0; j < entries.length; j++) {
    const e = entries[j];
    const i = slice.at + j;
    // The planted kinds in order, one every `every` entries: the k-th at entry k·every + every − 1.
    const next = Math.floor(i / every);
    const kind = i % every === every - 1 && next < kinds.length ? kinds[next] : null;
    switch (kind) {
      case 'missingLocally':
        exported.push(e);
        break;
      case 'missingInExport':
        mirror.push(e);
        break;
      case 'amountMismatch':
        exported.push({ ...e, amount: wireAmount(kobo(e.amount) + 5000), status: 'SUCCESS' });
        mirror.push({ ...e, status: 'SUCCESS' });
        break;
      case 'statusMismatch':
        exported.push({ ...e, status: 'SUCCESS' });
        mirror.push({ ...e, status: 'FAILED' });
        break;
      case 'pending':
        exported.push({ ...e, status: 'PENDING' });
        mirror.push({ ...e, status: 'PENDING' });
        break;
      case 'byId':
        exported.push({ ...e, transaction_id: '' });
        mirror.push(e);
        break;
      case 'byPhoneAmountTime':
        exported.push({ ...e, transaction_id: '', id: '', created_at: new Date(Date.parse(e.created_at) + 60_000).toISOString() });
        mirror.push(e);
        break;
      default:
        exported.push(e);
        mirror.push(e);
    }
  }
  return { exported, mirror };
}
