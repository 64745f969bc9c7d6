/**
 * A row of a team job that another team desktop claimed (and so sent, or was about to send) is
 * never sent from here. When this desktop reaches it, the item is marked uncertain and settled at
 * once from the service's log, searched around when the other desktop claimed it: found, it takes
 * that entry's outcome and reference; not found (still on its way, or that desktop stopped before
 * sending it), it stays uncertain with a reason that says so — resuming the job on that desktop
 * sends it, or the user marks it. Electricity and cable rows (bought as purchases, not matched by
 * phone in the log) stay uncertain for the user.
 *
 * The log is read once for a whole run, not once per row (issue 26): one paged read of the job's
 * type from the earliest claim any other request made for this team job (less the matcher's
 * window) to now. It stands for every row claimed before it began; a row claimed after it (the
 * other desktop still running) or met a second time in this run is read for again, over the same
 * window. Batches running at once wait for one another here, so they share the read.
 */
import type { AppPart } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import type { ParsedLogEntry } from '../api/parseLogEntry';
import { logEntriesFrom, type LogReader } from '../api/logLookup';
import type { ItemRow, JobRow } from '../buying/jobRows';
import type { TeamJobs } from '../buying/teamJobs';
import { isVendingKind } from '../buying/jobStates';
import { MATCH_BEFORE_MS, matchSentPurchase } from '../api/logMatch';
import { itemStateOfEntry } from '../buying/jobStates';

export interface OtherClaim {
  desktopId: string;
  claimedBy: string;
  /** When the other desktop claimed the row (epoch ms, the team database's clock). */
  claimedMs: number;
}

export interface SentElsewhere {
  item: ItemRow;
  claim: OtherClaim;
}

/** What the team database says of this team job's claims by other requests, when asked. */
export interface OtherClaimsNow {
  /** The earliest such claim (epoch ms), or null when none. */
  earliestMs: number | null;
  /** The team database's time when asked: every claim up to it is known. */
  nowMs: number;
  /** How many such claims: the log entries the read looks for, beyond the limit on pages read. */
  count: number;
}

/** One read of the log: entries by phone, and the claims it stands for (made up to `coversMs`). */
interface LogRead {
  byPhone: Map<string, ParsedLogEntry[]>;
  fromMs: number;
  coversMs: number;
}

function sentBy(claim: OtherClaim): string {
  return `another team desktop (${claim.claimedBy}, desktop ${claim.desktopId}) at ${new Date(claim.claimedMs).toISOString()}`;
}

function byPhone(entries: readonly ParsedLogEntry[]): Map<string, ParsedLogEntry[]> {
  const out = new Map<string, ParsedLogEntry[]>();
  const ids = new Set<number>();
  for (const e of entries) {
    if (ids.has(e.id)) continue; // a log growing while paged repeats an entry on the next page
    ids.add(e.id);
    const list = out.get(e.phoneNumber);
    if (list) list.push(e);
    else out.set(e.phoneNumber, [e]);
  }
  return out;
}

/**
 * The settler of one run of a linked job: called with the rows of a batch another request claimed.
 * `log` reads the log of the job's own connection (pinned for the run). `otherClaims` asks the
 * team database for the window (its failure only narrows the read to the rows at hand).
 */
export function sentElsewhereSettler(
  app: AppPart<'db' | 'service'>,
  jobs: TeamJobs,
  job: JobRow,
  log: LogReader,
  otherClaims: () => Promise<OtherClaimsNow>,
): (rows: readonly SentElsewhere[]) => Promise<void> {
  let read: LogRead | null = null;
  const met = new Set<number>();

  async function readFor(rows: readonly SentElsewhere[]): Promise<LogRead | null> {
    const earliestHere = Math.min(...rows.map((r) => r.claim.claimedMs));
    let known: OtherClaimsNow = { earliestMs: null, nowMs: Number.NEGATIVE_INFINITY, count: 0 };
    try {
      known = await otherClaims();
    } catch {
      // Without the team database's answer the read stands only for these rows.
    }
    const fromMs = Math.min(known.earliestMs ?? earliestHere, earliestHere, read ? read.fromMs + MATCH_BEFORE_MS : earliestHere) - MATCH_BEFORE_MS;
    try {
      const entries = await logEntriesFrom(log, job.kind, fromMs, undefined, undefined, Math.max(known.count, rows.length));
      return { byPhone: byPhone(entries), fromMs, coversMs: Math.max(known.nowMs, ...rows.map((r) => r.claim.claimedMs)) };
    } catch {
      return null; // the runner's own checks of uncertain items read the log again
    }
  }

  async function settle(rows: readonly SentElsewhere[]): Promise<void> {
    // One local transaction per batch (a commit per row made thousands of rows take seconds). The
    // log is searched around when each was really sent (the claim), not when this desktop got to it.
    jobs.sentElsewhere(
      job.id,
      rows.map(({ item, claim }) => ({
        seq: item.seq,
        reason: `Row ${item.row_number} of this team job was sent by ${sentBy(claim)}; vendesk settles it from the service log and never sends it again.`,
        sentMs: claim.claimedMs,
      })),
    );
    if (isVendingKind(job.kind) || rows.length === 0) return;
    const covered = (r: SentElsewhere) => read !== null && !met.has(r.item.seq) && r.claim.claimedMs <= read.coversMs && r.claim.claimedMs - MATCH_BEFORE_MS >= read.fromMs;
    if (!rows.every(covered)) {
      const fresh = await readFor(rows);
      if (!fresh) return;
      read = fresh;
    }
    const log = read as LogRead;
    app.db.transaction(() => matchAll(log, rows))();
  }

  function matchAll(log: LogRead, rows: readonly SentElsewhere[]): void {
    for (const { item, claim } of rows) {
      met.add(item.seq);
      const current = jobs.item(job.id, item.seq);
      if (!current || current.state !== 'uncertain') continue;
      const match = matchSentPurchase(current, job.kind, log.byPhone.get(current.phone) ?? [], (reference) => jobs.isReferenceClaimed(reference));
      let settled = false;
      for (const entry of match.byReference ? [match.byReference] : match.candidates) {
        if (jobs.claimFromLog(job.id, item.seq, entry.transactionId, itemStateOfEntry(entry), 'log: sent by another team desktop', entry.costKobo)) {
          settled = true;
          break;
        }
      }
      if (settled) continue;
      jobs.stillUncertain(
        job.id,
        item.seq,
        `Row ${item.row_number} of this team job was claimed by ${sentBy(claim)}, but is not in the service log (${Math.round((app.service(createServiceClock).now() - claim.claimedMs) / 1000)} s later). It is never sent from here: resume the job on that desktop, or check with the service and mark it bought or not bought.`,
      );
    }
  }

  // Batches running at once settle one after the other, so the first read serves them all.
  let queue: Promise<void> = Promise.resolve();
  return (rows) => {
    const run = queue.then(() => settle(rows));
    queue = run.catch(() => undefined);
    return run;
  };
}
