/**
 * Log entries held column by column, the way the matching engine reads them: the fields every
 * row needs (references, amounts, status, time) in typed arrays, everything else read on demand
 * for the few rows that end up in a report. A million rows stay a few tens of megabytes.
 */
import type { ReferenceIndex } from './threadedReaders';

export const STATUS_UNKNOWN = 0;
export const STATUS_SUCCESS = 1;
export const STATUS_FAILED = 2;
export const STATUS_PENDING = 3;
export type StatusCode = 0 | 1 | 2 | 3;

export const STATUS_NAMES = ['', 'SUCCESS', 'FAILED', 'PENDING'] as const;

/** `SUCCESS`, `successful`, `Sucessfully Processed`, `FAILED`, `Unsucessfull`, `pending` … → a code. */
export function statusCode(text: string): StatusCode {
  const t = text.trim().toUpperCase();
  if (t === 'SUCCESS' || t === 'SUCCESSFUL' || t.startsWith('SUC') || t === '00' || t === 'COMPLETED') return STATUS_SUCCESS;
  if (t === 'FAILED' || t === 'FAIL' || t === 'FAILURE' || t.startsWith('UNSUC') || t === '88' || t === 'DECLINED' || t === 'REVERSED') return STATUS_FAILED;
  if (t === 'PENDING' || t === '01' || t === 'PROCESSING' || t === 'IN PROGRESS') return STATUS_PENDING;
  return STATUS_UNKNOWN;
}

/** The fields of one entry that only reports need. */
export interface EntryDetail {
  phone: string;
  type: string;
  /** Data plan code, else the description. */
  product: string;
  network: string;
  createdAt: string | null;
  /** When the entry became final (refund time for failures); NaN when unknown. */
  updatedMs: number;
  /** Row number in the export file; null for mirror entries. */
  rowNumber: number | null;
}

export interface LogColumns {
  readonly length: number;
  /** `transaction_id`; '' when the entry has none. */
  readonly txId: string[];
  /**
   * A reader that makes reference strings only when asked gives these (the CSV fast path: a
   * million strings were a third of reading the file); `txId` is then built whole on first use.
   * Use {@link txIdAt} and friends rather than `txId[i]` for single entries.
   */
  readonly txIdOf?: (index: number) => string;
  readonly hasTxId?: (index: number) => boolean;
  /** Whether entry `index`'s reference is the UTF-8 bytes [start, end) of `bytes`, without making a string of either. */
  readonly txIdIs?: (index: number, bytes: Uint8Array, start: number, end: number) => boolean;
  /**
   * The references as bytes [start, end) of the file where `inFile` is 1 (plain ASCII; the
   * others are `txIdOf`'s), when the reader kept them so (the CSV export's): matching compares
   * them with the mirror's `txSpans` in its own loop. Only used together with `txIdIs`.
   */
  readonly txBytes?: { bytes: Uint8Array; start: Int32Array; end: Int32Array; inFile: Uint8Array };
  /** The references as spans [start, end) of their UTF-8 bytes, when the reader kept them so (the mirror's). */
  readonly txSpans?: { bytes: Buffer; start: Int32Array; end: Int32Array };
  /** FNV-1a of each `txId` (threadedReaders' `hashText`), when the reader computed it on the way. */
  readonly txHash?: Uint32Array;
  /** The table of `txId` for matching, when the reader built it (the mirror's, on its worker thread). */
  readonly txIndex?: ReferenceIndex;
  /** `id`; NaN when the entry has none. */
  readonly logId: Float64Array;
  readonly amountKobo: Float64Array;
  /** `transaction_cost`; NaN when the export has no cost column. */
  readonly costKobo: Float64Array;
  readonly status: Uint8Array;
  /** `created_at` as epoch ms; NaN when unknown. */
  readonly createdMs: Float64Array;
  /** `updated_at` as epoch ms for failed entries (when their refund was due), when read eagerly. */
  readonly updatedMs?: Float64Array;
  /** Row numbers in the export file, when the source is a file. */
  readonly rowNumbers?: Int32Array;
  detail(index: number): EntryDetail;
}

/**
 * `detail` remembering what it gave (up to `limit` entries): matching and the report ask for the
 * same few unpaired entries again, and each is a database query or a record to split.
 */
export function rememberedDetail(detail: (index: number) => EntryDetail, limit = 20_000): (index: number) => EntryDetail {
  const seen = new Map<number, EntryDetail>();
  return (index) => {
    let d = seen.get(index);
    if (d === undefined) {
      d = detail(index);
      if (seen.size < limit) seen.set(index, d);
    }
    return d;
  };
}

/** Entry `i`'s reference ('' when none). */
export function txIdAt(cols: Pick<LogColumns, 'txIdOf' | 'txId'>, i: number): string {
  return cols.txIdOf ? cols.txIdOf(i) : cols.txId[i];
}

/** Whether `s` is the UTF-8 bytes [start, end) of `bytes` (compared a byte a character while they are ASCII). */
export function spanIs(s: string, bytes: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  let k = 0;
  for (; k < s.length && k < length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x80) break;
    if (bytes[start + k] !== c) return false;
  }
  if (k === s.length) return k === length;
  // A character past ASCII: the rest as UTF-8.
  return Buffer.from(bytes.buffer, bytes.byteOffset + start + k, length - k).toString('utf8') === s.slice(k);
}

/** Builds LogColumns from plain entries (tests, small sources, the service log). */
export interface PlainEntry {
  transactionId: string;
  id: number | null;
  amountKobo: number;
  costKobo: number | null;
  status: string;
  createdAt: string | null;
  updatedAt?: string | null;
  phone: string;
  type: string;
  product: string;
  network: string;
  rowNumber?: number | null;
}

/** The columns every source fills for every entry. */
export type CoreColumns = Pick<LogColumns, 'txId' | 'logId' | 'amountKobo' | 'costKobo' | 'status' | 'createdMs'>;

/** The core columns for `n` entries, to be filled in place. */
export function allocCoreColumns(n: number): CoreColumns {
  return {
    txId: new Array<string>(n),
    logId: new Float64Array(n),
    amountKobo: new Float64Array(n),
    costKobo: new Float64Array(n),
    status: new Uint8Array(n),
    createdMs: new Float64Array(n),
  };
}

export function columnsFromEntries(entries: readonly PlainEntry[]): LogColumns {
  const n = entries.length;
  const { txId, logId, amountKobo, costKobo, status, createdMs } = allocCoreColumns(n);
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    txId[i] = e.transactionId;
    logId[i] = e.id ?? NaN;
    amountKobo[i] = e.amountKobo;
    costKobo[i] = e.costKobo ?? NaN;
    status[i] = statusCode(e.status);
    createdMs[i] = e.createdAt ? Date.parse(e.createdAt) : NaN;
  }
  return {
    length: n,
    txId,
    logId,
    amountKobo,
    costKobo,
    status,
    createdMs,
    detail(i) {
      const e = entries[i];
      return {
        phone: e.phone,
        type: e.type,
        product: e.product,
        network: e.network,
        createdAt: e.createdAt,
        updatedMs: e.updatedAt ? Date.parse(e.updatedAt) : NaN,
        rowNumber: e.rowNumber ?? null,
      };
    },
  };
}

/** The mirror restricted to some of its entries, indices kept (others look like entries with no keys). */
export function maskedColumns(mir: LogColumns, mask: Uint8Array): LogColumns {
  const logId = mir.logId.map((v, i) => (mask[i] ? v : NaN));
  const amountKobo = mir.amountKobo.map((v, i) => (mask[i] ? v : -1));
  const spans = mir.txSpans;
  // (Matching builds its own table of the references: the mirror's knows the masked entries'.)
  if (spans && mir.txIdOf) {
    // The references stay spans of their bytes: a masked entry's is empty.
    const txIdOf = mir.txIdOf;
    const end = spans.end.map((e, i) => (mask[i] ? e : spans.start[i]));
    let wholeTxId: string[] | null = null;
    // (Not spread from `mir`: that would make its whole `txId`.)
    return {
      length: mir.length,
      get txId(): string[] {
        wholeTxId ??= Array.from({ length: mir.length }, (_, i) => (mask[i] ? txIdOf(i) : ''));
        return wholeTxId;
      },
      txIdOf: (i) => (mask[i] ? txIdOf(i) : ''),
      hasTxId: (i) => end[i] > spans.start[i],
      txSpans: { bytes: spans.bytes, start: spans.start, end },
      txHash: mir.txHash,
      logId,
      amountKobo,
      costKobo: mir.costKobo,
      status: mir.status,
      createdMs: mir.createdMs,
      updatedMs: mir.updatedMs,
      rowNumbers: mir.rowNumbers,
      detail: (i) => mir.detail(i),
    };
  }
  const txId = mir.txId.map((t, i) => (mask[i] ? t : ''));
  return {
    ...mir,
    length: mir.length,
    txId,
    txIdOf: undefined,
    hasTxId: undefined,
    txIdIs: undefined,
    txSpans: undefined,
    txIndex: undefined,
    logId,
    amountKobo,
    detail: (i) => mir.detail(i),
  };
}
