/**
 * Saved reconciliation runs (migration 004): a run row with its inputs, parameters, totals and
 * roll-forward; one row per exception item; matched pairs packed in one blob (export row number,
 * mirror log id and rule per pair) and read back page by page.
 *
 * Longer than 400 lines on purpose: it is the one place that reads and writes the reconcile
 * tables (runs, items, packed pairs), so their SQL and the views made from it stay together.
 */
import {
  RECONCILE_CATEGORIES,
  type CategoryTotal,
  type MatchRule,
  type ReconcileCategory,
  type ReconcileInputs,
  type ReconcileItemView,
  type ReconcileItemsPage,
  type ReconcileParameters,
  type ReconcileRunListItem,
  type ReconcileRunState,
  type ReconcileRunView,
  type RollForward,
  type UnreadableRow,
} from '../../shared/contract/reconcile';
import { AppError } from '../../shared/appError';
import type { Db } from '../store/database';
import { emptyTotals, type ItemDraft } from './categorizeEntries';
import { RULE_NAMES } from './matchEntries';
import { mirrorEntriesById } from './mirrorEntries';
import { localSubmissionsByReference } from './localSubmissions';

interface RunRow {
  id: string;
  profile_id: string;
  state: ReconcileRunState;
  created_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  range_from: string;
  range_to: string;
  file_name: string;
  file_hash: string | null;
  parameters_json: string;
  inputs_json: string | null;
  totals_json: string | null;
  matched_by_rule_json: string | null;
  roll_forward_json: string | null;
  unreadable_json: string | null;
  matched_count: number;
  error: string | null;
}

interface ItemRow {
  seq: number;
  category: ReconcileCategory;
  rule: MatchRule | null;
  export_row: number | null;
  transaction_id: string;
  log_id: number | null;
  phone: string;
  type: string;
  product: string;
  network: string;
  created_at: string | null;
  export_amount_kobo: number | null;
  mirror_amount_kobo: number | null;
  export_cost_kobo: number | null;
  mirror_cost_kobo: number | null;
  export_status: string | null;
  mirror_status: string | null;
  local_ref: string | null;
  local_state: string | null;
  amount_kobo: number;
  detail: string;
  resolved_at: string | null;
  resolution_note: string | null;
  requery_status: string | null;
  requery_at: string | null;
}

export function createRun(db: Db, run: { id: string; profileId: string; createdAt: string; parameters: ReconcileParameters; fileName: string }): void {
  db.prepare(
    `INSERT INTO reconcile_runs (id, profile_id, state, created_at, range_from, range_to, file_name, parameters_json)
     VALUES (?, ?, 'running', ?, ?, ?, ?, ?)`,
  ).run(run.id, run.profileId, run.createdAt, run.parameters.from, run.parameters.to, run.fileName, JSON.stringify(run.parameters));
}

/**
 * Packs matched pairs. A million pairs as fixed-width columns are 13 MB, which SQLite took ~55 ms
 * to write page by page, so they are kept as differences from the pair before: [n u32][1 u32],
 * then per pair two varints, ((export row − previous − 1) zigzagged × 4 + rule) and (mirror log id
 * − previous − 1) zigzagged — two bytes for the usual pair (next row, next id). Pairs this cannot
 * hold exactly (a log id that is not an integer below 2^50, a rule over 3) are stored in the first
 * form, which is still read: [n u32][0 u32][mirror log id f64 × n][export row i32 × n][rule u8 × n].
 */
export function packPairs(logIds: Float64Array, exportRows: Int32Array, rules: Uint8Array): Buffer {
  const n = logIds.length;
  const most = 2 ** 50;
  let fits = true;
  for (let k = 0; k < n && fits; k++) {
    const id = logIds[k];
    if (!Number.isInteger(id) || id > most || id < -most || rules[k] > 3) fits = false;
  }
  if (!fits) {
    const buf = Buffer.alloc(8 + n * 8 + n * 4 + n);
    buf.writeUInt32LE(n, 0);
    Buffer.from(logIds.buffer, logIds.byteOffset, n * 8).copy(buf, 8);
    Buffer.from(exportRows.buffer, exportRows.byteOffset, n * 4).copy(buf, 8 + n * 8);
    Buffer.from(rules.buffer, rules.byteOffset, n).copy(buf, 8 + n * 12);
    return buf;
  }
  // At most 6 bytes for the first varint (< 2^35) and 8 for the second (< 2^53) a pair.
  const out = Buffer.allocUnsafe(8 + n * 14);
  out.writeUInt32LE(n, 0);
  out.writeUInt32LE(1, 4);
  let at = 8;
  let row = 0;
  let id = 0;
  for (let k = 0; k < n; k++) {
    const dRow = exportRows[k] - row - 1;
    const dId = logIds[k] - id - 1;
    row = exportRows[k];
    id = logIds[k];
    // Zigzag by arithmetic (the values may pass 2^31), then 7 bits a byte.
    let v = (dRow >= 0 ? dRow * 2 : -dRow * 2 - 1) * 4 + rules[k];
    while (v >= 128) {
      out[at++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    out[at++] = v;
    v = dId >= 0 ? dId * 2 : -dId * 2 - 1;
    while (v >= 128) {
      out[at++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    out[at++] = v;
  }
  return out.subarray(0, at);
}

export interface PackedPairs {
  logIds: Float64Array;
  exportRows: Int32Array;
  rules: Uint8Array;
}

export function unpackPairs(blob: Buffer | null): PackedPairs {
  if (!blob || blob.length < 8) return { logIds: new Float64Array(0), exportRows: new Int32Array(0), rules: new Uint8Array(0) };
  const n = blob.readUInt32LE(0);
  if (blob.readUInt32LE(4) === 1) {
    const logIds = new Float64Array(n);
    const exportRows = new Int32Array(n);
    const rules = new Uint8Array(n);
    let at = 8;
    let row = 0;
    let id = 0;
    const varint = (): number => {
      let v = 0;
      let scale = 1;
      for (;;) {
        const b = blob[at++];
        v += (b & 127) * scale;
        if (b < 128) return v;
        scale *= 128;
      }
    };
    for (let k = 0; k < n; k++) {
      let v = varint();
      rules[k] = v % 4;
      v = Math.floor(v / 4);
      row += (v % 2 === 0 ? v / 2 : -(v + 1) / 2) + 1;
      v = varint();
      id += (v % 2 === 0 ? v / 2 : -(v + 1) / 2) + 1;
      exportRows[k] = row;
      logIds[k] = id;
    }
    return { logIds, exportRows, rules };
  }
  const copy = new Uint8Array(blob.length);
  copy.set(blob);
  return {
    logIds: new Float64Array(copy.buffer, 8, n),
    exportRows: new Int32Array(copy.buffer.slice(8 + n * 8, 8 + n * 12)),
    rules: new Uint8Array(copy.buffer, 8 + n * 12, n),
  };
}

export interface FinishedRun {
  parameters: ReconcileParameters;
  inputs: ReconcileInputs;
  totals: Record<ReconcileCategory, CategoryTotal>;
  matchedByRule: Record<MatchRule, number>;
  rollForward: RollForward;
  unreadable: UnreadableRow[];
  items: ItemDraft[];
  pairs: Buffer;
  matchedCount: number;
  durationMs: number;
}

export function finishRun(db: Db, runId: string, r: FinishedRun): void {
  const insert = db.prepare(
    `INSERT INTO reconcile_items (run_id, seq, category, rule, export_row, transaction_id, log_id, phone, type, product, network, created_at,
       export_amount_kobo, mirror_amount_kobo, export_cost_kobo, mirror_cost_kobo, export_status, mirror_status, local_ref, local_state, amount_kobo, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    let seq = 0;
    for (const i of r.items) {
      insert.run(
        runId,
        ++seq,
        i.category,
        i.rule,
        i.exportRow,
        i.transactionId,
        i.logId,
        i.phone,
        i.type,
        i.product,
        i.network,
        i.createdAt,
        i.exportAmountKobo,
        i.mirrorAmountKobo,
        i.exportCostKobo,
        i.mirrorCostKobo,
        i.exportStatus,
        i.mirrorStatus,
        i.localRef,
        i.localState,
        i.amountKobo,
        i.detail,
      );
    }
    db.prepare(
      `UPDATE reconcile_runs SET state = 'done', finished_at = ?, duration_ms = ?, range_from = ?, range_to = ?, file_hash = ?, parameters_json = ?, inputs_json = ?,
         totals_json = ?, matched_by_rule_json = ?, roll_forward_json = ?, unreadable_json = ?, matched_count = ?, matched_pairs = ? WHERE id = ?`,
    ).run(
      new Date().toISOString(),
      r.durationMs,
      r.parameters.from,
      r.parameters.to,
      r.inputs.fileHash,
      JSON.stringify(r.parameters),
      JSON.stringify(r.inputs),
      JSON.stringify(r.totals),
      JSON.stringify(r.matchedByRule),
      JSON.stringify(r.rollForward),
      JSON.stringify(r.unreadable),
      r.matchedCount,
      r.pairs,
      runId,
    );
  })();
}

export function failRun(db: Db, runId: string, state: 'failed' | 'cancelled', message: string, parameters?: ReconcileParameters): void {
  db.prepare(`UPDATE reconcile_runs SET state = ?, finished_at = ?, error = ?${parameters ? ', parameters_json = ?, range_from = ?, range_to = ?' : ''} WHERE id = ?`).run(
    state,
    new Date().toISOString(),
    message,
    ...(parameters ? [JSON.stringify(parameters), parameters.from, parameters.to] : []),
    runId,
  );
}

/**
 * Refuses a run of another connection (its figures belong to that service, not the one in use),
 * with the same words as a run that does not exist.
 */
export function requireRunOf(db: Db, profileId: string, runId: string): void {
  const row = db.prepare('SELECT profile_id FROM reconcile_runs WHERE id = ?').get(runId) as { profile_id: string } | undefined;
  if (!row || row.profile_id !== profileId) throw runNotFound(runId);
}

function runNotFound(runId: string): AppError {
  return new AppError(
    'run_not_found',
    `There is no reconciliation run ${runId} on this connection.`,
    'Choose a run from the history list (it lists the runs of the connection in use).',
  );
}

function getRunRow(db: Db, runId: string): RunRow {
  const row = db.prepare('SELECT * FROM reconcile_runs WHERE id = ?').get(runId) as RunRow | undefined;
  if (!row) throw runNotFound(runId);
  return row;
}

function parse<T>(json: string | null, fallback: T): T {
  return json ? (JSON.parse(json) as T) : fallback;
}

export function runView(db: Db, runId: string): ReconcileRunView {
  const row = getRunRow(db, runId);
  const resolvedRows = db.prepare('SELECT category, count(*) AS n FROM reconcile_items WHERE run_id = ? AND resolved_at IS NOT NULL GROUP BY category').all(runId) as {
    category: ReconcileCategory;
    n: number;
  }[];
  const resolved: Partial<Record<ReconcileCategory, number>> = {};
  for (const r of resolvedRows) resolved[r.category] = r.n;
  return {
    id: row.id,
    state: row.state,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    parameters: parse<ReconcileParameters>(row.parameters_json, { from: row.range_from, to: row.range_to, matchWindowMinutes: 15, duplicateWindowMinutes: 10, sheet: null }),
    inputs: parse<ReconcileInputs | null>(row.inputs_json, null),
    totals: parse(row.totals_json, emptyTotals()),
    matchedByRule: parse<Record<MatchRule, number>>(row.matched_by_rule_json, { transaction_id: 0, id: 0, phone_amount_time: 0 }),
    rollForward: parse<RollForward | null>(row.roll_forward_json, null),
    unreadable: parse<UnreadableRow[]>(row.unreadable_json, []),
    resolved,
    error: row.error,
  };
}

/** The runs of one connection, newest first. */
export function listRuns(db: Db, profileId: string, limit: number): ReconcileRunListItem[] {
  const rows = db.prepare('SELECT * FROM reconcile_runs WHERE profile_id = ? ORDER BY created_at DESC LIMIT ?').all(profileId, limit) as RunRow[];
  const resolvedCount = db.prepare('SELECT count(*) AS n FROM reconcile_items WHERE run_id = ? AND resolved_at IS NOT NULL');
  return rows.map((row) => {
    const totals = parse(row.totals_json, emptyTotals());
    const inputs = parse<ReconcileInputs | null>(row.inputs_json, null);
    const rf = parse<RollForward | null>(row.roll_forward_json, null);
    let exceptions = 0;
    let exceptionsKobo = 0;
    for (const c of RECONCILE_CATEGORIES) {
      if (c === 'matched') continue;
      exceptions += totals[c].count;
      exceptionsKobo += totals[c].amountKobo;
    }
    return {
      id: row.id,
      state: row.state,
      createdAt: row.created_at,
      from: row.range_from,
      to: row.range_to,
      fileName: row.file_name,
      fileHash: row.file_hash ?? '',
      exportRows: inputs?.exportRows ?? 0,
      matched: totals.matched.count,
      exceptions,
      exceptionsKobo,
      unexplainedKobo: rf?.unexplainedKobo ?? null,
      resolvedCount: (resolvedCount.get(row.id) as { n: number }).n,
    };
  });
}

function itemView(r: ItemRow): ReconcileItemView {
  return {
    seq: r.seq,
    category: r.category,
    rule: r.rule,
    exportRow: r.export_row,
    transactionId: r.transaction_id,
    logId: r.log_id,
    phone: r.phone,
    type: r.type,
    product: r.product,
    network: r.network,
    createdAt: r.created_at,
    exportAmountKobo: r.export_amount_kobo,
    mirrorAmountKobo: r.mirror_amount_kobo,
    exportCostKobo: r.export_cost_kobo,
    mirrorCostKobo: r.mirror_cost_kobo,
    exportStatus: r.export_status,
    mirrorStatus: r.mirror_status,
    localRef: r.local_ref,
    localState: r.local_state,
    amountKobo: r.amount_kobo,
    detail: r.detail,
    resolvedAt: r.resolved_at,
    resolutionNote: r.resolution_note,
    requeryStatus: r.requery_status,
    requeryAt: r.requery_at,
  };
}

const pairCache = new WeakMap<Db, Map<string, PackedPairs>>();

export function matchedPairs(db: Db, runId: string): PackedPairs {
  let cache = pairCache.get(db);
  if (!cache) {
    cache = new Map();
    pairCache.set(db, cache);
  }
  const hit = cache.get(runId);
  if (hit) return hit;
  const row = db.prepare('SELECT matched_pairs FROM reconcile_runs WHERE id = ?').get(runId) as { matched_pairs: Buffer | null } | undefined;
  const pairs = unpackPairs(row?.matched_pairs ?? null);
  cache.clear(); // keep one run's pairs at most
  cache.set(runId, pairs);
  return pairs;
}

function matchedItem(
  seq: number,
  logId: number,
  exportRow: number,
  rule: number,
  m: ReturnType<typeof mirrorEntriesById>,
  sent: ReturnType<typeof localSubmissionsByReference>,
): ReconcileItemView | null {
  const e = m.get(logId);
  if (!e) return null;
  const local = sent.get(e.transaction_id);
  return {
    seq,
    category: 'matched',
    rule: RULE_NAMES[rule] ?? null,
    exportRow,
    transactionId: e.transaction_id,
    logId: e.id,
    phone: e.phone_number,
    type: e.type,
    product: e.data_plan || e.description,
    network: e.network,
    createdAt: e.created_at,
    exportAmountKobo: e.amount_kobo,
    mirrorAmountKobo: e.amount_kobo,
    exportCostKobo: e.cost_kobo,
    mirrorCostKobo: e.cost_kobo,
    exportStatus: e.status,
    mirrorStatus: e.status,
    localRef: local?.localRef ?? null,
    localState: local?.state ?? null,
    amountKobo: e.amount_kobo,
    detail: 'The export and the mirror agree.',
    resolvedAt: null,
    resolutionNote: null,
    requeryStatus: null,
    requeryAt: null,
  };
}

/** A page of one category. Matched items come from the mirror through the packed pairs. */
export function itemsPage(db: Db, runId: string, category: ReconcileCategory, offset: number, limit: number, search?: string): ReconcileItemsPage {
  const run = getRunRow(db, runId);
  if (category === 'matched') {
    const pairs = matchedPairs(db, runId);
    let indices: number[] | null = null;
    if (search) {
      const like = `%${search}%`;
      const hits = new Set(
        db
          .prepare('SELECT id FROM log_entries WHERE profile_id = ? AND (transaction_id LIKE ? OR phone_number LIKE ?) LIMIT 100000')
          .pluck()
          .all(run.profile_id, like, like) as number[],
      );
      indices = [];
      for (let k = 0; k < pairs.logIds.length; k++) if (hits.has(pairs.logIds[k])) indices.push(k);
    }
    const total = indices ? indices.length : pairs.logIds.length;
    const chosen: number[] = [];
    for (let k = offset; k < Math.min(total, offset + limit); k++) chosen.push(indices ? indices[k] : k);
    const entries = mirrorEntriesById(
      db,
      run.profile_id,
      chosen.map((k) => pairs.logIds[k]),
    );
    const sent = localSubmissionsByReference(
      db,
      run.profile_id,
      [...entries.values()].map((e) => e.transaction_id),
    );
    const items: ReconcileItemView[] = [];
    for (const k of chosen) {
      const item = matchedItem(k + 1, pairs.logIds[k], pairs.exportRows[k], pairs.rules[k], entries, sent);
      if (item) items.push(item);
    }
    return { total, offset, items };
  }
  const where = search ? 'AND (transaction_id LIKE ? OR phone LIKE ? OR local_ref LIKE ?)' : '';
  const params: (string | number)[] = [runId, category];
  if (search) params.push(`%${search}%`, `%${search}%`, `%${search}%`);
  const total = (db.prepare(`SELECT count(*) AS n FROM reconcile_items WHERE run_id = ? AND category = ? ${where}`).get(...params) as { n: number }).n;
  const rows = db.prepare(`SELECT * FROM reconcile_items WHERE run_id = ? AND category = ? ${where} ORDER BY seq LIMIT ? OFFSET ?`).all(...params, limit, offset) as ItemRow[];
  return { total, offset, items: rows.map(itemView) };
}

/** Every item of a category, in order, for exports (matched ones in batches from the mirror). */
export function* allItems(db: Db, runId: string, category: ReconcileCategory): Generator<ReconcileItemView> {
  const batch = 2000;
  for (let offset = 0; ; offset += batch) {
    const page = itemsPage(db, runId, category, offset, batch);
    yield* page.items;
    if (offset + batch >= page.total) return;
  }
}

export function itemsBySeq(db: Db, runId: string, seqs: readonly number[]): ReconcileItemView[] {
  const stmt = db.prepare('SELECT * FROM reconcile_items WHERE run_id = ? AND seq = ?');
  const out: ReconcileItemView[] = [];
  for (const s of seqs) {
    const r = stmt.get(runId, s) as ItemRow | undefined;
    if (r) out.push(itemView(r));
  }
  return out;
}

export function pendingItems(db: Db, runId: string): ReconcileItemView[] {
  getRunRow(db, runId);
  return (db.prepare("SELECT * FROM reconcile_items WHERE run_id = ? AND category = 'pending' AND resolved_at IS NULL ORDER BY seq").all(runId) as ItemRow[]).map(itemView);
}

export function resolveItems(db: Db, runId: string, seqs: readonly number[], note: string): number {
  getRunRow(db, runId);
  const stmt = db.prepare('UPDATE reconcile_items SET resolved_at = ?, resolution_note = ? WHERE run_id = ? AND seq = ?');
  const at = new Date().toISOString();
  let n = 0;
  db.transaction(() => {
    for (const s of seqs) n += stmt.run(at, note, runId, s).changes;
  })();
  if (n === 0) {
    throw new AppError(
      'items_not_found',
      'None of the chosen items belong to this run (matched items need no resolving).',
      'Choose items from one of the exception tables and try again.',
    );
  }
  return n;
}

export function setRequeryStatus(db: Db, runId: string, seq: number, status: string): void {
  db.prepare('UPDATE reconcile_items SET requery_status = ?, requery_at = ? WHERE run_id = ? AND seq = ?').run(status, new Date().toISOString(), runId, seq);
}
